/**
 * The cost table is linear in its rows and columns, and a model name is cut to 60
 * columns in text (JSON keeps it whole). 2,000 distinct models, one of them 3,000 characters long, complete
 * and print every model in every layout. How fast is `npm run bench:render`'s job; this test asserts only
 * that the run completes and the output is right.
 */
import { describe, expect, it } from 'vitest';
import type { FakeAccount, UsageEventJson } from '../fake-cursor/server.js';
import { MANUAL_COOKIE_VALUE, onlyRow, runCost } from '../helpers/cost-cli.js';

const NOW = new Date('2026-11-20T15:00:00Z');
const MODELS = 2_000;
const LONG_NAME = `L${'x'.repeat(2999)}`;

const name = (i: number) => (i === 0 ? LONG_NAME : `model-${String(i).padStart(5, '0')}`);
const events: UsageEventJson[] = Array.from({ length: MODELS }, (_, i) => ({
  // Newest first, spread over three days.
  timestamp: String(NOW.getTime() - 60_000 - i * 25_000),
  model: name(i),
  tokenUsage: { inputTokens: 10, outputTokens: 5, totalCents: 1 },
}));
const account = (): FakeAccount[] => [{ cookies: [MANUAL_COOKIE_VALUE], events: { events } }];

/** The distinct `model-NNNNN` names printed. */
const shortNamesIn = (text: string) => new Set(text.match(/model-\d{5}/g));

describe('2,000 distinct models', () => {
  it('JSON: every model, the long name whole', async () => {
    const run = await runCost(account(), ['--json', '--days', '7'], { now: NOW });
    expect(run.code, run.stdout.slice(0, 500)).toBe(0);
    const byModel = onlyRow(run).byModel as Array<{ modelName: string; requests: number }>;
    expect(byModel).toHaveLength(MODELS);
    expect(byModel.map((model) => model.modelName)).toContain(LONG_NAME);
    expect(byModel.every((model) => model.requests === 1)).toBe(true);
  });

  it.each([
    // The full layout with --breakdown holds the full one's Models column too.
    ['the full table with --breakdown', ['--days', '7', '--breakdown']],
    ['the compact table with --breakdown', ['--days', '7', '--compact', '--breakdown']],
  ])('%s: completes and lists every model, the long name cut to 60 columns', async (_, args) => {
    const run = await runCost(account(), args, { now: NOW });
    expect(run.code, run.stderr).toBe(0);
    expect(shortNamesIn(run.stdout).size).toBe(MODELS - 1);
    expect(run.stdout).toContain(`L${'x'.repeat(58)}…`);
    expect(run.stdout).not.toContain('x'.repeat(60));
    // Every line of the table has the same width: the long name did not stretch one column alone.
    const tableLines = run.stdout.split('\n').filter((line) => /^[│┌├└]/.test(line));
    expect(new Set(tableLines.map((line) => [...line].length)).size).toBe(1);
  });
});

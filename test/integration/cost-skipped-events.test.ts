/**
 * An event whose timestamp is no time (out of Date's range, not a
 * number, ≤ 0) or whose token counts are negative or overflow is skipped from every figure, its reported cost
 * included, and counted: a text note and `requestCounts.skipped` in JSON. A total that silently excludes
 * events is not honest, and one bad timestamp must not end the run.
 */
import { describe, expect, it } from 'vitest';
import type { FakeAccount, UsageEventJson } from '../fake-cursor/server.js';
import { MANUAL_COOKIE_VALUE, onlyRow, runCost } from '../helpers/cost-cli.js';

const NOW = new Date('2026-11-20T15:00:00Z');
const HOUR = 3_600_000;

/** $1.00 each, 1,000 input tokens each. */
const good = (hoursAgo: number): UsageEventJson => ({
  timestamp: String(NOW.getTime() - hoursAgo * HOUR),
  model: 'gpt-5',
  kind: 'USAGE_EVENT_KIND_USAGE_BASED',
  tokenUsage: { inputTokens: 1000, totalCents: 100 },
  chargedCents: 100,
});

/** Each reports $500.00, which must not reach any figure. */
const bad: UsageEventJson[] = [
  { ...good(1), timestamp: '100000000000000000' },
  { ...good(1), timestamp: 'abc' },
  { ...good(1), timestamp: '-5' },
  {
    ...good(1),
    tokenUsage: {
      inputTokens: 9_007_199_254_740_991,
      outputTokens: 9_007_199_254_740_991,
      totalCents: 50_000,
    },
  },
  { ...good(1), tokenUsage: { inputTokens: -1, outputTokens: 10, totalCents: 50_000 } },
].map((event) => ({
  ...event,
  chargedCents: 50_000,
  tokenUsage: { ...event.tokenUsage, totalCents: 50_000 },
}));

/** One page with exactly these rows and a count that matches them (the fake's window filter is bypassed). */
const onePage = (rows: UsageEventJson[]): FakeAccount[] => [
  { cookies: [MANUAL_COOKIE_VALUE], events: { events: rows, pages: { 1: rows }, count: rows.length } },
];

describe('events with an impossible timestamp or token counts are skipped and counted', () => {
  const rows = [good(2), bad[0]!, good(30), bad[1]!, bad[2]!, good(50), bad[3]!, bad[4]!];

  it('JSON: requestCounts.skipped, and no figure holds their cost or tokens', async () => {
    const run = await runCost(onePage(rows), ['--json', '--days', '7'], { now: NOW });
    expect(run.code, run.stdout).toBe(0);
    const row = onlyRow(run);
    expect(row.requestCounts).toEqual({ reported: 3, estimated: 0, unpriced: 0, skipped: 5 });
    expect(row.totals).toMatchObject({ inputTokens: 3000, totalTokens: 3000, totalCost: 3 });
    expect(row.apiRateCostUSD).toBe(3);
    expect(row.meteredCostUSD).toBe(3);
    const byModel = row.byModel as Array<{ modelName: string; requests: number }>;
    expect(byModel.map((model) => [model.modelName, model.requests])).toEqual([['gpt-5', 3]]);
  });

  it('text: a note says how many were left out', async () => {
    const run = await runCost(onePage(rows), ['--days', '7'], { now: NOW });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'Note: 5 events skipped: invalid timestamp or token counts; they are left out of every figure above.',
    );
    expect(run.stdout).not.toContain('$500');
    expect(run.stderr).toBe('');
  });

  it('one out-of-range timestamp alone: the run completes and says "1 event … it is"', async () => {
    const [json, text] = await Promise.all([
      runCost(onePage([good(2), bad[0]!]), ['--json', '--days', '7'], { now: NOW }),
      runCost(onePage([good(2), bad[0]!]), ['--days', '7'], { now: NOW }),
    ]);
    expect(json.code, json.stdout).toBe(0);
    expect((onlyRow(json).requestCounts as { skipped: number }).skipped).toBe(1);
    expect(text.stdout).toContain(
      'Note: 1 event skipped: invalid timestamp or token counts; it is left out of every figure above.',
    );
  });

  it('a clean window has no skipped count and no note', async () => {
    const [json, text] = await Promise.all([
      runCost(onePage([good(2), good(3)]), ['--json', '--days', '7'], { now: NOW }),
      runCost(onePage([good(2), good(3)]), ['--days', '7'], { now: NOW }),
    ]);
    expect(onlyRow(json).requestCounts).toEqual({ reported: 2, estimated: 0, unpriced: 0 });
    expect(text.stdout).not.toContain('skipped');
  });
});

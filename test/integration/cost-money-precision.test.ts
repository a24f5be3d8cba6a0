/**
 * Money in `cost --json` at its precision (docs/invariants.md, "Money at its precision"): figures whose
 * binary sum used to reach JSON as `0.0030000000000000005` or `0.12299999999999998` are written as the
 * decimals they are. The bytes are pinned; each figure was worked out by hand from the events below.
 */
import { describe, expect, it } from 'vitest';
import type { UsageEventJson } from '../fake-cursor/events.js';
import { MANUAL_COOKIE_VALUE, onlyRow, runCost } from '../helpers/cost-cli.js';
import { costRowSchema } from '../helpers/json-rows/cost.js';

const NOW = new Date('2026-07-20T15:00:00Z');

const event = (
  minute: number,
  tokenUsage: UsageEventJson['tokenUsage'],
  chargedCents: number,
): UsageEventJson => ({
  timestamp: String(Date.parse('2026-07-20T10:00:00Z') + minute * 60_000),
  model: 'claude-4.5-sonnet',
  kind: 'USAGE_EVENT_KIND_USAGE_BASED',
  tokenUsage,
  chargedCents,
});

async function costJson(events: UsageEventJson[]): Promise<string> {
  const run = await runCost(
    [{ cookies: [MANUAL_COOKIE_VALUE], events: { events } }],
    ['--json', '--days', '1'],
    {
      now: NOW,
    },
  );
  expect(run.code).toBe(0);
  costRowSchema.parse(onlyRow(run));
  return run.stdout;
}

describe('money in cost --json has no float noise', () => {
  it('0.1 + 0.2 cents is $0.003, and 12.1 + 0.2 charged cents is $0.123', async () => {
    // API-rate: 0.1 + 0.2 = 0.3 cents = $0.003. Metered: 12.1 + 0.2 = 12.3 cents = $0.123.
    const json = await costJson([
      event(2, { inputTokens: 10, totalCents: 0.2 }, 0.2),
      event(1, { inputTokens: 20, totalCents: 0.1 }, 12.1),
    ]);
    expect(json).toContain(
      '"daily":[{"date":"2026-07-20","inputTokens":30,"outputTokens":0,"cacheReadTokens":0,' +
        '"cacheCreationTokens":0,"totalTokens":30,"totalCost":0.003,"modelsUsed":["claude-4.5-sonnet"],' +
        '"modelBreakdowns":[{"modelName":"claude-4.5-sonnet","cost":0.003,"totalTokens":30}]}]',
    );
    expect(json).toContain('"sessionCostUSD":0.003,');
    expect(json).toContain('"meteredCostUSD":0.123,');
    expect(json).not.toMatch(/\d\.\d*(0000|9999)\d/);
  });

  it('a list-price estimate: 100 input and 23 output tokens of Sonnet ($3 and $15 per 1M) is $0.000645', async () => {
    // 100 × 3 + 23 × 15 = 645 millionths of a dollar.
    const json = await costJson([event(1, { inputTokens: 100, outputTokens: 23 }, 1)]);
    expect(json).toContain('"apiRateCostUSD":0.000645,');
    expect(json).toContain('"totalCost":0.000645,');
    expect(json).not.toMatch(/\d\.\d*(0000|9999)\d/);
  });
});

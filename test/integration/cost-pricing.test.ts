/**
 * API-rate pricing as a `cost --json` user sees it (docs/invariants.md, "No unknown price as zero"):
 * Cursor's totalCents when sent, list price when missing, unknown models unpriced, a reported zero kept,
 * and an invalid (negative) value failing only its own model's cost.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { UsageEventJson } from '../fake-cursor/events.js';
import { MANUAL_COOKIE_VALUE, onlyRow, runCost } from '../helpers/cost-cli.js';
import { type CostRowJson, costRowSchema } from '../helpers/json-rows/cost.js';

const NOW = new Date('2026-07-20T15:00:00Z');
const at = (minute: number) => String(Date.parse('2026-07-20T10:00:00Z') + minute * 60_000);

const event = (minute: number, model: string, tokenUsage: UsageEventJson['tokenUsage']): UsageEventJson => ({
  timestamp: at(minute),
  model,
  kind: 'USAGE_EVENT_KIND_INCLUDED_IN_PRO',
  tokenUsage,
  chargedCents: 1,
});

// gpt-5 lists at $1.25 input / $10 output per 1M tokens (src/cost/price-table.ts):
// 100,000 × 1.25 + 10,000 × 10 = $0.225.
const GPT5_ESTIMATE_USD = 0.225;

const EVENTS: UsageEventJson[] = [
  event(7, 'claude-4.5-sonnet', { inputTokens: 1000, totalCents: 20 }), // after the bad value: no revival
  event(6, 'claude-4.5-sonnet', { inputTokens: 3000, totalCents: -5 }), // invalid: fails sonnet's cost
  event(5, 'claude-4.5-sonnet', { inputTokens: 2000, totalCents: 30 }),
  event(4, 'composer-1', { inputTokens: 4000, totalCents: 0 }), // reported zero stays zero
  event(3, 'mystery-model-9', { inputTokens: 5000 }), // no price anywhere
  event(2, 'default', { inputTokens: 6000, totalCents: 10 }),
  event(1, 'gpt-5', { inputTokens: 100_000, outputTokens: 10_000 }), // no totalCents: list price
];

let row: CostRowJson;

beforeAll(async () => {
  const run = await runCost(
    [{ cookies: [MANUAL_COOKIE_VALUE], events: { events: EVENTS } }],
    ['--json', '--days', '1'],
    {
      now: NOW,
    },
  );
  expect(run.code).toBe(0);
  row = costRowSchema.parse(onlyRow(run));
});

const byModel = (name: string) => row.byModel.find((model) => model.modelName === name);
const breakdown = (name: string) => row.daily[0]?.modelBreakdowns?.find((model) => model.modelName === name);

describe('cost --json pricing', () => {
  it('an event without totalCents for a known model is estimated at its list price and counted as estimated', () => {
    expect(breakdown('gpt-5')?.cost).toBeCloseTo(GPT5_ESTIMATE_USD, 10);
    expect(byModel('gpt-5')).toMatchObject({
      requests: 1,
      requestCounts: { reported: 0, estimated: 1, unpriced: 0 },
    });
    expect(byModel('gpt-5')?.apiRateCostUSD).toBeCloseTo(GPT5_ESTIMATE_USD, 10);
  });

  it('an unknown model is unpriced (no cost, never $0) and counted as unpriced', () => {
    expect(breakdown('mystery-model-9')).toEqual({ modelName: 'mystery-model-9', totalTokens: 5000 });
    expect(byModel('mystery-model-9')).not.toHaveProperty('apiRateCostUSD');
    expect(byModel('mystery-model-9')).toMatchObject({
      requestCounts: { reported: 0, estimated: 0, unpriced: 1 },
    });
  });

  it('a reported zero stays zero and counts as reported', () => {
    expect(breakdown('composer-1')).toEqual({ modelName: 'composer-1', cost: 0, totalTokens: 4000 });
    expect(byModel('composer-1')).toMatchObject({
      apiRateCostUSD: 0,
      requestCounts: { reported: 1, estimated: 0, unpriced: 0 },
    });
  });

  it("a negative totalCents fails only that model's cost; the day's total is the sum of the known costs", () => {
    expect(breakdown('claude-4.5-sonnet')).toEqual({ modelName: 'claude-4.5-sonnet', totalTokens: 6000 });
    expect(byModel('claude-4.5-sonnet')).not.toHaveProperty('apiRateCostUSD');
    expect(byModel('claude-4.5-sonnet')).toMatchObject({
      requests: 3,
      requestCounts: { reported: 2, estimated: 0, unpriced: 1 },
    });
    expect(breakdown('default')?.cost).toBeCloseTo(0.1, 10);
    const known = GPT5_ESTIMATE_USD + 0.1 + 0;
    expect(row.daily).toHaveLength(1);
    expect(row.daily[0]?.totalCost).toBeCloseTo(known, 10);
    expect(row.last30DaysCostUSD).toBeCloseTo(known, 10);
    expect(row.apiRateCostUSD).toBeCloseTo(known, 10);
    expect(row.sessionCostUSD).toBeCloseTo(known, 10);
  });

  it('the billing-kind total follows the day rule: one bad value hides only its own model, not the bucket', () => {
    // Every event here is included-in-Pro, so the Included bucket covers exactly the day's requests.
    expect(row.byKind.included.requests).toBe(7);
    expect(row.byKind.included.apiRateCostUSD).toBeCloseTo(GPT5_ESTIMATE_USD + 0.1 + 0, 10);
  });

  it('breakdowns are sorted by cost (unknown last), then tokens', () => {
    expect(row.daily[0]?.modelBreakdowns?.map((model) => model.modelName)).toEqual([
      'gpt-5',
      'default',
      'composer-1',
      'claude-4.5-sonnet',
      'mystery-model-9',
    ]);
  });

  it('request counts add up over the window: 4 reported, 1 estimated, 2 unpriced', () => {
    expect(row.requestCounts).toEqual({ reported: 4, estimated: 1, unpriced: 2 });
    expect(row.totals?.totalTokens).toBe(6000 + 4000 + 5000 + 6000 + 110_000);
  });
});

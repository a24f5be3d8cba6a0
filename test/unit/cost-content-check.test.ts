/**
 * The event store's content check (docs/invariants.md, "When a stored range may be trusted"): cursor.com's
 * totals of a range as the schema reads them, and their comparison with the sums of the events held.
 */
import { describe, expect, it } from 'vitest';
import { aggregatedUsageSchema, type RangeTotals } from '../../src/api/schemas/aggregated-usage.js';
import { eventsPageSchema } from '../../src/api/schemas/events.js';
import { EventRows } from '../../src/cost/events/rows.js';
import { heldTotals, sameTotals, totalsText } from '../../src/cost/store/content-check.js';

const totals = (over: Partial<RangeTotals> = {}): RangeTotals => ({
  inputTokens: 1000,
  outputTokens: 200,
  cacheReadTokens: 30,
  cacheWriteTokens: 4,
  totalCents: 73563,
  ...over,
});

describe("cursor.com's totals of a range", () => {
  it('token counts are decimal strings, absent when zero; money is in cents', () => {
    const body = {
      aggregations: [{ modelIntent: 'gpt-5', inputTokens: '1000', totalCents: 73563 }],
      totalInputTokens: '1000',
      totalOutputTokens: '200',
      totalCacheReadTokens: 30,
      totalCostCents: 73563,
    };
    expect(aggregatedUsageSchema.parse(body)).toEqual(totals({ cacheWriteTokens: 0 }));
  });

  it('an empty range may leave out its cost; a range with aggregations may not', () => {
    expect(aggregatedUsageSchema.parse({ aggregations: [] }).totalCents).toBe(0);
    expect(aggregatedUsageSchema.safeParse({ aggregations: [{ modelIntent: 'x' }] }).success).toBe(false);
  });

  it.each([
    ['an unsupported window', { code: 'internal' }],
    ['a count that is not a whole number', { aggregations: [], totalInputTokens: '1.5' }],
    ['a negative cost', { aggregations: [], totalCostCents: -1 }],
  ])('%s is not totals', (_, body) => {
    expect(aggregatedUsageSchema.safeParse(body).success).toBe(false);
  });
});

describe('the stored sums against those totals', () => {
  it('equal totals match; one token or one cent more does not', () => {
    expect(sameTotals(totals(), totals())).toBe(true);
    for (const field of ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const) {
      expect(sameTotals(totals({ [field]: totals()[field] + 1 }), totals())).toBe(false);
    }
    expect(sameTotals(totals({ totalCents: 73564 }), totals())).toBe(false);
  });

  it('cents match within 1e-9 of their size (another summing order), not beyond', () => {
    expect(sameTotals(totals({ totalCents: 73563 * (1 + 0.9e-9) }), totals())).toBe(true);
    expect(sameTotals(totals({ totalCents: 73563 * (1 + 1.1e-9) }), totals())).toBe(false);
    // Under a cent in all, the tolerance is 1e-9 of a cent.
    expect(sameTotals(totals({ totalCents: 0.5 + 0.9e-9 }), totals({ totalCents: 0.5 }))).toBe(true);
    expect(sameTotals(totals({ totalCents: 0.5 + 1.1e-9 }), totals({ totalCents: 0.5 }))).toBe(false);
  });

  it('a cents difference of exactly the tolerance still matches', () => {
    expect(sameTotals(totals({ totalCents: 1e-9 }), totals({ totalCents: 0 }))).toBe(true);
    expect(sameTotals(totals({ totalCents: 0 }), totals({ totalCents: 1e-9 }))).toBe(true);
  });

  it('a token sum past 2^53 cannot be compared, so it never matches', () => {
    expect(sameTotals(totals({ inputTokens: 2 ** 53 - 1 }), totals({ inputTokens: 2 ** 53 - 1 }))).toBe(true);
    expect(sameTotals(totals({ inputTokens: 2 ** 53 }), totals({ inputTokens: 2 ** 53 }))).toBe(false);
  });

  it('the held sums are those of the events with token usage; events without a cost add no cents', () => {
    const page = eventsPageSchema.parse({
      usageEventsDisplay: [
        { timestamp: '1', tokenUsage: { inputTokens: 10, outputTokens: 2, totalCents: 1.25 } },
        { timestamp: '2', tokenUsage: { cacheReadTokens: 7, cacheWriteTokens: 3 } },
        { timestamp: '3', chargedCents: 40 },
      ],
    });
    expect(heldTotals(EventRows.fromEvents(page.usageEventsDisplay))).toEqual({
      inputTokens: 10,
      outputTokens: 2,
      cacheReadTokens: 7,
      cacheWriteTokens: 3,
      totalCents: 1.25,
    });
  });
});

describe('totals as --verbose shows them', () => {
  it('the cost in dollars and the four token counts summed', () => {
    expect(totalsText(totals())).toBe('$735.63, 1,234 tokens');
    expect(totalsText(totals({ totalCents: 0 }))).toBe('$0.00, 1,234 tokens');
  });

  it('cents that cannot be summed read "no cost", never $0.00', () => {
    expect(totalsText(totals({ totalCents: Number.NaN }))).toBe('no cost, 1,234 tokens');
  });
});

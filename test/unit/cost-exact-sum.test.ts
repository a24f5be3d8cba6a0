import { describe, expect, it } from 'vitest';
import { eventsPageSchema } from '../../src/api/schemas/events.js';
import { createCostAggregator } from '../../src/cost/aggregate.js';
import { ExactSum, exactSum } from '../../src/cost/exact-sum.js';
import { createListPricer } from '../../src/cost/pricing.js';
import type { CostWindow } from '../../src/cost/types.js';
import { generateEvents, seededRandom } from '../fake-cursor/generate-events.js';

function shuffled<T>(values: readonly T[], next: () => number): T[] {
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The exact sum of decimal cents, as a rational over 10^k, rounded by Number() (correctly rounded). */
function referenceSum(values: readonly number[]): number {
  // Every test value is a double; its exact binary value is m · 2^e. Sum them as BigInt at a common scale.
  const parts = values.map((value) => {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, value);
    const bits = view.getBigUint64(0);
    const exponent = Number((bits >> 52n) & 0x7ffn);
    const mantissa = (bits & ((1n << 52n) - 1n)) | (exponent === 0 ? 0n : 1n << 52n);
    const sign = bits >> 63n ? -1n : 1n;
    return { m: sign * mantissa, e: (exponent === 0 ? 1 : exponent) - 1075 };
  });
  const low = Math.min(...parts.map((part) => part.e));
  const total = parts.reduce((sum, part) => sum + (part.m << BigInt(part.e - low)), 0n);
  // total · 2^low, correctly rounded: divide exactly through a decimal string with enough digits.
  const negative = total < 0n;
  const magnitude = negative ? -total : total;
  const scaled = (magnitude * 10n ** 1100n) >> BigInt(-low);
  const text = scaled.toString().padStart(1101, '0');
  const decimal = `${text.slice(0, -1100)}.${text.slice(-1100)}`;
  return (negative ? -1 : 1) * Number(decimal);
}

describe('exact sums', () => {
  it('the sum does not depend on the order of its values', () => {
    expect(exactSum([0.1, 0.2, 0.3])).toBe(exactSum([0.3, 0.2, 0.1]));
    expect(0.1 + 0.2 + 0.3).not.toBe(0.3 + 0.2 + 0.1);
    expect(exactSum([0.1, 0.2, 0.3])).toBe(0.6);
  });

  it('rounds once, half to even across partials', () => {
    expect(exactSum([1e-16, 1, 1e16])).toBe(10000000000000002);
    expect(exactSum([1e100, 1, -1e100])).toBe(1);
    expect(exactSum([])).toBe(0);
    expect(Object.is(exactSum([-0]), 0)).toBe(true);
  });

  it('equals the correctly rounded exact sum on 200 random sets of cents, in any order', () => {
    const next = seededRandom(12);
    for (let round = 0; round < 200; round++) {
      const values = Array.from({ length: 1 + Math.floor(next() * 300) }, () =>
        next() < 0.1 ? next() * 1e6 : Math.round(next() * 1e6) / 1e4 / 100,
      );
      const expected = referenceSum(values);
      expect(exactSum(values), `round ${round}`).toBe(expected);
      expect(exactSum(shuffled(values, next)), `round ${round}, shuffled`).toBe(expected);
    }
  });

  it('an overflowing sum is flagged, not returned as a number', () => {
    const sum = new ExactSum();
    sum.add(Number.MAX_VALUE);
    sum.add(Number.MAX_VALUE);
    expect(sum.finite).toBe(false);
  });
});

describe('aggregation is a function of the set of events, not of their order', () => {
  const window: CostWindow = {
    start: new Date('2026-06-01T00:00:00Z'),
    end: new Date('2026-07-01T00:00:00Z'),
    timeZone: 'UTC',
    historyDays: 30,
    label: 'Last 30 days',
  };
  const raw = generateEvents({
    count: 3000,
    start: window.start,
    end: new Date(window.end.getTime() - 1),
    seed: 7,
    withoutTotalCentsEvery: 13,
    withoutChargedCentsEvery: 2000,
  });
  const events = eventsPageSchema.parse({ usageEventsDisplay: raw }).usageEventsDisplay;

  function reportOf(order: typeof events) {
    const aggregator = createCostAggregator({
      timeZone: 'UTC',
      pricing: createListPricer(),
      today: window.end,
    });
    for (const e of order) aggregator.add(e);
    return aggregator.finish(window, { generatedAt: window.end, reportedEventCount: order.length });
  }

  it('page order, reversed and shuffled give the same report, to the last digit', () => {
    const reference = JSON.stringify(reportOf(events));
    expect(JSON.stringify(reportOf([...events].reverse()))).toBe(reference);
    expect(JSON.stringify(reportOf(shuffled(events, seededRandom(3))))).toBe(reference);
  });
});

import { describe, expect, it } from 'vitest';
import type { UsageEvent } from '../../src/api/schemas/events.js';
import { createCostAggregator } from '../../src/cost/aggregate.js';
import { EventRows } from '../../src/cost/events/rows.js';
import { createListPricer, type ListPricer } from '../../src/cost/pricing.js';
import type { CostReport, CostWindow } from '../../src/cost/types.js';
import { event, tokens } from '../helpers/cost-events.js';

const WINDOW: CostWindow = {
  start: new Date('2026-07-01T00:00:00Z'),
  end: new Date('2026-07-20T15:00:00Z'),
  timeZone: 'UTC',
  historyDays: 20,
  label: 'Last 20 days',
};
const NOW = new Date('2026-07-20T15:00:00Z');

function report(
  events: UsageEvent[],
  options: { timeZone?: string; pricing?: ListPricer | null; today?: Date } = {},
): CostReport {
  const settings = {
    timeZone: options.timeZone ?? 'UTC',
    pricing: options.pricing === undefined ? null : options.pricing,
    today: options.today ?? NOW,
  };
  const aggregator = createCostAggregator(settings);
  for (const e of events) aggregator.add(e);
  const meta = { generatedAt: NOW, reportedEventCount: events.length };
  const result = aggregator.finish(WINDOW, meta);
  // The same events as rows (how the dashboard's pages and the event store hand them over), added in two
  // runs of rows, give the same report.
  const rows = EventRows.fromEvents(events);
  const half = Math.floor(rows.length / 2);
  const fromRows = createCostAggregator(settings);
  fromRows.addRows(rows, 0, half);
  fromRows.addRows(rows, half, rows.length);
  expect(fromRows.finish(WINDOW, meta), 'the report from rows').toStrictEqual(result);
  return result;
}

const usage = (input: number, cents?: unknown, extra: Record<string, unknown> = {}) =>
  tokens(input, 0, 0, 0, cents === undefined ? extra : { totalCents: cents, ...extra });

describe('cost aggregation: which events count', () => {
  it.each([
    ['a missing timestamp', { timestamp: undefined }],
    ['a zero timestamp', { timestamp: '0' }],
    ['a negative timestamp', { timestamp: '-5' }],
    ['a fractional timestamp', { timestamp: '1781519582153.5' }],
    ['a timestamp past the range of a date', { timestamp: '100000000000000000' }],
    ['a timestamp one millisecond past the latest date', { timestamp: '8640000000000001' }],
    ['a timestamp that is not a number', { timestamp: 'abc' }],
    ['a negative input count', { tokenUsage: tokens(-1, 100, 0, 0, { totalCents: 5 }) }],
    ['a negative output count', { tokenUsage: tokens(100, -1, 0, 0, { totalCents: 5 }) }],
    ['a negative cache-write count', { tokenUsage: tokens(100, 0, -1, 0, { totalCents: 5 }) }],
    ['a negative cache-read count', { tokenUsage: tokens(100, 0, 0, -1, { totalCents: 5 }) }],
    [
      'token counts whose sum overflows',
      { tokenUsage: tokens(Number.MAX_SAFE_INTEGER, 1, 0, 0, { totalCents: 5 }) },
    ],
  ])(
    'an event with %s is skipped entirely, metered total included, and counted as skipped',
    (_label, fields) => {
      const r = report([
        event('2026-07-20T10:00:00Z', { tokenUsage: usage(10, 1), chargedCents: 1, ...fields }),
        event('2026-07-20T11:00:00Z', { tokenUsage: usage(10, 1), chargedCents: 2 }),
      ]);
      expect(r.daily.map((day) => day.requestCount)).toEqual([1]);
      expect(r.eventCount).toBe(1);
      expect(r.skippedEvents).toBe(1);
      expect(r.meteredCostUSD).toBe(0.02);
    },
  );

  it.each([
    ['no tokenUsage', null],
    ['all four counts zero', tokens(0, 0, 0, 0, { totalCents: 5 })],
  ])('an event with %s adds no day row but still counts for the metered total', (_label, tokenUsage) => {
    const r = report([event('2026-07-20T10:00:00Z', { tokenUsage, chargedCents: 250 })]);
    expect(r.daily).toEqual([]);
    expect(r.eventCount).toBe(1);
    expect(r.meteredCostUSD).toBe(2.5);
    expect(r.byKind.other.requests).toBe(1);
  });

  it('an event at the latest instant a date can hold counts, on its own day', () => {
    // 8.64e15 ms; one millisecond later is skipped (above).
    const r = report([event('+275760-09-13T00:00:00Z', { tokenUsage: usage(10, 1), chargedCents: 2 })]);
    expect(r.daily.map((day) => day.date)).toEqual(['275760-09-13']);
    expect([r.eventCount, r.skippedEvents]).toEqual([1, 0]);
  });

  it('an event without a model is reported as "unknown"', () => {
    const r = report([event('2026-07-20T10:00:00Z', { tokenUsage: usage(10, 1) })]);
    expect(r.daily[0]?.modelsUsed).toEqual(['unknown']);
  });
});

describe('cost aggregation: day keys in the report time zone', () => {
  it('an event at 02:00 UTC lands on the previous day in America/New_York', () => {
    const e = event('2026-07-20T02:00:00Z', { model: 'gpt-5', tokenUsage: usage(10, 1) });
    expect(report([e]).daily.map((d) => d.date)).toEqual(['2026-07-20']);
    expect(report([e], { timeZone: 'America/New_York' }).daily.map((d) => d.date)).toEqual(['2026-07-19']);
  });

  it('an event at 16:00 UTC lands on the next day in Asia/Tokyo', () => {
    const e = event('2026-07-19T16:00:00Z', { model: 'gpt-5', tokenUsage: usage(10, 1) });
    expect(report([e], { timeZone: 'Asia/Tokyo' }).daily.map((d) => d.date)).toEqual(['2026-07-20']);
  });

  // 2026-03-08 is New York's spring-forward day: 23 hours, from 05:00Z to 04:00Z on the 9th. The day
  // keyer caches the last day's range and every quarter hour inside it, so each order reaches the
  // 9th's first hour through a different path. Event i carries 10^i input tokens, so each day's sum
  // shows which events it got.
  it.each([
    ['older first', ['2026-03-08T12:00:00Z', '2026-03-09T04:30:00Z'], { '2026-03-08': 1, '2026-03-09': 10 }],
    ['newer first', ['2026-03-09T04:30:00Z', '2026-03-08T12:00:00Z'], { '2026-03-08': 10, '2026-03-09': 1 }],
    [
      'newer first, then the 9th again',
      ['2026-03-09T04:30:00Z', '2026-03-08T12:00:00Z', '2026-03-09T04:45:00Z'],
      { '2026-03-08': 10, '2026-03-09': 101 },
    ],
    [
      'older first, then a later day, then the 9th',
      ['2026-03-08T12:00:00Z', '2026-03-10T12:00:00Z', '2026-03-09T04:30:00Z'],
      { '2026-03-08': 1, '2026-03-09': 100, '2026-03-10': 10 },
    ],
  ])(
    'the 23-hour spring-forward day ends at its own midnight, not 24 hours on (%s)',
    (_order, instants, days) => {
      const events = instants.map((at, i) => event(at, { tokenUsage: usage(10 ** i, 1) }));
      const daily = report(events, { timeZone: 'America/New_York' }).daily;
      expect(Object.fromEntries(daily.map((d) => [d.date, d.inputTokens]))).toEqual(days);
    },
  );

  it('days are sorted ascending whatever order the events arrive in', () => {
    const r = report([
      event('2026-07-20T10:00:00Z', { tokenUsage: usage(1, 1) }),
      event('2026-07-02T10:00:00Z', { tokenUsage: usage(1, 1) }),
      event('2026-07-11T10:00:00Z', { tokenUsage: usage(1, 1) }),
    ]);
    expect(r.daily.map((d) => d.date)).toEqual(['2026-07-02', '2026-07-11', '2026-07-20']);
  });
});

describe('cost aggregation: per-day, per-model sums', () => {
  const day = [
    event('2026-07-20T09:00:00Z', {
      model: 'gpt-5',
      tokenUsage: tokens(100, 20, 5, 1000, { totalCents: 150 }),
    }),
    event('2026-07-20T10:00:00Z', { model: 'gpt-5', tokenUsage: tokens(50, 10, 0, 0, { totalCents: 50 }) }),
    event('2026-07-20T11:00:00Z', {
      model: 'claude-4.5-sonnet',
      tokenUsage: tokens(10, 0, 0, 0, { totalCents: 300 }),
    }),
  ];

  it('sums the four token fields (cache write → cacheCreation), requests and cents/100 per model', () => {
    const [gpt] = report(day).daily[0]!.models.filter((m) => m.modelName === 'gpt-5');
    expect(gpt).toMatchObject({
      inputTokens: 150,
      outputTokens: 30,
      cacheCreationTokens: 5,
      cacheReadTokens: 1000,
      totalTokens: 1185,
      requestCount: 2,
      costUSD: 2,
    });
  });

  it('the day sums its models: tokens, requests, cost; modelsUsed ascending', () => {
    const d = report(day).daily[0]!;
    expect(d).toMatchObject({ inputTokens: 160, totalTokens: 1195, requestCount: 3, costUSD: 5 });
    expect(d.modelsUsed).toEqual(['claude-4.5-sonnet', 'gpt-5']);
  });

  it('models sort by cost desc (unknown as −1), then tokens desc, then name asc', () => {
    const r = report([
      event('2026-07-20T01:00:00Z', { model: 'b-cheap', tokenUsage: usage(10, 1) }),
      event('2026-07-20T02:00:00Z', { model: 'a-unknown', tokenUsage: usage(1000) }),
      event('2026-07-20T03:00:00Z', { model: 'z-dear', tokenUsage: usage(10, 500) }),
      event('2026-07-20T04:00:00Z', { model: 'c-cheap', tokenUsage: usage(20, 1) }),
      event('2026-07-20T05:00:00Z', { model: 'a-cheap', tokenUsage: usage(10, 1) }),
      event('2026-07-20T06:00:00Z', { model: 'free', tokenUsage: usage(5, 0) }),
    ]);
    expect(r.daily[0]!.models.map((m) => m.modelName)).toEqual([
      'z-dear',
      'c-cheap',
      'a-cheap',
      'b-cheap',
      'free',
      'a-unknown',
    ]);
  });

  it('a token field that overflows becomes null for good; the cost is unaffected', () => {
    const r = report([
      event('2026-07-20T01:00:00Z', {
        model: 'm',
        tokenUsage: tokens(Number.MAX_SAFE_INTEGER - 5, 0, 0, 0, { totalCents: 100 }),
      }),
      event('2026-07-20T02:00:00Z', { model: 'm', tokenUsage: tokens(10, 7, 0, 0, { totalCents: 100 }) }),
      event('2026-07-20T03:00:00Z', { model: 'm', tokenUsage: tokens(1, 0, 0, 0, { totalCents: 100 }) }),
    ]);
    const m = r.daily[0]!.models[0]!;
    expect(m.inputTokens).toBeNull();
    expect(m.outputTokens).toBe(7);
    expect(m.totalTokens).toBeNull();
    expect(m.costUSD).toBe(3);
    expect(r.daily[0]!.inputTokens).toBeNull();
    expect(r.totals.inputTokens).toBeNull();
    expect(r.totals.outputTokens).toBe(7);
    expect(r.totals.totalTokens).toBeNull();
    expect(r.today.tokens).toBeNull();
  });

  it('a token field summing to exactly 2^53 − 1 stays known; one token more makes it unknown', () => {
    const at = (hour: number, input: number) =>
      event(`2026-07-20T0${hour}:00:00Z`, {
        model: 'm',
        tokenUsage: tokens(input, 0, 0, 0, { totalCents: 1 }),
      });
    const edge = report([at(1, 2 ** 52), at(2, 2 ** 52 - 1)]);
    expect(edge.totals.inputTokens).toBe(2 ** 53 - 1);
    expect(edge.totals.totalTokens).toBe(2 ** 53 - 1);
    const past = report([at(1, 2 ** 52), at(2, 2 ** 52)]);
    expect(past.totals.inputTokens).toBeNull();
    expect(past.totals.totalTokens).toBeNull();
    expect(past.totals.costUSD).toBe(0.02);
  });

  it.each([
    ['2^53', 2 ** 53],
    ['Int64.max (2^63 once parsed)', 2 ** 63],
    ['Int64.max as text', '9223372036854775807'],
  ])(
    'a count of %s is unknown: its event counts with its cents, the field and totals are unknown, other fields kept',
    (_label, count) => {
      const r = report([
        event('2026-07-20T01:00:00Z', {
          model: 'm',
          tokenUsage: { inputTokens: count, outputTokens: 7, totalCents: 1 },
          chargedCents: 1,
        }),
        event('2026-07-20T02:00:00Z', { model: 'm', tokenUsage: usage(10, 1), chargedCents: 1 }),
      ]);
      expect(r.skippedEvents).toBe(0);
      expect(r.eventCount).toBe(2);
      const m = r.daily[0]!.models[0]!;
      expect(m).toMatchObject({ inputTokens: null, outputTokens: 7, totalTokens: null, requestCount: 2 });
      expect(m.costUSD).toBe(0.02);
      expect(r.totals).toMatchObject({
        inputTokens: null,
        outputTokens: 7,
        totalTokens: null,
        costUSD: 0.02,
      });
      expect(r.today).toEqual({ tokens: null, costUSD: 0.02 });
      expect(r.byKind.other.totalTokens).toBeNull();
      expect(r.meteredCostUSD).toBe(0.02);
      expect(r.requestCounts).toEqual({ reported: 2, estimated: 0, unpriced: 0 });
    },
  );

  it('a count of 2^53 − 1 is kept exactly', () => {
    const r = report([
      event('2026-07-20T01:00:00Z', { model: 'm', tokenUsage: usage(2 ** 53 - 1, 1), chargedCents: 1 }),
    ]);
    expect(r.totals).toMatchObject({ inputTokens: 2 ** 53 - 1, totalTokens: 2 ** 53 - 1, costUSD: 0.01 });
  });

  it('an unknown count without totalCents has no list price: the request is unpriced, never estimated', () => {
    const r = report([event('2026-07-20T01:00:00Z', { model: 'gpt-5', tokenUsage: tokens(2 ** 53) })], {
      pricing: createListPricer(),
    });
    expect(r.requestCounts).toEqual({ reported: 0, estimated: 0, unpriced: 1 });
    expect(r.totals.costUSD).toBeNull();
  });
});

describe('cost aggregation: cost validity', () => {
  it('missing cents are skipped: the model keeps the known part of its cost', () => {
    const r = report([
      event('2026-07-20T01:00:00Z', { model: 'm', tokenUsage: usage(10, 100) }),
      event('2026-07-20T02:00:00Z', { model: 'm', tokenUsage: usage(10) }),
    ]);
    expect(r.daily[0]!.models[0]!.costUSD).toBe(1);
    expect(r.requestCounts).toEqual({ reported: 1, estimated: 0, unpriced: 1 });
  });

  it('a model with no cents at all has an unknown cost, and so does its day', () => {
    const r = report([event('2026-07-20T01:00:00Z', { model: 'm', tokenUsage: usage(10) })]);
    expect(r.daily[0]!.costUSD).toBeNull();
    expect(r.totals.costUSD).toBeNull();
  });

  it.each([
    ['negative', -5],
    ['"NaN"', 'NaN'],
    ['"Infinity"', 'Infinity'],
    ['text', 'n/a'],
  ])('a %s totalCents makes that model unknown for good; its requests stay counted', (_label, bad) => {
    const r = report([
      event('2026-07-20T01:00:00Z', { model: 'm', tokenUsage: usage(10, 100) }),
      event('2026-07-20T02:00:00Z', { model: 'm', tokenUsage: usage(10, bad) }),
      event('2026-07-20T03:00:00Z', { model: 'm', tokenUsage: usage(10, 100) }),
      event('2026-07-20T04:00:00Z', { model: 'other', tokenUsage: usage(10, 250) }),
    ]);
    const m = r.daily[0]!.models.find((row) => row.modelName === 'm')!;
    expect(m.costUSD).toBeNull();
    expect(m.requestCount).toBe(3);
    expect(m.requestCounts).toEqual({ reported: 2, estimated: 0, unpriced: 1 });
    expect(r.daily[0]!.costUSD).toBe(2.5);
    expect(r.byModel.find((row) => row.modelName === 'm')!.costUSD).toBeNull();
  });

  it('a reported zero stays a known zero', () => {
    const r = report([event('2026-07-20T01:00:00Z', { model: 'm', tokenUsage: usage(10, 0) })]);
    expect(r.daily[0]!.costUSD).toBe(0);
    expect(r.provenance).toBe('listPriceEstimate');
  });

  it('a cost sum whose cents overflow is invalid; one such cost alone is finite and kept', () => {
    // Each cost is finite (1.797e306 USD); two of them overflow in cents, where the sum is taken.
    const huge = (minute: number) =>
      event(`2026-07-20T01:0${minute}:00Z`, { model: 'm', tokenUsage: usage(10, 1.797e308) });
    const two = report([huge(1), huge(2)]);
    expect(two.daily[0]!.models[0]!.costUSD).toBeNull();
    expect(two.daily[0]!.models[0]!.invalidReportedCost).toBe(true);
    expect(two.totals.costUSD).toBeNull();
    const one = report([huge(1)]);
    expect(one.daily[0]!.models[0]!.costUSD).toBe(1.797e306);
    expect(one.totals.costUSD).toBe(1.797e306);
  });

  it('a day whose models’ money overflows in cents has it unknown; below that it is their sum', () => {
    const day = (cents: number) =>
      report([
        event('2026-07-20T01:00:00Z', { model: 'a', tokenUsage: usage(10, cents), chargedCents: cents }),
        event('2026-07-20T02:00:00Z', { model: 'b', tokenUsage: usage(10, cents), chargedCents: cents }),
      ]).daily[0]!;
    const over = day(1e308);
    expect(over.models.map((m) => [m.costUSD, m.meteredUSD])).toEqual([
      [1e306, 1e306],
      [1e306, 1e306],
    ]);
    expect(over.costUSD).toBeNull();
    expect(over.meteredUSD).toBeNull();
    expect(day(8e307)).toMatchObject({ costUSD: 1.6e306, meteredUSD: 1.6e306 });
  });
});

describe('cost aggregation: list-price fallback', () => {
  it('a known model without totalCents is estimated at list price and counted as estimated', () => {
    const r = report([event('2026-07-20T01:00:00Z', { model: 'gpt-5', tokenUsage: tokens(1_000_000) })], {
      pricing: createListPricer(),
    });
    expect(r.daily[0]!.costUSD).toBeCloseTo(1.25, 10);
    expect(r.requestCounts).toEqual({ reported: 0, estimated: 1, unpriced: 0 });
  });

  it('an unknown model without totalCents stays unpriced and is counted', () => {
    const r = report([event('2026-07-20T01:00:00Z', { model: 'mystery', tokenUsage: tokens(1_000_000) })], {
      pricing: createListPricer(),
    });
    expect(r.daily[0]!.costUSD).toBeNull();
    expect(r.requestCounts).toEqual({ reported: 0, estimated: 0, unpriced: 1 });
  });

  it('an invalid reported value is not replaced by a list price', () => {
    const r = report([event('2026-07-20T01:00:00Z', { model: 'gpt-5', tokenUsage: usage(10, -1) })], {
      pricing: createListPricer(),
    });
    expect(r.daily[0]!.costUSD).toBeNull();
    expect(r.requestCounts.unpriced).toBe(1);
  });
});

describe('cost aggregation: totals, Today, metered, provenance, coverage', () => {
  it('totals: 0 cost with no days', () => {
    const r = report([]);
    expect(r.totals).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheCreationTokens: 0,
      totalTokens: 0,
      costUSD: 0,
    });
    expect(r.today).toEqual({ tokens: 0, costUSD: 0 });
    expect(r.meteredCostUSD).toBeNull();
    expect(r.provenance).toBe('unknown');
  });

  it('totals: the known day costs, skipping unknown days', () => {
    const r = report([
      event('2026-07-18T01:00:00Z', { model: 'm', tokenUsage: usage(10, 100) }),
      event('2026-07-19T01:00:00Z', { model: 'm', tokenUsage: usage(10) }),
    ]);
    expect(r.totals.costUSD).toBe(1);
  });

  it("Today is today's local-day entry", () => {
    const r = report([
      event('2026-07-19T23:00:00Z', { model: 'm', tokenUsage: usage(10, 100) }),
      event('2026-07-20T01:00:00Z', { model: 'm', tokenUsage: usage(7, 30) }),
    ]);
    expect(r.today).toEqual({ tokens: 7, costUSD: 0.3 });
  });

  it('Today uses the report zone: 23:00 UTC on the 19th is the 20th in Tokyo', () => {
    const e = event('2026-07-19T23:00:00Z', { model: 'm', tokenUsage: usage(10, 100) });
    const today = new Date('2026-07-20T10:00:00Z');
    expect(report([e], { timeZone: 'Asia/Tokyo', today }).today).toEqual({ tokens: 10, costUSD: 1 });
    expect(report([e], { timeZone: 'UTC', today }).today).toEqual({ tokens: 0, costUSD: 0 });
  });

  it('a stale latest day is never shown as Today: history without today gives 0', () => {
    const r = report([event('2026-07-18T01:00:00Z', { model: 'm', tokenUsage: usage(10, 100) })]);
    expect(r.today).toEqual({ tokens: 0, costUSD: 0 });
  });

  it('metered: Σ chargedCents/100 over every valid event, including events without tokens and not chargeable', () => {
    const r = report([
      event('2026-07-20T01:00:00Z', { model: 'm', tokenUsage: usage(10, 100), chargedCents: 4 }),
      event('2026-07-20T02:00:00Z', { isTokenBasedCall: false, chargedCents: 4 }),
      event('2026-07-20T03:00:00Z', {
        model: 'm',
        tokenUsage: usage(10, 100),
        chargedCents: 2,
        isChargeable: false,
      }),
    ]);
    expect(r.meteredCostUSD).toBeCloseTo(0.1, 12);
  });

  it('metered is null once the sum of chargedCents overflows; one huge charge alone is its cents / 100', () => {
    const charged = (minute: number) =>
      event(`2026-07-20T01:0${minute}:00Z`, {
        model: 'm',
        tokenUsage: usage(10, 1),
        chargedCents: 1.797e308,
      });
    const two = report([charged(1), charged(2)]);
    expect(two.meteredCostUSD).toBeNull();
    expect(two.daily[0]!.meteredUSD).toBeNull();
    expect(two.byKind.other.meteredUSD).toBeNull();
    expect(two.provenance).toBe('listPriceEstimate');
    expect(report([charged(1)]).meteredCostUSD).toBe(1.797e306);
  });

  it.each([
    ['lacks chargedCents', {}],
    ['has a negative chargedCents', { chargedCents: -1 }],
    ['has "NaN" chargedCents', { chargedCents: 'NaN' }],
  ])('metered is null when any valid event %s, even one without tokens', (_label, fields) => {
    const r = report([
      event('2026-07-20T01:00:00Z', { model: 'm', tokenUsage: usage(10, 100), chargedCents: 4 }),
      event('2026-07-20T02:00:00Z', fields),
    ]);
    expect(r.meteredCostUSD).toBeNull();
    expect(r.daily[0]!.costUSD).toBe(1);
  });

  it('per-day and per-model metered USD are null when one of their events lacks chargedCents', () => {
    const r = report([
      event('2026-07-19T01:00:00Z', { model: 'a', tokenUsage: usage(10, 100), chargedCents: 50 }),
      event('2026-07-20T01:00:00Z', { model: 'a', tokenUsage: usage(10, 100), chargedCents: 50 }),
      event('2026-07-20T02:00:00Z', { model: 'b', tokenUsage: usage(10, 100) }),
    ]);
    expect(r.daily.map((d) => d.meteredUSD)).toEqual([0.5, null]);
    expect(r.byModel.map((m) => [m.modelName, m.meteredUSD])).toEqual([
      ['a', 1],
      ['b', null],
    ]);
  });

  it.each([
    ['metered and a day cost', { tokenUsage: usage(10, 100), chargedCents: 4 }, 'mixed'],
    ['metered only', { tokenUsage: usage(10), chargedCents: 4 }, 'vendorMetered'],
    ['day costs only', { tokenUsage: usage(10, 100) }, 'listPriceEstimate'],
    ['neither', { tokenUsage: usage(10) }, 'unknown'],
  ])('provenance with %s is %s', (_label, fields, provenance) => {
    expect(report([event('2026-07-20T01:00:00Z', { model: 'm', ...fields })]).provenance).toBe(provenance);
  });

  it('coverage quirk: a day with a cost counts all its requests as priced; a day without counts none', () => {
    const r = report([
      event('2026-07-19T01:00:00Z', { model: 'known', tokenUsage: usage(10, 100) }),
      event('2026-07-19T02:00:00Z', { model: 'unpriced', tokenUsage: usage(10) }),
      event('2026-07-20T01:00:00Z', { model: 'unpriced', tokenUsage: usage(10) }),
      event('2026-07-20T02:00:00Z', { model: 'unpriced', tokenUsage: usage(10) }),
    ]);
    expect(r.coverage).toEqual({ priced: 2, unpriced: 0, unmetered: 0, estimated: 0 });
    expect(r.requestCounts).toEqual({ reported: 1, estimated: 0, unpriced: 3 });
  });
});

describe('cost aggregation: billing kinds (our additive byKind)', () => {
  it.each([
    ['USAGE_EVENT_KIND_INCLUDED_IN_PRO', 'included'],
    ['USAGE_EVENT_KIND_INCLUDED_IN_BUSINESS', 'included'],
    ['USAGE_EVENT_KIND_ULTRA_REQUESTS', 'included'],
    ['USAGE_EVENT_KIND_FREE_CREDIT', 'included'],
    ['USAGE_EVENT_KIND_CUSTOM_SUBSCRIPTION', 'included'],
    ['USAGE_EVENT_KIND_USAGE_BASED', 'onDemand'],
    ['USAGE_EVENT_KIND_ERRORED_NOT_CHARGED', 'notCharged'],
    ['USAGE_EVENT_KIND_ABORTED_NOT_CHARGED', 'notCharged'],
    ['USAGE_EVENT_KIND_USER_API_KEY', 'byok'],
    ['USAGE_BASED', 'onDemand'],
    ['USAGE_EVENT_KIND_MAX', 'other'],
    ['USAGE_EVENT_KIND_SOMETHING_NEW', 'other'],
    ['Usage-based', 'other'],
    ['Included in Business', 'other'],
    [undefined, 'other'],
  ])('kind %s goes to %s', (kind, bucket) => {
    const r = report([
      event('2026-07-20T01:00:00Z', { kind, model: 'm', tokenUsage: usage(10, 100), chargedCents: 7 }),
    ]);
    expect(r.byKind[bucket as keyof CostReport['byKind']]).toMatchObject({
      requests: 1,
      totalTokens: 10,
      costUSD: 1,
      meteredUSD: 0.07,
      models: [expect.objectContaining({ modelName: 'm', costUSD: 1, totalTokens: 10, requestCount: 1 })],
    });
  });

  it('a bucket without events has zero requests and unknown money', () => {
    expect(report([]).byKind.byok).toEqual({
      requests: 0,
      totalTokens: 0,
      costUSD: null,
      meteredUSD: null,
      models: [],
    });
  });
});

describe('cost aggregation: what the report says of the event store', () => {
  const finish = (storedRanges?: { used: number; countOnly: number }) =>
    createCostAggregator({ timeZone: 'UTC', pricing: null, today: NOW }).finish(WINDOW, {
      generatedAt: NOW,
      reportedEventCount: 0,
      ...(storedRanges ? { storedRanges } : {}),
    });

  it('a run that used stored ranges reports how they were checked; a run that used none has no such field', () => {
    expect(finish({ used: 3, countOnly: 1 }).storedRanges).toEqual({ used: 3, countOnly: 1 });
    expect('storedRanges' in finish()).toBe(false);
  });
});

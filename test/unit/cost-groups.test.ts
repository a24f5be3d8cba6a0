/** Report shapes and the one short-label rule, as pure functions. */
import { describe, expect, it } from 'vitest';
import { createCostAggregator } from '../../src/cost/aggregate.js';
import { groupReport } from '../../src/cost/groups.js';
import { createListPricer } from '../../src/cost/pricing.js';
import type { CostReport, CostWindow } from '../../src/cost/types.js';
import { shortModelLabel } from '../../src/render/model-label.js';
import { event, tokens } from '../helpers/cost-events.js';

const WINDOW: CostWindow = {
  start: new Date('2026-11-01T00:00:00Z'),
  end: new Date('2026-11-30T12:00:00Z'),
  timeZone: 'UTC',
  historyDays: 30,
  label: 'Last 30 days',
};

function report(events: ReturnType<typeof event>[], pricing = false): CostReport {
  const aggregator = createCostAggregator({
    timeZone: 'UTC',
    pricing: pricing ? createListPricer() : null,
    today: WINDOW.end,
  });
  for (const e of events) aggregator.add(e);
  return aggregator.finish(WINDOW, { generatedAt: WINDOW.end, reportedEventCount: events.length });
}

const usage = (input: number, cents: unknown) => tokens(input, 0, 0, 0, { totalCents: cents });

// Sat 2026-11-28, Sun 11-29, Mon 11-30; and Sun 11-01 (its Monday week starts in October).
const SAMPLE = report([
  event('2026-11-01T10:00:00Z', {
    model: 'gpt-5',
    kind: 'USAGE_EVENT_KIND_USAGE_BASED',
    tokenUsage: usage(100, 50),
    chargedCents: 60,
  }),
  event('2026-11-28T10:00:00Z', {
    model: 'gpt-5',
    kind: 'USAGE_EVENT_KIND_INCLUDED_IN_PRO',
    tokenUsage: usage(200, 100),
    chargedCents: 100,
  }),
  event('2026-11-29T10:00:00Z', {
    model: 'claude-4.5-sonnet',
    kind: 'USAGE_EVENT_KIND_INCLUDED_IN_PRO',
    tokenUsage: usage(300, 'bad'),
    chargedCents: 10,
  }),
  event('2026-11-30T10:00:00Z', {
    model: 'claude-4.5-sonnet',
    kind: 'USAGE_EVENT_KIND_INCLUDED_IN_PRO',
    tokenUsage: usage(400, 200),
    chargedCents: 200,
  }),
  event('2026-11-30T11:00:00Z', {
    model: 'gpt-5',
    kind: 'USAGE_EVENT_KIND_INCLUDED_IN_PRO',
    isTokenBasedCall: false,
    chargedCents: 5,
  }),
]);

const keysAndCosts = (by: Parameters<typeof groupReport>[1]) =>
  groupReport(SAMPLE, by).map((group) => [group.key, group.costUSD, group.totalTokens]);

describe('--by', () => {
  it('weeks start on Monday, or on Sunday with --week-start sunday; a first week may start before the window', () => {
    expect(keysAndCosts({ by: 'week', weekStart: 'monday' })).toEqual([
      ['2026-10-26', 0.5, 100],
      ['2026-11-23', 1, 500],
      ['2026-11-30', 2, 400],
    ]);
    expect(keysAndCosts({ by: 'week', weekStart: 'sunday' })).toEqual([
      ['2026-11-01', 0.5, 100],
      ['2026-11-22', 1, 200],
      ['2026-11-29', 2, 700],
    ]);
    const first = groupReport(SAMPLE, { by: 'week', weekStart: 'monday' })[0]!;
    expect([first.firstDay, first.lastDay]).toEqual(['2026-11-01', '2026-11-01']);
  });

  it('a model whose cost an invalid value made unknown stays unknown in its week; the week sums its known days', () => {
    const week = groupReport(SAMPLE, { by: 'week', weekStart: 'sunday' })[2]!;
    expect(week.models.map((model) => [model.modelName, model.costUSD, model.invalidReportedCost])).toEqual([
      ['claude-4.5-sonnet', null, true],
    ]);
    // As for the window, a week's cost is the sum of its days' known costs.
    expect(week.costUSD).toBe(2);
  });

  it('a week or month with a day whose metered figure is unknown has an unknown metered total, not a partial sum', () => {
    const partly = report([
      event('2026-11-23T10:00:00Z', { model: 'gpt-5', tokenUsage: usage(100, 50), chargedCents: 100 }),
      // No chargedCents: this day's metered figure is unknown.
      event('2026-11-24T10:00:00Z', { model: 'gpt-5', tokenUsage: usage(100, 50) }),
      event('2026-11-30T10:00:00Z', { model: 'gpt-5', tokenUsage: usage(100, 50), chargedCents: 50 }),
    ]);
    const metered = (by: Parameters<typeof groupReport>[1]) =>
      groupReport(partly, by).map((group) => [group.key, group.meteredUSD]);
    expect(metered({ by: 'week', weekStart: 'monday' })).toEqual([
      ['2026-11-23', null],
      ['2026-11-30', 0.5],
    ]);
    expect(metered({ by: 'month', weekStart: 'monday' })).toEqual([['2026-11', null]]);
  });

  it('months, models and kinds; --order reverses, and the defaults are oldest and most expensive first', () => {
    expect(keysAndCosts({ by: 'month', weekStart: 'monday' })).toEqual([['2026-11', 3.5, 1000]]);
    expect(keysAndCosts({ by: 'model', weekStart: 'monday' })).toEqual([
      ['gpt-5', 1.5, 300],
      ['claude-4.5-sonnet', null, 700],
    ]);
    expect(keysAndCosts({ by: 'model', weekStart: 'monday', order: 'asc' })).toEqual([
      ['claude-4.5-sonnet', null, 700],
      ['gpt-5', 1.5, 300],
    ]);
    expect(keysAndCosts({ by: 'day', weekStart: 'monday', order: 'desc' }).map(([key]) => key)).toEqual([
      '2026-11-30',
      '2026-11-29',
      '2026-11-28',
      '2026-11-01',
    ]);
    const kinds = groupReport(SAMPLE, { by: 'kind', weekStart: 'monday' });
    expect(kinds.map((group) => [group.key, group.requestCount, group.meteredUSD])).toEqual([
      ['included', 4, 3.15],
      ['onDemand', 1, 0.6],
    ]);
  });
});

describe('--by: groups sum their days', () => {
  // All in the ISO week of Monday 2026-11-23. The unpriced model is the only one on the first day, so only
  // ranking puts the priced one first.
  const WEEK = report(
    [
      event('2026-11-23T10:00:00Z', {
        model: 'mystery-model',
        tokenUsage: usage(100, undefined),
        chargedCents: 5,
      }),
      event('2026-11-24T10:00:00Z', { model: 'gpt-5', tokenUsage: usage(100, 50), chargedCents: 60 }),
      // No totalCents: priced from the list.
      event('2026-11-25T10:00:00Z', { model: 'gpt-5', tokenUsage: usage(1000, undefined), chargedCents: 40 }),
      event('2026-11-25T11:00:00Z', {
        model: 'mystery-model',
        tokenUsage: usage(100, undefined),
        chargedCents: 5,
      }),
    ],
    true,
  );

  it("a week's request count and per-model rows are the sums of its days, ranked like the window's models", () => {
    const [week, ...others] = groupReport(WEEK, { by: 'week', weekStart: 'monday' });
    expect(others).toEqual([]);
    expect(week!.requestCount).toBe(4);
    expect(
      week!.models.map((model) => [
        model.modelName,
        model.requestCount,
        model.requestCounts,
        model.meteredUSD,
      ]),
    ).toEqual([
      ['gpt-5', 2, { reported: 1, estimated: 1, unpriced: 0 }, 1],
      ['mystery-model', 2, { reported: 0, estimated: 0, unpriced: 2 }, 0.1],
    ]);
    const gpt = week!.models[0]!;
    expect(gpt.costUSD).toBeGreaterThan(0.5);
    // The week holds the whole window, so its model rows are the window's.
    expect(week!.models).toEqual(WEEK.byModel);
  });

  it("a model group's models are that model's own row", () => {
    const models = groupReport(WEEK, { by: 'model', weekStart: 'monday' });
    expect(models.map((group) => group.models)).toEqual(WEEK.byModel.map((row) => [row]));
  });

  it('months are oldest first by default even when a later month costs more; --order desc reverses them', () => {
    const twoMonths = report([
      event('2026-10-30T10:00:00Z', { model: 'gpt-5', tokenUsage: usage(100, 10), chargedCents: 10 }),
      event('2026-11-02T10:00:00Z', { model: 'gpt-5', tokenUsage: usage(100, 90), chargedCents: 90 }),
    ]);
    const months = (order?: 'asc' | 'desc') =>
      groupReport(twoMonths, { by: 'month', weekStart: 'monday', order }).map((group) => [
        group.key,
        group.costUSD,
      ]);
    expect(months()).toEqual([
      ['2026-10', 0.1],
      ['2026-11', 0.9],
    ]);
    expect(months('desc')).toEqual([
      ['2026-11', 0.9],
      ['2026-10', 0.1],
    ]);
  });
});

describe('short model labels: one rule', () => {
  it.each([
    ['claude-4.5-opus-high-thinking', 'opus-4.5 high thinking'],
    ['claude-4.5-opus-thinking', 'opus-4.5 thinking'],
    ['claude-4.5-sonnet', 'sonnet-4.5'],
    ['claude-4-sonnet-1m', 'sonnet-4 1m'],
    ['claude-sonnet-4-5-20250929', 'sonnet-4.5'],
    ['claude-opus-4-7-thinking-high', 'opus-4.7 thinking high'],
    ['anthropic/claude-3.5-haiku', 'haiku-3.5'],
    ['default', 'auto'],
    ['gpt-5-codex', 'gpt-5-codex'],
    ['composer-1', 'composer-1'],
    ['gemini-2.5-pro', 'gemini-2.5-pro'],
    ['weird\u0007name', 'weird\\x07name'],
  ])('%s → %s', (name, label) => {
    expect(shortModelLabel(name)).toBe(label);
  });
});

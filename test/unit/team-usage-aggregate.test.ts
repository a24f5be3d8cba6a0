import { describe, expect, it } from 'vitest';
import { type DailyUsageRow, dailyUsageSchema } from '../../src/api/admin/schemas/daily-usage.js';
import { resolveCostWindow } from '../../src/cost/window.js';
import { PaginationError, ParseError } from '../../src/errors.js';
import { aggregateDailyUsage } from '../../src/team/usage-aggregate.js';

const NOW = new Date('2026-07-20T15:00:00Z');
const WINDOW = resolveCostWindow({ days: 3, timeZone: 'UTC', now: NOW });

const rows = (data: unknown[]): DailyUsageRow[] => dailyUsageSchema.parse({ data }).data;

function row(day: string, email: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    date: Date.parse(`${day}T00:00:00Z`),
    email,
    isActive: true,
    subscriptionIncludedReqs: 10,
    usageBasedReqs: 2,
    apiKeyReqs: 1,
    acceptedLinesAdded: 100,
    totalTabsAccepted: 7,
    ...fields,
  };
}

const aggregate = (data: unknown[], member?: string) =>
  aggregateDailyUsage(rows(data), { window: WINDOW, generatedAt: NOW, member, requests: 1 });

describe('daily usage per day and per member', () => {
  it('sums per day and per member; requests are included + usage-based + API key', () => {
    const report = aggregate([
      row('2026-07-18', 'a@x.test', { mostUsedModel: 'gpt-5' }),
      row('2026-07-18', 'b@x.test', {
        isActive: false,
        subscriptionIncludedReqs: 0,
        usageBasedReqs: 0,
        apiKeyReqs: 0,
      }),
      row('2026-07-19', 'a@x.test', { mostUsedModel: 'claude-4.5-sonnet', subscriptionIncludedReqs: 30 }),
      row('2026-07-20', 'a@x.test', { mostUsedModel: 'claude-4.5-sonnet' }),
      row('2026-07-20', 'b@x.test', { mostUsedModel: 'gpt-5' }),
    ]);
    expect(report.days.map((d) => [d.date, d.members, d.activeMembers, d.requests])).toEqual([
      ['2026-07-18', 2, 1, 13],
      ['2026-07-19', 1, 1, 33],
      ['2026-07-20', 2, 2, 26],
    ]);
    expect(report.members.map((m) => [m.member, m.days, m.activeDays, m.requests, m.mostUsedModel])).toEqual([
      ['a@x.test', 3, 3, 59, 'claude-4.5-sonnet'],
      ['b@x.test', 2, 1, 13, 'gpt-5'],
    ]);
    expect(report.totals.requests).toBe(72);
    expect(report.totals.activeMembers).toBe(2);
    expect(report.totals.metrics.acceptedLinesAdded).toBe(500);
  });

  it('a counter missing from one row makes its sums unknown, not smaller', () => {
    const report = aggregate([
      row('2026-07-19', 'a@x.test'),
      row('2026-07-20', 'a@x.test', { apiKeyReqs: 'n/a' }),
    ]);
    expect(report.days.map((d) => d.metrics.apiKeyReqs)).toEqual([1, null]);
    expect(report.totals.metrics.apiKeyReqs).toBeNull();
    expect(report.totals.requests).toBeNull();
    expect(report.totals.metrics.subscriptionIncludedReqs).toBe(20);
  });

  it('a negative counter is unknown and not summed; zero is a count', () => {
    const report = aggregate([
      row('2026-07-19', 'a@x.test', { usageBasedReqs: 0 }),
      row('2026-07-20', 'a@x.test', { usageBasedReqs: -1 }),
    ]);
    expect(report.days.map((d) => d.metrics.usageBasedReqs)).toEqual([0, null]);
    expect(report.totals.metrics.usageBasedReqs).toBeNull();
    expect(report.totals.requests).toBeNull();
  });

  it("rows are placed on Cursor's day, and rows outside the window's days are dropped", () => {
    const report = aggregate([
      row('2026-07-17', 'a@x.test'),
      { ...row('2026-07-18', 'a@x.test'), day: '2026-07-18', date: undefined },
      row('2026-07-21', 'a@x.test'),
    ]);
    expect(report.rows.map((r) => r.date)).toEqual(['2026-07-18']);
  });

  it('a row repeated by two requests counts once; two different rows for one member and day fail closed', () => {
    const once = aggregate([row('2026-07-19', 'a@x.test'), row('2026-07-19', 'a@x.test')]);
    expect(once.totals.requests).toBe(13);
    expect(() =>
      aggregate([row('2026-07-19', 'a@x.test'), row('2026-07-19', 'a@x.test', { usageBasedReqs: 3 })]),
    ).toThrow(PaginationError);
  });

  it('--member keeps one member, whatever the case of the address', () => {
    const report = aggregate([row('2026-07-19', 'Ada@X.test'), row('2026-07-19', 'b@x.test')], 'ada@x.TEST');
    expect(report.members.map((m) => m.member)).toEqual(['Ada@X.test']);
  });

  it('a row with neither day nor date cannot be placed: a parse error naming the endpoint', () => {
    expect(() => aggregate([{ email: 'a@x.test', isActive: true }])).toThrow(ParseError);
    expect(() => aggregate([{ email: 'a@x.test', isActive: true }])).toThrow('POST /teams/daily-usage-data');
  });

  it('a page without its data array is not the documented envelope', () => {
    expect(dailyUsageSchema.safeParse({ period: { startDate: 1, endDate: 2 } }).success).toBe(false);
  });
});

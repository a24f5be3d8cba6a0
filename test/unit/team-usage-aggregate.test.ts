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

  it('a member without an email is named by user id, and one with neither is an unknown member', () => {
    const bare = { date: Date.parse('2026-07-19T00:00:00Z'), isActive: true, apiKeyReqs: 1 };
    const report = aggregate([
      { ...bare, userId: 42 },
      { ...bare, email: '', userId: 'u-7' },
      { ...bare, day: '2026-07-20' },
    ]);
    expect(report.rows.map((r) => r.member)).toEqual(['user 42', 'user u-7', '(unknown member)']);
  });

  it('a counter unknown on an earlier day stays unknown in the sums after a known day', () => {
    const report = aggregate([
      row('2026-07-19', 'a@x.test', { apiKeyReqs: 'n/a' }),
      row('2026-07-20', 'a@x.test', { apiKeyReqs: 4 }),
    ]);
    expect(report.totals.metrics.apiKeyReqs).toBeNull();
    expect(report.members[0]?.metrics.apiKeyReqs).toBeNull();
  });

  it('requests are unknown when any of included, usage-based or API-key requests is unknown', () => {
    const report = aggregate([
      row('2026-07-18', 'a@x.test', { subscriptionIncludedReqs: undefined }),
      row('2026-07-19', 'a@x.test', { usageBasedReqs: undefined }),
      row('2026-07-20', 'a@x.test'),
    ]);
    expect(report.days.map((d) => d.requests)).toEqual([null, null, 13]);
  });

  it("a malformed day is not Cursor's day: the row is placed on the UTC date of its timestamp", () => {
    const report = aggregate([{ ...row('2026-07-19', 'a@x.test'), day: 'July 19' }]);
    expect(report.rows.map((r) => r.date)).toEqual(['2026-07-19']);
  });

  it('a row with neither day nor date says so in the error', () => {
    expect(() => aggregate([{ email: 'a@x.test', isActive: true }])).toThrow(
      'a row has neither day nor date',
    );
  });

  it('two different rows for one member and day name the day and the endpoint in a pagination_inconsistent error', () => {
    let caught: unknown;
    try {
      aggregate([row('2026-07-19', 'a@x.test'), row('2026-07-19', 'a@x.test', { usageBasedReqs: 3 })]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PaginationError);
    expect(caught).toMatchObject({ code: 'pagination_inconsistent' });
    expect((caught as Error).message).toContain('2026-07-19');
    expect((caught as Error).message).toContain('POST /teams/daily-usage-data');
  });

  it('the client version is kept on the row; an empty model or version is no value, so a repeat without it counts once', () => {
    const kept = aggregate([row('2026-07-19', 'a@x.test', { clientVersion: '1.4.2' })]);
    expect(kept.rows[0]?.clientVersion).toBe('1.4.2');
    const once = aggregate([
      row('2026-07-19', 'a@x.test', { mostUsedModel: '', clientVersion: '' }),
      row('2026-07-19', 'a@x.test'),
    ]);
    expect(once.totals.requests).toBe(13);
  });

  it("a member's top model is the one named on most active days; a tie goes to the name first in order", () => {
    const top = (...models: (string | undefined)[]) =>
      aggregate(models.map((model, i) => row(`2026-07-${18 + i}`, 'a@x.test', { mostUsedModel: model })))
        .members[0]?.mostUsedModel;
    expect(top('alpha', 'zeta')).toBe('alpha');
    expect(top('zeta', 'alpha')).toBe('alpha');
    expect(top('zeta', 'zeta', 'alpha')).toBe('zeta');
    expect(top(undefined, undefined, 'gpt-5')).toBe('gpt-5');
  });

  it('a member with no model on any active day has no top model', () => {
    const report = aggregate([
      row('2026-07-19', 'a@x.test'),
      row('2026-07-20', 'a@x.test', { isActive: false, mostUsedModel: 'gpt-5' }),
    ]);
    expect(report.members[0]).not.toHaveProperty('mostUsedModel');
  });

  it('rows come out by day, then by member, whatever order Cursor sent them in', () => {
    const report = aggregate([
      row('2026-07-20', 'a@x.test'),
      row('2026-07-20', 'b@x.test'),
      row('2026-07-19', 'b@x.test'),
      row('2026-07-19', 'a@x.test'),
      row('2026-07-18', 'c@x.test'),
    ]);
    expect(report.rows.map((r) => `${r.date} ${r.member}`)).toEqual([
      '2026-07-18 c@x.test',
      '2026-07-19 a@x.test',
      '2026-07-19 b@x.test',
      '2026-07-20 a@x.test',
      '2026-07-20 b@x.test',
    ]);
    expect(report.days.map((d) => d.date)).toEqual(['2026-07-18', '2026-07-19', '2026-07-20']);
  });

  it('members come out by requests, most first; equal requests by name; unknown requests last, below zero', () => {
    const zero = { subscriptionIncludedReqs: 0, usageBasedReqs: 0, apiKeyReqs: 0 };
    const unknown = { apiKeyReqs: undefined };
    const members = (data: unknown[]) => aggregate(data).members.map((m) => m.member);
    expect(
      members([
        row('2026-07-19', 'a@x.test', unknown),
        row('2026-07-19', 'b@x.test', zero),
        row('2026-07-19', 'c@x.test', { apiKeyReqs: 5 }),
        row('2026-07-19', 'd@x.test'),
        row('2026-07-19', 'e@x.test'),
      ]),
    ).toEqual(['c@x.test', 'd@x.test', 'e@x.test', 'b@x.test', 'a@x.test']);
    expect(
      members([
        row('2026-07-19', 'a@x.test', zero),
        row('2026-07-19', 'b@x.test', unknown),
        row('2026-07-19', 'c@x.test'),
        row('2026-07-19', 'd@x.test', { apiKeyReqs: 5 }),
      ]),
    ).toEqual(['d@x.test', 'c@x.test', 'a@x.test', 'b@x.test']);
    expect(members([row('2026-07-18', 'z@x.test'), row('2026-07-19', 'y@x.test')])).toEqual([
      'y@x.test',
      'z@x.test',
    ]);
  });

  it('a page without its data array is not the documented envelope', () => {
    expect(dailyUsageSchema.safeParse({ period: { startDate: 1, endDate: 2 } }).success).toBe(false);
  });
});

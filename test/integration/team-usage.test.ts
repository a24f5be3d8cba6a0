/**
 * `codexbar team usage` in-process against the fake Admin API: text, JSON and CSV, a 95-day window in
 * four 30-day requests, pagination within the 20-a-minute limit (the fake counts), and --member.
 */
import { describe, expect, it } from 'vitest';
import { DAILY_METRICS } from '../../src/api/admin/schemas/daily-usage.js';
import { seedDailyUsage, seedMembers } from '../fake-cursor/admin-seed.js';
import type { DailyUsageJson } from '../fake-cursor/admin-types.js';
import { expectNoKey, jsonRow, requestsTo, runTeam, type TeamRunOptions } from '../helpers/team-cli.js';

const NOW = new Date('2026-07-20T15:00:00Z');
const DAILY = '/teams/daily-usage-data';
const DAY_MS = 86_400_000;

const day = (date: string, email: string, fields: Partial<Record<string, unknown>> = {}): DailyUsageJson => ({
  date: Date.parse(`${date}T00:00:00Z`),
  email,
  isActive: true,
  ...Object.fromEntries(DAILY_METRICS.map((metric) => [metric, 0])),
  clientVersion: '2.1.0',
  ...fields,
});

/** ana: 12 then 6 requests; bo: idle, then 24. */
const SMALL = [
  day('2026-07-19', 'ana@example.test', {
    subscriptionIncludedReqs: 10,
    usageBasedReqs: 2,
    acceptedLinesAdded: 100,
    totalTabsAccepted: 7,
    mostUsedModel: 'gpt-5',
  }),
  day('2026-07-19', 'bo@example.test', { isActive: false }),
  day('2026-07-20', 'ana@example.test', {
    subscriptionIncludedReqs: 5,
    apiKeyReqs: 1,
    acceptedLinesAdded: 50,
    totalTabsAccepted: 3,
    mostUsedModel: 'gpt-5',
  }),
  day('2026-07-20', 'bo@example.test', {
    subscriptionIncludedReqs: 20,
    usageBasedReqs: 4,
    acceptedLinesAdded: 10,
    totalTabsAccepted: 1,
    mostUsedModel: 'claude-4.5-sonnet',
  }),
];

const usage = async (args: string[], options: Partial<TeamRunOptions> = {}) => {
  const result = await runTeam(['usage', ...args], {
    ...options,
    now: NOW,
    fake: { daily: SMALL, ...options.fake },
  });
  expectNoKey(result);
  return result;
};

describe('team usage output', () => {
  it('text: summary, per-day and per-member tables', async () => {
    const result = await usage(['--days', '2']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      [
        'Cursor Team Usage (Last 2 days)',
        'Active members: 2 · requests: 42 (35 included · 6 usage-based · 1 API key)',
        'Lines accepted: 160 · tabs accepted: 11',
      ].join('\n'),
    );
    expect(result.stdout).toMatch(/│ 2026-07-19 │ +1 │ +12 │ +10 │ +2 │ +0 │ +100 │ +7 │/);
    expect(result.stdout).toMatch(/│ 2026-07-20 │ +2 │ +30 │ +25 │ +4 │ +1 │ +60 │ +4 │/);
    expect(result.stdout).toMatch(/│ Total +│ +2 │ +42 │ +35 │ +6 │ +1 │ +160 │ +11 │/);
    const members = result.stdout.slice(result.stdout.indexOf('By member:'));
    expect(members).toMatch(
      /│ bo@example\.test +│ +1 │ +24 │ +20 │ +4 │ +0 │ +10 │ +1 │ claude-4\.5-sonnet +│/,
    );
    expect(members.indexOf('bo@example.test')).toBeLessThan(members.indexOf('ana@example.test'));
  });

  it('JSON: the window, sums per day and member, requests sent', async () => {
    const row = jsonRow(await usage(['--days', '2', '--json']));
    expect(row).toMatchObject({
      provider: 'cursor',
      source: 'admin-api',
      window: { start: '2026-07-19T00:00:00Z', end: '2026-07-20T15:00:00Z', timeZone: 'UTC' },
      requestsSent: 1,
      totals: { activeMembers: 2, requests: 42, acceptedLinesAdded: 160 },
    });
    expect(row.daily).toEqual([
      expect.objectContaining({ date: '2026-07-19', members: 2, activeMembers: 1, requests: 12 }),
      expect.objectContaining({ date: '2026-07-20', members: 2, activeMembers: 2, requests: 30 }),
    ]);
    expect((row.members as unknown[])[1]).toMatchObject({
      member: 'ana@example.test',
      days: 2,
      activeDays: 2,
      requests: 18,
      mostUsedModel: 'gpt-5',
    });
  });

  it('CSV: one line per member and day', async () => {
    const result = await usage(['--days', '2', '--csv']);
    const lines = result.stdout.split('\r\n');
    expect(lines[0]).toBe(`date,member,isActive,${DAILY_METRICS.join(',')},mostUsedModel,clientVersion`);
    expect(lines).toHaveLength(6);
    expect(lines.at(-1)).toBe('');
    const ana = lines[1]!.split(',');
    expect(ana.slice(0, 3)).toEqual(['2026-07-19', 'ana@example.test', 'true']);
    expect(ana[3 + DAILY_METRICS.indexOf('subscriptionIncludedReqs')]).toBe('10');
    expect(ana.slice(-2)).toEqual(['gpt-5', '2.1.0']);
    expect(lines[2]!.startsWith('2026-07-19,bo@example.test,false,')).toBe(true);
  });

  it('--member narrows to one member', async () => {
    const row = jsonRow(await usage(['--days', '2', '--member', 'BO@example.test', '--json']));
    expect((row.members as Array<{ member: string }>).map((m) => m.member)).toEqual(['bo@example.test']);
    expect(row.totals).toMatchObject({ requests: 24 });
  });
});

describe('team usage windows', () => {
  const members = seedMembers(3);
  const daily = seedDailyUsage(members, new Date('2026-04-01T00:00:00Z'), 111);
  const requestsIn = (first: string, last: string) =>
    daily
      .filter((row) => {
        const date = new Date(row.date).toISOString().slice(0, 10);
        return date >= first && date <= last;
      })
      .reduce(
        (sum, row) =>
          sum +
          (row.subscriptionIncludedReqs as number) +
          (row.usageBasedReqs as number) +
          (row.apiKeyReqs as number),
        0,
      );

  it('a 95-day window is four 30-day requests that cover it exactly', async () => {
    const result = await usage(['--days', '95', '--json'], { fake: { daily } });
    expect(result.code).toBe(0);
    const bodies = requestsTo(result, DAILY).map(
      (request) => request.body as { startDate: number; endDate: number },
    );
    expect(bodies).toHaveLength(4);
    expect(bodies[0]!.startDate).toBe(Date.parse('2026-04-17T00:00:00Z'));
    expect(bodies[3]!.endDate).toBe(NOW.getTime());
    for (const [i, body] of bodies.entries()) {
      expect(body.endDate - body.startDate).toBeLessThan(30 * DAY_MS);
      if (i > 0) expect(body.startDate).toBe(bodies[i - 1]!.endDate + 1);
    }
    const row = jsonRow(result);
    expect(row).toMatchObject({ historyDays: 95, requestsSent: 4 });
    expect((row.daily as unknown[]).length).toBe(95);
    expect((row.totals as { requests: number }).requests).toBe(requestsIn('2026-04-17', '2026-07-20'));
  });

  it('paginated answers are read to the end within 20 requests a minute, waiting where needed', async () => {
    const result = await usage(['--since', '2026-05-01', '--until', '2026-07-19', '--json'], {
      fake: { daily, dailyPageSize: 10 },
      stderrTTY: true,
    });
    expect(result.code).toBe(0);
    const sent = requestsTo(result, DAILY).length;
    expect(sent).toBeGreaterThan(20);
    expect(result.fake.stats.rateLimited.dailyUsage).toBe(0);
    expect(result.fake.stats.peakInWindow.dailyUsage).toBeLessThanOrEqual(20);
    expect(result.fake.stats.accepted.dailyUsage).toBe(sent);
    expect(result.clock.now() - NOW.getTime()).toBeGreaterThanOrEqual(60_000);
    expect((jsonRow(result).totals as { requests: number }).requests).toBe(
      requestsIn('2026-05-01', '2026-07-19'),
    );
    // JSON mode never draws progress, even on a terminal.
    expect(result.stderr).toBe('');
    const text = await usage(['--since', '2026-05-01', '--until', '2026-07-19'], {
      fake: { daily, dailyPageSize: 10 },
      stderrTTY: true,
    });
    expect(text.stderr).toMatch(/Fetching daily usage… request \d+ · waiting \d+ s for the rate limit/);
  });
});

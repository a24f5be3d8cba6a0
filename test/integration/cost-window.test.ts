/**
 * The cost window as cursor.com sees it: the POST body's
 * startDate is the zone's local midnight, DST changes included, and the events are bucketed by that zone's
 * days. Bad window values fail before any request.
 */
import { describe, expect, it } from 'vitest';
import type { UsageEventJson } from '../fake-cursor/events.js';
import { eventsBodies, MANUAL_COOKIE_VALUE, onlyRow, runCost } from '../helpers/cost-cli.js';

/** 2026-03-08 is the US spring-forward day; 2026-11-01 the fall-back day. */
const AFTER_SPRING_FORWARD = new Date('2026-03-10T16:00:00Z'); // 12:00 EDT, 01:00 JST on 03-11
const AFTER_FALL_BACK = new Date('2026-11-03T15:00:00Z'); // 10:00 EST
const utc = (iso: string) => String(Date.parse(iso));

const event = (iso: string, inputTokens: number): UsageEventJson => ({
  timestamp: utc(iso),
  model: 'gpt-5',
  kind: 'USAGE_EVENT_KIND_INCLUDED_IN_PRO',
  tokenUsage: { inputTokens, totalCents: 1 },
  chargedCents: 1,
});

async function cost(args: string[], options: { now: Date; tz?: string; events?: UsageEventJson[] }) {
  const events = [...(options.events ?? [])].sort((a, b) => Number(b.timestamp) - Number(a.timestamp));
  const run = await runCost([{ cookies: [MANUAL_COOKIE_VALUE], events: { events } }], ['--json', ...args], {
    now: options.now,
    env: { TZ: options.tz ?? 'UTC' },
  });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const bodies = eventsBodies(run.requests);
  expect(bodies.length).toBeGreaterThan(0);
  // Every page of one run asks for the same window.
  expect(new Set(bodies.map((b) => `${b.startDate}|${b.endDate}`)).size).toBe(1);
  return { body: bodies[0]!, row: onlyRow(run) };
}

type Daily = Array<{ date: string; inputTokens: number }>;
const dayTokens = (row: Record<string, unknown>) =>
  Object.fromEntries((row.daily as Daily).map((day) => [day.date, day.inputTokens]));

describe('--days N starts at local midnight N-1 days ago, across DST changes', () => {
  it('TZ=America/New_York, --days 7 across the spring-forward day: EST midnight of 03-04, days in New York time', async () => {
    const { body, row } = await cost(['--days', '7'], {
      now: AFTER_SPRING_FORWARD,
      tz: 'America/New_York',
      events: [
        event('2026-03-04T04:59:00Z', 1), // 23:59 EST on 03-03: before the window
        event('2026-03-04T05:30:00Z', 10), // 00:30 EST on 03-04
        event('2026-03-08T06:30:00Z', 100), // 01:30 EST on 03-08, before the clocks jump
        event('2026-03-09T03:30:00Z', 1000), // 23:30 EDT on 03-08
        event('2026-03-10T03:59:00Z', 10_000), // 23:59 EDT on 03-09
        event('2026-03-10T04:00:00Z', 100_000), // 00:00 EDT on 03-10: today
      ],
    });
    expect(body).toEqual({
      page: 1,
      pageSize: 1000,
      startDate: utc('2026-03-04T05:00:00Z'),
      endDate: utc('2026-03-10T16:00:00Z'),
    });
    expect(row.window).toEqual({
      start: '2026-03-04T05:00:00Z',
      end: '2026-03-10T16:00:00Z',
      timeZone: 'America/New_York',
    });
    expect(row.historyDays).toBe(7);
    expect(dayTokens(row)).toEqual({
      '2026-03-04': 10,
      '2026-03-08': 1100,
      '2026-03-09': 10_000,
      '2026-03-10': 100_000,
    });
    expect(row.sessionTokens).toBe(100_000);
  });

  it('TZ=America/New_York, --days 7 across the fall-back day: EDT midnight of 10-28', async () => {
    const { body, row } = await cost(['--days', '7'], { now: AFTER_FALL_BACK, tz: 'America/New_York' });
    expect(body.startDate).toBe(utc('2026-10-28T04:00:00Z'));
    expect(body.endDate).toBe(utc('2026-11-03T15:00:00Z'));
    expect(row.window).toMatchObject({ start: '2026-10-28T04:00:00Z', timeZone: 'America/New_York' });
  });

  it('--timezone Asia/Tokyo beats TZ: Tokyo midnight, Tokyo days', async () => {
    const { body, row } = await cost(['--days', '7', '--timezone', 'Asia/Tokyo'], {
      now: AFTER_SPRING_FORWARD,
      tz: 'America/New_York',
      events: [
        event('2026-03-10T14:30:00Z', 5), // 23:30 JST on 03-10
        event('2026-03-10T15:30:00Z', 50), // 00:30 JST on 03-11: today in Tokyo
      ],
    });
    expect(body.startDate).toBe(utc('2026-03-04T15:00:00Z'));
    expect(body.endDate).toBe(utc('2026-03-10T16:00:00Z'));
    expect(row.window).toEqual({
      start: '2026-03-04T15:00:00Z',
      end: '2026-03-10T16:00:00Z',
      timeZone: 'Asia/Tokyo',
    });
    expect(dayTokens(row)).toEqual({ '2026-03-10': 5, '2026-03-11': 50 });
    expect(row.sessionTokens).toBe(50);
  });

  it('--timezone America/New_York with TZ=Asia/Tokyo: the flag decides, DST included', async () => {
    const { body } = await cost(['--days', '7', '--timezone', 'America/New_York'], {
      now: AFTER_SPRING_FORWARD,
      tz: 'Asia/Tokyo',
    });
    expect(body.startDate).toBe(utc('2026-03-04T05:00:00Z'));
  });

  it('the default window is 30 days: local midnight 29 days ago', async () => {
    const { body, row } = await cost([], { now: AFTER_SPRING_FORWARD, tz: 'America/New_York' });
    expect(body.startDate).toBe(utc('2026-02-09T05:00:00Z'));
    expect(row.historyDays).toBe(30);
  });

  it('--days 1 is all of today', async () => {
    const { body } = await cost(['--days', '1'], { now: AFTER_SPRING_FORWARD, tz: 'America/New_York' });
    expect(body.startDate).toBe(utc('2026-03-10T04:00:00Z'));
  });
});

describe('--since/--until take whole local days in either date form', () => {
  const sinceUntil = {
    startDate: utc('2026-03-01T05:00:00Z'),
    // The last millisecond of 03-09 in New York: 03-10 starts at 04:00Z (EDT).
    endDate: String(Date.parse('2026-03-10T04:00:00Z') - 1),
  };

  it.each([
    ['YYYY-MM-DD', ['--since', '2026-03-01', '--until', '2026-03-09']],
    ['YYYYMMDD', ['--since', '20260301', '--until', '20260309']],
    ['mixed', ['--since', '2026-03-01', '--until', '20260309']],
  ])('%s: from 03-01 EST midnight to the end of 03-09 EDT', async (_form, args) => {
    const { body, row } = await cost(args, { now: AFTER_SPRING_FORWARD, tz: 'America/New_York' });
    expect(body).toEqual({ page: 1, pageSize: 1000, ...sinceUntil });
    expect(row.window).toEqual({
      start: '2026-03-01T05:00:00Z',
      end: '2026-03-10T03:59:59Z',
      timeZone: 'America/New_York',
    });
    expect(row.historyDays).toBe(9);
  });

  it('--since alone runs to now', async () => {
    const { body, row } = await cost(['--since', '20260308'], {
      now: AFTER_SPRING_FORWARD,
      tz: 'America/New_York',
    });
    expect(body.startDate).toBe(utc('2026-03-08T05:00:00Z'));
    expect(body.endDate).toBe(utc('2026-03-10T16:00:00Z'));
    expect(row.historyDays).toBe(3);
  });
});

describe('--month and --all', () => {
  it('--month starts at midnight of the 1st, even on the fall-back day (EDT midnight)', async () => {
    const { body, row } = await cost(['--month'], { now: AFTER_FALL_BACK, tz: 'America/New_York' });
    expect(body.startDate).toBe(utc('2026-11-01T04:00:00Z'));
    expect(body.endDate).toBe(utc('2026-11-03T15:00:00Z'));
    expect(row.historyDays).toBe(3);
  });

  it("--month --timezone Asia/Tokyo uses Tokyo's month: already April there", async () => {
    const { body } = await cost(['--month', '--timezone', 'Asia/Tokyo'], {
      now: new Date('2026-03-31T16:00:00Z'),
      tz: 'UTC',
    });
    expect(body.startDate).toBe(utc('2026-03-31T15:00:00Z'));
  });

  it('--all sends startDate "0" (the Unix epoch) and ends now', async () => {
    const { body, row } = await cost(['--all'], { now: AFTER_FALL_BACK, tz: 'America/New_York' });
    expect(body).toEqual({ page: 1, pageSize: 1000, startDate: '0', endDate: utc('2026-11-03T15:00:00Z') });
    expect(row.window).toMatchObject({ start: '1970-01-01T00:00:00Z', end: '2026-11-03T15:00:00Z' });
  });
});

describe('bad window values: exit 1, the accepted forms in the message, zero requests', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['--days 0', ['--days', '0'], /1 to 365/],
    ['--days abc', ['--days', 'abc'], /1 to 365/],
    ['--since 2026-13-01', ['--since', '2026-13-01'], /YYYY-MM-DD or YYYYMMDD/],
    ['--timezone Mars/Base', ['--timezone', 'Mars/Base'], /IANA time zone/],
    [
      '--week-start without --by week',
      ['--by', 'day', '--week-start', 'sunday'],
      /applies to --by week only/,
    ],
  ];
  const account = [{ cookies: [MANUAL_COOKIE_VALUE], events: { events: [] } }];

  it.each(cases)(
    '%s in text: Error on stderr naming the accepted forms, nothing on stdout',
    async (_name, args, forms) => {
      const run = await runCost(account, args, { now: AFTER_SPRING_FORWARD });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^Error: /);
      expect(run.stderr).toMatch(forms);
      expect(run.requests).toHaveLength(0);
    },
  );

  it.each(cases)(
    '%s in JSON: a "cli" args error row whose message names the accepted forms',
    async (_name, args, forms) => {
      const run = await runCost(account, ['--json', ...args], { now: AFTER_SPRING_FORWARD });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe('');
      expect(run.requests).toHaveLength(0);
      // README "JSON": argument and config errors use "provider":"cli".
      expect(onlyRow(run)).toEqual({
        provider: 'cli',
        source: 'cli',
        error: { code: 1, kind: 'args', message: expect.stringMatching(forms) },
      });
    },
  );

  it('two window options at once are refused before any request', async () => {
    const run = await runCost(account, ['--days', '7', '--month'], { now: AFTER_SPRING_FORWARD });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Error: option .--days <n>. cannot be used with option .--month./);
    expect(run.requests).toHaveLength(0);
  });
});

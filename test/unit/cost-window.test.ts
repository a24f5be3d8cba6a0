import { describe, expect, it } from 'vitest';
import { type CostWindowOptions, parseCivilDate, resolveCostWindow } from '../../src/cost/window.js';
import { ArgumentError } from '../../src/errors.js';
import { localTimeZone, resolveLocalTimeZone, wallClock } from '../../src/lib/time-zone.js';

const iso = (date: Date) => date.toISOString();
const day = (text: string) => {
  const date = parseCivilDate(text);
  if (!date) throw new Error(`not a date: ${text}`);
  return date;
};

describe('cost window: --days N', () => {
  it('defaults to 30 days from the local zone midnight (TZ=America/New_York), across spring-forward', () => {
    const now = new Date('2026-03-20T15:00:00Z');
    const w = resolveCostWindow({ now, timeZone: localTimeZone({ TZ: 'America/New_York' }) });
    // 2026-02-19 is still EST (UTC−5); DST began on 2026-03-08.
    expect(iso(w.start)).toBe('2026-02-19T05:00:00.000Z');
    expect(w.end).toEqual(now);
    expect(w).toMatchObject({ timeZone: 'America/New_York', historyDays: 30, label: 'Last 30 days' });
  });

  it('--days 1 covers all of today: local midnight in EDT', () => {
    const w = resolveCostWindow({
      days: 1,
      timeZone: 'America/New_York',
      now: new Date('2026-03-20T15:00:00Z'),
    });
    expect(iso(w.start)).toBe('2026-03-20T04:00:00.000Z');
    expect(w.label).toBe('Today');
  });

  it('counts calendar days across fall-back (a 25-hour day)', () => {
    const w = resolveCostWindow({
      days: 7,
      timeZone: 'America/New_York',
      now: new Date('2026-11-05T12:00:00Z'),
    });
    expect(iso(w.start)).toBe('2026-10-30T04:00:00.000Z');
  });

  it('Asia/Tokyo: 15:00 UTC is already the next local day, so --days 1 starts then', () => {
    const w = resolveCostWindow({ days: 1, timeZone: 'Asia/Tokyo', now: new Date('2026-07-20T15:00:00Z') });
    expect(iso(w.start)).toBe('2026-07-20T15:00:00.000Z');
    expect(w.timeZone).toBe('Asia/Tokyo');
  });

  it('Asia/Tokyo, 30 days', () => {
    const w = resolveCostWindow({ days: 30, timeZone: 'Asia/Tokyo', now: new Date('2026-07-20T10:00:00Z') });
    expect(iso(w.start)).toBe('2026-06-20T15:00:00.000Z');
  });

  it('a zone whose DST change skips midnight starts the day at the transition (America/Santiago)', () => {
    const w = resolveCostWindow({
      days: 1,
      timeZone: 'America/Santiago',
      now: new Date('2026-09-06T15:00:00Z'),
    });
    expect(iso(w.start)).toBe('2026-09-06T04:00:00.000Z');
  });

  it('--days 365, the largest accepted value, spans 365 local days', () => {
    const w = resolveCostWindow({ days: 365, timeZone: 'UTC', now: new Date('2026-07-20T15:00:00Z') });
    expect(w.historyDays).toBe(365);
    expect(iso(w.start)).toBe('2025-07-21T00:00:00.000Z');
  });
});

describe('the local zone', () => {
  it.each([
    [{ TZ: 'America/New_York' }, 'America/New_York'],
    [{ TZ: ':Europe/Berlin' }, 'Europe/Berlin'],
    [{ TZ: 'Asia/Calcutta' }, 'Asia/Calcutta'],
  ])('%j → %s', (env, zone) => {
    expect(localTimeZone(env)).toBe(zone);
  });

  it('an empty TZ means unset: the system zone, from the /etc/localtime link first', () => {
    expect(resolveLocalTimeZone({ TZ: '' }, () => '/usr/share/zoneinfo/posix/Europe/Berlin')).toEqual({
      zone: 'Europe/Berlin',
    });
    expect(resolveLocalTimeZone({}, () => undefined).zone).toBe(
      new Intl.DateTimeFormat().resolvedOptions().timeZone,
    );
  });

  it.each([['UTC'], ['utc'], ['Etc/UTC'], [':UTC']])('TZ=%s is UTC, as Intl names it', (TZ) => {
    expect(localTimeZone({ TZ })).toBe('UTC');
  });

  it('UTC wall clocks (read without Intl) match Intl’s, BCE to the far future', () => {
    // Etc/Universal is UTC under another name, so it takes the Intl path.
    const limit = 8.64e15;
    const instants = [0, -1, 951_782_400_000, -62_198_755_200_001, -limit, limit];
    for (let i = 0; i < 500; i++) instants.push(Math.round((Math.random() * 2 - 1) * limit));
    for (const ms of instants)
      expect(wallClock(ms, 'UTC'), String(ms)).toEqual(wallClock(ms, 'Etc/Universal'));
  });

  it.each([['Factory'], ['Mars/Olympus']])('TZ=%s is unusable: UTC, with a note for --verbose', (TZ) => {
    expect(resolveLocalTimeZone({ TZ })).toEqual({
      zone: 'UTC',
      note: `TZ=${TZ} is not a time zone this system knows; using UTC`,
    });
  });
});

describe('parseCivilDate: YYYY-MM-DD or YYYYMMDD naming a real date', () => {
  it.each([
    ['2026-07-01', { year: 2026, month: 7, day: 1 }],
    ['20260701', { year: 2026, month: 7, day: 1 }],
    [' 2024-02-29 ', { year: 2024, month: 2, day: 29 }],
  ])('%s → %j', (text, date) => {
    expect(parseCivilDate(text)).toEqual(date);
  });

  it.each([
    '2026-02-30',
    '2025-02-29',
    '2026-13-01',
    '2026-00-15',
    '2026-07-00',
    '2026/07/01',
    '2026-0701',
    '202607-01',
    '26-07-01',
    'x2026-07-01',
    '2026-07-01x',
    '120260701',
    '202607011',
    'today',
    '',
  ])('%j is not a date', (text) => {
    expect(parseCivilDate(text)).toBeUndefined();
  });
});

describe('cost window: --since / --until, --month, --all', () => {
  const now = new Date('2026-07-20T15:00:00Z');

  it('--since/--until cover whole local days, including a 23-hour DST day', () => {
    const w = resolveCostWindow({
      since: day('2026-03-08'),
      until: day('20260308'),
      timeZone: 'America/New_York',
      now,
    });
    expect(iso(w.start)).toBe('2026-03-08T05:00:00.000Z');
    expect(iso(w.end)).toBe('2026-03-09T03:59:59.999Z');
    expect(w).toMatchObject({ historyDays: 1, label: '2026-03-08 – 2026-03-08' });
  });

  it('--since alone runs to now', () => {
    const w = resolveCostWindow({ since: day('20260701'), timeZone: 'Asia/Tokyo', now });
    expect(iso(w.start)).toBe('2026-06-30T15:00:00.000Z');
    expect(w.end).toEqual(now);
    // 15:00 UTC on the 20th is the 21st in Tokyo.
    expect(w).toMatchObject({ historyDays: 21, label: '2026-07-01 – 2026-07-21' });
  });

  it('an --until of today or later ends now', () => {
    const w = resolveCostWindow({ since: day('2026-07-01'), until: day('2026-12-31'), timeZone: 'UTC', now });
    expect(w.end).toEqual(now);
    expect(w.label).toBe('2026-07-01 – 2026-07-20');
  });

  it('--month starts at the local midnight of the 1st', () => {
    const w = resolveCostWindow({
      month: true,
      timeZone: 'America/New_York',
      now: new Date('2026-11-05T12:00:00Z'),
    });
    expect(iso(w.start)).toBe('2026-11-01T04:00:00.000Z');
    expect(w).toMatchObject({ historyDays: 5, label: 'Month to date' });
  });

  it('--all clamps the start to the Unix epoch', () => {
    const w = resolveCostWindow({ all: true, timeZone: 'Asia/Tokyo', now });
    expect(w.start.getTime()).toBe(0);
    expect(w.end).toEqual(now);
    expect(w.label).toBe('All history');
  });
});

describe('cost window: dates that only today can judge are argument errors naming the accepted forms', () => {
  const now = new Date('2026-07-20T15:00:00Z');
  const refusal = (options: Omit<CostWindowOptions, 'now'>): ArgumentError => {
    let caught: unknown;
    try {
      resolveCostWindow({ ...options, now });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ArgumentError);
    return caught as ArgumentError;
  };

  it.each<[string, Omit<CostWindowOptions, 'now' | 'timeZone'>, string]>([
    ['--since in the future', { since: day('2026-08-01') }, '--since 2026-08-01 is in the future.'],
    // Tomorrow is the first day in the future.
    ['--since tomorrow', { since: day('2026-07-21') }, '--since 2026-07-21 is in the future.'],
    [
      '--since after --until',
      { since: day('2026-07-10'), until: day('2026-07-01') },
      '--since 2026-07-10 is after --until 2026-07-01.',
    ],
    ['--until without --since', { until: day('2026-07-01') }, '--until needs --since.'],
  ])('%s', (_label, options, message) => {
    const error = refusal({ ...options, timeZone: 'UTC' });
    expect(error.message).toBe(message);
    expect(`${error.message} ${error.hint}`).toMatch(/YYYY-MM-DD or YYYYMMDD/);
  });

  it('--since today is not in the future: the window is today so far', () => {
    const w = resolveCostWindow({ since: day('2026-07-20'), timeZone: 'UTC', now });
    expect(iso(w.start)).toBe('2026-07-20T00:00:00.000Z');
    expect(w).toMatchObject({ end: now, historyDays: 1, label: '2026-07-20 – 2026-07-20' });
  });

  it('a --since whose local midnight is the Unix epoch is accepted; one before the epoch is refused', () => {
    const epoch = resolveCostWindow({
      since: day('1970-01-01'),
      until: day('1970-01-01'),
      timeZone: 'UTC',
      now,
    });
    expect(epoch.start.getTime()).toBe(0);
    expect(iso(epoch.end)).toBe('1970-01-01T23:59:59.999Z');
    // In Tokyo, 1970-01-01 begins at 1969-12-31T15:00Z: before the epoch the API can be asked for.
    const error = refusal({ since: day('1970-01-01'), timeZone: 'Asia/Tokyo' });
    expect(error.message).toBe('--since 1970-01-01 starts before the Unix epoch in Asia/Tokyo.');
    expect(error.hint).toBe('Use --all for all history, or a later --since.');
  });
});

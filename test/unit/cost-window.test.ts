import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CostWindowOptions, resolveCostWindow } from '../../src/cost/window.js';
import { ArgumentError } from '../../src/errors.js';

const iso = (date: Date) => date.toISOString();
let savedTz: string | undefined;

beforeEach(() => {
  savedTz = process.env.TZ;
});
afterEach(() => {
  process.env.TZ = savedTz;
});

describe('cost window: --days N (docs/behaviour.md §17.2)', () => {
  it('defaults to 30 days from the process zone midnight (TZ=America/New_York), across spring-forward', () => {
    process.env.TZ = 'America/New_York';
    const now = new Date('2026-03-20T15:00:00Z');
    const w = resolveCostWindow({ now });
    // 2026-02-19 is still EST (UTC−5); DST began on 2026-03-08.
    expect(iso(w.start)).toBe('2026-02-19T05:00:00.000Z');
    expect(w.end).toEqual(now);
    expect(w).toMatchObject({ timeZone: 'America/New_York', historyDays: 30, label: 'Last 30 days' });
  });

  it('--days 1 covers all of today: local midnight in EDT', () => {
    process.env.TZ = 'America/New_York';
    const w = resolveCostWindow({ days: 1, now: new Date('2026-03-20T15:00:00Z') });
    expect(iso(w.start)).toBe('2026-03-20T04:00:00.000Z');
    expect(w.label).toBe('Today');
  });

  it('counts calendar days across fall-back (a 25-hour day)', () => {
    process.env.TZ = 'America/New_York';
    const w = resolveCostWindow({ days: 7, now: new Date('2026-11-05T12:00:00Z') });
    expect(iso(w.start)).toBe('2026-10-30T04:00:00.000Z');
  });

  it('--timezone Asia/Tokyo beats TZ: the start is Tokyo midnight', () => {
    process.env.TZ = 'America/New_York';
    const w = resolveCostWindow({ days: 1, timeZone: 'Asia/Tokyo', now: new Date('2026-07-20T15:00:00Z') });
    // 15:00 UTC is already 00:00 on the 21st in Tokyo.
    expect(iso(w.start)).toBe('2026-07-20T15:00:00.000Z');
    expect(w.timeZone).toBe('Asia/Tokyo');
  });

  it('--timezone Asia/Tokyo, 30 days', () => {
    const w = resolveCostWindow({
      days: '30',
      timeZone: 'Asia/Tokyo',
      now: new Date('2026-07-20T10:00:00Z'),
    });
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

  it.each([
    [0, 1],
    [-4, 1],
    [400, 365],
    ['365', 365],
  ])('--days %s is clamped to %s like CodexBar', (days, expected) => {
    expect(
      resolveCostWindow({ days, timeZone: 'UTC', now: new Date('2026-07-20T15:00:00Z') }).historyDays,
    ).toBe(expected);
  });
});

describe('cost window: --since / --until, --month, --all', () => {
  const now = new Date('2026-07-20T15:00:00Z');

  it('--since/--until (both date forms) cover whole local days, including a 23-hour DST day', () => {
    const w = resolveCostWindow({
      since: '2026-03-08',
      until: '20260308',
      timeZone: 'America/New_York',
      now,
    });
    expect(iso(w.start)).toBe('2026-03-08T05:00:00.000Z');
    expect(iso(w.end)).toBe('2026-03-09T03:59:59.999Z');
    expect(w).toMatchObject({ historyDays: 1, label: '2026-03-08 – 2026-03-08' });
  });

  it('--since alone runs to now', () => {
    const w = resolveCostWindow({ since: '20260701', timeZone: 'Asia/Tokyo', now });
    expect(iso(w.start)).toBe('2026-06-30T15:00:00.000Z');
    expect(w.end).toEqual(now);
    // 15:00 UTC on the 20th is the 21st in Tokyo.
    expect(w).toMatchObject({ historyDays: 21, label: '2026-07-01 – 2026-07-21' });
  });

  it('an --until of today or later ends now', () => {
    const w = resolveCostWindow({ since: '2026-07-01', until: '2026-12-31', timeZone: 'UTC', now });
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

describe('cost window: bad or conflicting values are argument errors naming the accepted forms', () => {
  const now = new Date('2026-07-20T15:00:00Z');
  it.each<[string, Omit<CostWindowOptions, 'now'>, RegExp]>([
    ['--days abc', { days: 'abc' }, /1 to 365/],
    ['--days 1.5', { days: 1.5 }, /1 to 365/],
    ['--since 2026-02-30', { since: '2026-02-30' }, /YYYY-MM-DD or YYYYMMDD/],
    ['--since 2026/07/01', { since: '2026/07/01' }, /YYYY-MM-DD or YYYYMMDD/],
    ['--since 2026-0701', { since: '2026-0701' }, /YYYY-MM-DD or YYYYMMDD/],
    ['--since in the future', { since: '2026-08-01' }, /YYYY-MM-DD or YYYYMMDD/],
    ['--since after --until', { since: '2026-07-10', until: '2026-07-01' }, /YYYY-MM-DD or YYYYMMDD/],
    ['--until without --since', { until: '2026-07-01' }, /YYYY-MM-DD or YYYYMMDD/],
    ['--days with --month', { days: 7, month: true }, /--days N, --since\/--until, --month or --all/],
    [
      '--since with --all',
      { since: '2026-07-01', all: true },
      /--days N, --since\/--until, --month or --all/,
    ],
    ['--month with --all', { month: true, all: true }, /--days N, --since\/--until, --month or --all/],
    ['an unknown --timezone', { timeZone: 'Mars/Olympus_Mons' }, /IANA/],
    ['an empty --timezone', { timeZone: '' }, /IANA/],
  ])('%s', (_label, options, hint) => {
    let caught: unknown;
    try {
      resolveCostWindow({ ...options, now });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ArgumentError);
    const error = caught as ArgumentError;
    expect(`${error.message} ${error.hint}`).toMatch(hint);
  });
});

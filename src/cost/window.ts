/**
 * The cost window: which events to ask cursor.com for, and in which zone to bucket them.
 * Starts are local midnights in the zone, found with Intl offsets (time-zone.ts), so DST days are right.
 */
import { ArgumentError } from '../errors.js';
import {
  addCivilDays,
  type CivilDate,
  civilDateAt,
  civilDaysBetween,
  formatDayKey,
  startOfLocalDay,
} from '../lib/time-zone.js';
import type { CostWindow } from './types.js';

export const DEFAULT_HISTORY_DAYS = 30;
export const MAX_HISTORY_DAYS = 365;

export interface CostWindowOptions {
  /** `--days N`, 1…365 (the option parser refuses anything else). */
  days?: number;
  /** `--since` / `--until`: whole local days. */
  since?: CivilDate;
  until?: CivilDate;
  /** `--month`: month to date. */
  month?: boolean;
  /** `--all`: everything since the Unix epoch. */
  all?: boolean;
  /** A canonical IANA zone: `--timezone`, else the local zone (see localTimeZone). */
  timeZone: string;
  now: Date;
}

const DATE_FORMS = 'YYYY-MM-DD or YYYYMMDD';

/** `--since` / `--until` values: YYYY-MM-DD or YYYYMMDD naming a real calendar date. */
export function parseCivilDate(value: string): CivilDate | undefined {
  const match = /^(\d{4})(-?)(\d{2})\2(\d{2})$/.exec(value.trim());
  if (!match) return undefined;
  const date = { year: Number(match[1]), month: Number(match[3]), day: Number(match[4]) };
  // Reject 2026-02-30 and friends: a real date survives a round trip.
  const roundTrip = addCivilDays(date, 0);
  return roundTrip.year === date.year && roundTrip.month === date.month && roundTrip.day === date.day
    ? date
    : undefined;
}

/**
 * The window for already-validated options: commander refuses bad values and conflicting window flags,
 * so only the checks that need today's date remain here.
 */
export function resolveCostWindow(options: CostWindowOptions): CostWindow {
  const { timeZone } = options;
  const nowMs = options.now.getTime();
  const today: Today = { date: civilDateAt(nowMs, timeZone), nowMs, timeZone };
  if (options.all) return allHistory(today);
  if (options.month) return monthToDate(today);
  if (options.since !== undefined || options.until !== undefined) {
    return dayRange(options.since, options.until, today);
  }
  return lastDays(options.days ?? DEFAULT_HISTORY_DAYS, today);
}

interface Today {
  date: CivilDate;
  nowMs: number;
  timeZone: string;
}

/** A window from the start of `first` until now. */
function untilNow(first: CivilDate, startMs: number, today: Today, label: string): CostWindow {
  return {
    start: new Date(startMs),
    end: new Date(today.nowMs),
    timeZone: today.timeZone,
    historyDays: civilDaysBetween(first, today.date) + 1,
    label,
  };
}

/** `--all`: the dashboard API's lower bound is the Unix epoch, which keeps every event. */
function allHistory(today: Today): CostWindow {
  return untilNow(civilDateAt(0, today.timeZone), 0, today, 'All history');
}

/** `--month`: from the local midnight of the 1st. */
function monthToDate(today: Today): CostWindow {
  const first = { year: today.date.year, month: today.date.month, day: 1 };
  return untilNow(first, startOfLocalDay(first, today.timeZone), today, 'Month to date');
}

/** `--since`/`--until`: whole local days; a past `--until` covers that whole day, today or later ends now. */
function dayRange(since: CivilDate | undefined, until: CivilDate | undefined, today: Today): CostWindow {
  if (since === undefined) {
    throw new ArgumentError('--until needs --since.', `Give both as ${DATE_FORMS}, or use --days N.`);
  }
  const last = until ?? today.date;
  // Day keys (YYYY-MM-DD) compare as the days do.
  const first = formatDayKey(since);
  const lastKey = formatDayKey(last);
  const todayKey = formatDayKey(today.date);
  if (first > todayKey) throw new ArgumentError(`--since ${first} is in the future.`, `Use ${DATE_FORMS}.`);
  if (first > lastKey) {
    throw new ArgumentError(`--since ${first} is after --until ${lastKey}.`, `Use ${DATE_FORMS}.`);
  }
  const start = startOfLocalDay(since, today.timeZone);
  if (start < 0) {
    // The dashboard API takes no bound before the Unix epoch.
    throw new ArgumentError(
      `--since ${first} starts before the Unix epoch in ${today.timeZone}.`,
      'Use --all for all history, or a later --since.',
    );
  }
  if (lastKey >= todayKey) return untilNow(since, start, today, `${first} – ${todayKey}`);
  return {
    start: new Date(start),
    end: new Date(startOfLocalDay(addCivilDays(last, 1), today.timeZone) - 1),
    timeZone: today.timeZone,
    historyDays: civilDaysBetween(since, last) + 1,
    label: `${first} – ${lastKey}`,
  };
}

/** `--days N`: today − (N−1) calendar days, snapped to that day's local midnight; the end is now. */
function lastDays(days: number, today: Today): CostWindow {
  const first = addCivilDays(today.date, -(days - 1));
  return untilNow(
    first,
    startOfLocalDay(first, today.timeZone),
    today,
    days === 1 ? 'Today' : `Last ${days} days`,
  );
}

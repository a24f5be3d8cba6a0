/**
 * The cost window: which events to ask cursor.com for, and in which zone to bucket them
 * (docs/behaviour.md §17).
 * Starts are local midnights in the zone, found with Intl offsets (time-zone.ts), so DST days are right.
 */
import { ArgumentError } from '../errors.js';
import {
  addCivilDays,
  type CivilDate,
  canonicalTimeZone,
  civilDateAt,
  civilDaysBetween,
  formatDayKey,
  startOfLocalDay,
  systemTimeZone,
} from './time-zone.js';
import type { CostWindow } from './types.js';

export const DEFAULT_HISTORY_DAYS = 30;
export const MAX_HISTORY_DAYS = 365;

export interface CostWindowOptions {
  /** `--days N`: a whole number, clamped to 1…365 like CodexBar. */
  days?: number | string;
  /** `--since` / `--until`: YYYY-MM-DD or YYYYMMDD, whole local days. */
  since?: string;
  until?: string;
  /** `--month`: month to date. */
  month?: boolean;
  /** `--all`: everything since the Unix epoch. */
  all?: boolean;
  /** `--timezone`: IANA name; default the process zone (TZ, else the system zone). */
  timeZone?: string;
  now: Date;
}

const DATE_FORMS = 'YYYY-MM-DD or YYYYMMDD';
const CONFLICT_HINT = 'Choose one of --days N, --since/--until, --month or --all.';

function resolveTimeZone(name: string | undefined): string {
  if (name === undefined) return systemTimeZone();
  const canonical = name.trim() === '' ? undefined : canonicalTimeZone(name.trim());
  if (!canonical) {
    throw new ArgumentError(
      `Unknown time zone '${name}': use an IANA time zone name such as America/New_York, Europe/Berlin or UTC.`,
    );
  }
  return canonical;
}

function parseDays(value: number | string): number {
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (!/^[+-]?\d+$/.test(text)) {
    throw new ArgumentError(`Invalid --days value '${value}': use a whole number of days from 1 to 365.`);
  }
  // An integer is clamped to 1…365 here; the CLI refuses out-of-range values first (docs/behaviour.md §17.2).
  return Math.min(MAX_HISTORY_DAYS, Math.max(1, Number(text)));
}

function parseDay(flag: string, value: string): CivilDate {
  const match = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(value.trim());
  const dashes = value.trim().split('-').length - 1;
  const date = match && (dashes === 0 || dashes === 2) ? toCivil(match) : undefined;
  if (!date) throw new ArgumentError(`Invalid ${flag} date '${value}': use ${DATE_FORMS}, e.g. 2026-11-01.`);
  return date;
}

function toCivil(match: RegExpExecArray): CivilDate | undefined {
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  // Reject 2026-02-30 and friends: a real date survives a round trip.
  const roundTrip = addCivilDays(date, 0);
  return roundTrip.year === date.year && roundTrip.month === date.month && roundTrip.day === date.day
    ? date
    : undefined;
}

function compareCivil(a: CivilDate, b: CivilDate): number {
  return formatDayKey(a) < formatDayKey(b) ? -1 : formatDayKey(a) > formatDayKey(b) ? 1 : 0;
}

export function resolveCostWindow(options: CostWindowOptions): CostWindow {
  const timeZone = resolveTimeZone(options.timeZone);
  const nowMs = options.now.getTime();
  const today = civilDateAt(nowMs, timeZone);
  const modes = [
    options.days !== undefined,
    options.since !== undefined || options.until !== undefined,
    options.month === true,
    options.all === true,
  ].filter(Boolean).length;
  if (modes > 1) throw new ArgumentError('Conflicting cost window options.', CONFLICT_HINT);

  const spanFrom = (first: CivilDate) => civilDaysBetween(first, today) + 1;

  if (options.all) {
    // docs/behaviour.md §17.5: all-history requests clamp the lower bound to the Unix epoch.
    return {
      start: new Date(0),
      end: new Date(nowMs),
      timeZone,
      historyDays: spanFrom(civilDateAt(0, timeZone)),
      label: 'All history',
    };
  }

  if (options.month) {
    const first = { year: today.year, month: today.month, day: 1 };
    return {
      start: new Date(startOfLocalDay(first, timeZone)),
      end: new Date(nowMs),
      timeZone,
      historyDays: spanFrom(first),
      label: 'Month to date',
    };
  }

  if (options.since !== undefined || options.until !== undefined) {
    if (options.since === undefined) {
      throw new ArgumentError('--until needs --since.', `Give both as ${DATE_FORMS}, or use --days N.`);
    }
    const since = parseDay('--since', options.since);
    const until = options.until === undefined ? today : parseDay('--until', options.until);
    if (compareCivil(since, today) > 0) {
      throw new ArgumentError(`--since ${formatDayKey(since)} is in the future.`, `Use ${DATE_FORMS}.`);
    }
    if (compareCivil(since, until) > 0) {
      throw new ArgumentError(
        `--since ${formatDayKey(since)} is after --until ${formatDayKey(until)}.`,
        `Use ${DATE_FORMS}.`,
      );
    }
    // A past --until covers that whole local day; today or a future day ends now.
    const lastDay = compareCivil(until, today) >= 0 ? today : until;
    const end = lastDay === today ? nowMs : startOfLocalDay(addCivilDays(until, 1), timeZone) - 1;
    return {
      start: new Date(startOfLocalDay(since, timeZone)),
      end: new Date(end),
      timeZone,
      historyDays: civilDaysBetween(since, lastDay) + 1,
      label: `${formatDayKey(since)} – ${formatDayKey(lastDay)}`,
    };
  }

  const days = options.days === undefined ? DEFAULT_HISTORY_DAYS : parseDays(options.days);
  // docs/behaviour.md §17.2, §17.7: today − (N−1) calendar days, snapped to that day's local midnight; the
  // end is now.
  return {
    start: new Date(startOfLocalDay(addCivilDays(today, -(days - 1)), timeZone)),
    end: new Date(nowMs),
    timeZone,
    historyDays: days,
    label: days === 1 ? 'Today' : `Last ${days} days`,
  };
}

/**
 * The cost window: which events to ask cursor.com for, and in which zone to bucket them
 * (codexbar-core.md §4.1, codexbar-cli.md §1.5, cursor-provider.md "Cost reporting period").
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
} from './time-zone.js';
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
  const match = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(value.trim());
  const dashes = value.trim().split('-').length - 1;
  return match && (dashes === 0 || dashes === 2) ? toCivil(match) : undefined;
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

/**
 * The window for already-validated options: commander refuses bad values and conflicting window flags
 * (docs/behaviour.md §7.1), so only the checks that need today's date remain here.
 */
export function resolveCostWindow(options: CostWindowOptions): CostWindow {
  const { timeZone } = options;
  const nowMs = options.now.getTime();
  const today = civilDateAt(nowMs, timeZone);

  const spanFrom = (first: CivilDate) => civilDaysBetween(first, today) + 1;

  if (options.all) {
    // cursor-provider.md: all-history requests clamp the lower bound to the Unix epoch.
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
    const { since } = options;
    const until = options.until ?? today;
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

  const days = options.days ?? DEFAULT_HISTORY_DAYS;
  // §4.1: today − (N−1) calendar days, snapped to that day's local midnight; the end is now.
  return {
    start: new Date(startOfLocalDay(addCivilDays(today, -(days - 1)), timeZone)),
    end: new Date(nowMs),
    timeZone,
    historyDays: days,
    label: days === 1 ? 'Today' : `Last ${days} days`,
  };
}

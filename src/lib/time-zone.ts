/**
 * Calendar arithmetic in an IANA zone with nothing but Intl: the zone's UTC offset at an instant, the
 * local day key of an instant, and the first instant of a local day (DST-aware). No date library.
 */
import { readlinkSync } from 'node:fs';

const MS_PER_DAY = 86_400_000;

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

function offsetFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * UTC is answered without Intl: the first Intl date formatter of a process loads ICU's calendar data, ~30 ms
 * of a short run's start-up (bench/README.md, Start-up), and UTC needs none of it.
 */
const UTC_NAMES = new Set(['utc', 'etc/utc']);

/** The zone's canonical IANA name, or undefined when Intl does not know it. */
export function canonicalTimeZone(name: string): string | undefined {
  if (UTC_NAMES.has(name.toLowerCase())) return 'UTC';
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export interface LocalZone {
  zone: string;
  /** Why the zone is not the one `TZ` names, for `--verbose`. */
  note?: string;
}

/**
 * The local zone for day buckets and reset texts, read from the run's own environment: `TZ` when it names a
 * zone Intl knows (a leading `:` is POSIX's "from the zone database" marker); an unset or empty `TZ` means
 * the system zone (Intl's default, else the `/etc/localtime` link, else UTC); a `TZ` nobody can use
 * (`Factory`, a typo) falls back to UTC with a note. Never throws.
 */
export function resolveLocalTimeZone(
  env: Readonly<Record<string, string | undefined>>,
  systemLink: () => string | undefined = localtimeLink,
): LocalZone {
  const raw = env.TZ;
  const named = raw?.trim().replace(/^:/, '');
  if (named) {
    const zone = canonicalTimeZone(named);
    if (zone) return { zone };
    return { zone: 'UTC', note: `TZ=${raw} is not a time zone this system knows; using UTC` };
  }
  // An empty TZ leaves Intl's own default broken ("Etc/Unknown"), so the system link comes first then.
  const fromIntl = () => canonicalTimeZone(new Intl.DateTimeFormat().resolvedOptions().timeZone);
  const fromLink = () => zoneFromLink(systemLink());
  const zone = raw === undefined ? (fromIntl() ?? fromLink()) : (fromLink() ?? fromIntl());
  return zone ? { zone } : { zone: 'UTC', note: 'the system time zone is unknown; using UTC' };
}

export function localTimeZone(env: Readonly<Record<string, string | undefined>>): string {
  return resolveLocalTimeZone(env).zone;
}

function localtimeLink(): string | undefined {
  try {
    return readlinkSync('/etc/localtime');
  } catch {
    return undefined;
  }
}

/** `/usr/share/zoneinfo/Europe/Berlin` → `Europe/Berlin` (the `posix/` and `right/` trees too). */
function zoneFromLink(target: string | undefined): string | undefined {
  const name = target?.split('/zoneinfo/')[1]?.replace(/^(?:posix|right)\//, '');
  return name ? canonicalTimeZone(name) : undefined;
}

/** The local calendar date and time of day at an instant (proleptic years: 1 BCE is year 0). */
export interface WallClock {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  /** 0–23 */
  hour: number;
  minute: number;
  second: number;
}

/** The wall clock in `timeZone` at `ms`, read from Intl's numeric parts. */
export function wallClock(ms: number, timeZone: string): WallClock {
  if (timeZone === 'UTC') return utcWallClock(ms);
  const clock: WallClock = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  let bce = false;
  for (const part of offsetFormatter(timeZone).formatToParts(ms)) {
    if (part.type === 'era') bce = part.value.startsWith('B');
    else if (part.type in clock) clock[part.type as keyof WallClock] = Number(part.value);
  }
  if (bce) clock.year = 1 - clock.year;
  return clock;
}

/** Date's UTC fields are Intl's UTC parts already (proleptic, 1 BCE is year 0). */
function utcWallClock(ms: number): WallClock {
  const date = new Date(ms);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
  };
}

/** Local wall-clock time at `ms`, encoded as if it were a UTC instant (whole seconds). */
function wallClockMs(ms: number, timeZone: string): number {
  const clock = wallClock(ms, timeZone);
  const date = new Date(0);
  date.setUTCFullYear(clock.year, clock.month - 1, clock.day);
  date.setUTCHours(clock.hour, clock.minute, clock.second, 0);
  return date.getTime();
}

/** The zone's offset from UTC at `ms`, in milliseconds (local = utc + offset). */
function zoneOffsetMs(ms: number, timeZone: string): number {
  const wholeSecond = ms - (((ms % 1000) + 1000) % 1000);
  return wallClockMs(wholeSecond, timeZone) - wholeSecond;
}

export interface CivilDate {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

/** The local calendar date of an instant. */
export function civilDateAt(ms: number, timeZone: string): CivilDate {
  const local = new Date(ms + zoneOffsetMs(ms, timeZone));
  return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate() };
}

/** Calendar arithmetic: the date `days` after (or before) the given one. */
export function addCivilDays(date: CivilDate, days: number): CivilDate {
  const moved = new Date(civilUtcMs(date) + days * MS_PER_DAY);
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

function civilUtcMs(date: CivilDate): number {
  const utc = new Date(0);
  utc.setUTCFullYear(date.year, date.month - 1, date.day);
  return utc.getTime();
}

export function formatDayKey(date: CivilDate): string {
  const year = String(date.year).padStart(4, '0');
  const month = date.month < 10 ? `0${date.month}` : String(date.month);
  const day = date.day < 10 ? `0${date.day}` : String(date.day);
  return `${year}-${month}-${day}`;
}

/**
 * The first instant of a local day. Midnight usually exists once; when a DST change repeats it the
 * earlier one wins, and when a change skips it (zones that spring forward at 00:00) the day starts at the
 * transition, as Foundation's `startOfDay` does.
 */
export function startOfLocalDay(date: CivilDate, timeZone: string): number {
  const wallMidnight = civilUtcMs(date);
  // Offsets a day either side cover any transition near this midnight.
  const offsets = new Set([
    zoneOffsetMs(wallMidnight - MS_PER_DAY, timeZone),
    zoneOffsetMs(wallMidnight, timeZone),
    zoneOffsetMs(wallMidnight + MS_PER_DAY, timeZone),
  ]);
  const candidates = [...offsets].map((offset) => wallMidnight - offset).sort((a, b) => a - b);
  for (const candidate of candidates) {
    if (candidate + zoneOffsetMs(candidate, timeZone) === wallMidnight) return candidate;
  }
  // Midnight was skipped: find the transition, the first instant whose wall clock is past midnight.
  let before = candidates[0]! - MS_PER_DAY / 2;
  let after = candidates[candidates.length - 1]! + MS_PER_DAY / 2;
  while (after - before > 1) {
    const mid = Math.floor((before + after) / 2);
    if (mid + zoneOffsetMs(mid, timeZone) >= wallMidnight) after = mid;
    else before = mid;
  }
  return after;
}

/** Whole calendar days from one date to another (0 for the same day). */
export function civilDaysBetween(from: CivilDate, to: CivilDate): number {
  return Math.round((civilUtcMs(to) - civilUtcMs(from)) / MS_PER_DAY);
}

interface DayRange {
  start: number;
  end: number;
  key: string;
}

const BUCKET_MS = 15 * 60_000;

/**
 * Day keys for many instants (the aggregation hot path): each miss computes the whole local day's range,
 * so events that arrive in time order (as the dashboard lists them) cost one comparison each.
 */
export function createDayKeyer(timeZone: string): (ms: number) => string {
  let last: DayRange | undefined;
  const byBucket = new Map<number, string>();
  return (ms: number): string => {
    if (last && ms >= last.start && ms < last.end) return last.key;
    const bucket = Math.floor(ms / BUCKET_MS);
    const cached = byBucket.get(bucket);
    if (cached !== undefined) return cached;
    const date = civilDateAt(ms, timeZone);
    const start = startOfLocalDay(date, timeZone);
    const end = startOfLocalDay(addCivilDays(date, 1), timeZone);
    last = { start, end, key: formatDayKey(date) };
    // Remember every quarter hour that lies wholly inside this day, so unordered input stays cheap too.
    for (let inner = Math.ceil(start / BUCKET_MS); (inner + 1) * BUCKET_MS <= end; inner++) {
      byBucket.set(inner, last.key);
    }
    return last.key;
  };
}

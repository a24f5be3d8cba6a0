import { type Command, InvalidArgumentError, Option } from 'commander';
import type { CostWindow } from '../cost/types.js';
import { DEFAULT_HISTORY_DAYS, MAX_HISTORY_DAYS, parseCivilDate, resolveCostWindow } from '../cost/window.js';
import { type CivilDate, canonicalTimeZone, resolveLocalTimeZone } from '../lib/time-zone.js';
import type { CliIo } from './io.js';
import { wholeNumber } from './parsers.js';

/**
 * The window flags `cost` shares with `team usage` and `team cost`. The ways to pick a window exclude each
 * other; commander refuses a mix before the action runs. `--all` only where the endpoint serves all history
 * (the Admin API takes 30-day requests, so `team` has none).
 */
export function addWindowOptions(command: Command, options: { all: boolean }): Command {
  const others = (...names: string[]) => (options.all ? [...names, 'all'] : names);
  command
    .addOption(
      new Option('--days <n>', `the last N local days including today (default: ${DEFAULT_HISTORY_DAYS})`)
        .argParser(wholeNumber('--days', 1, MAX_HISTORY_DAYS))
        .conflicts(others('since', 'until', 'month')),
    )
    .addOption(
      new Option('--since <date>', 'first local day, YYYY-MM-DD or YYYYMMDD')
        .argParser(civilDate('--since'))
        .conflicts(others('month')),
    )
    .addOption(
      new Option('--until <date>', 'last local day, YYYY-MM-DD or YYYYMMDD (default: today)')
        .argParser(civilDate('--until'))
        .conflicts(others('month')),
    )
    .addOption(new Option('--month', 'month to date').conflicts(others()));
  if (options.all) command.option('--all', 'all history since the Unix epoch');
  return command.addOption(
    new Option(
      '--timezone <zone>',
      'IANA time zone for the window and the day buckets (default: TZ or the system zone)',
    ).argParser(ianaZone),
  );
}

/** The event store's flags, shared by `cost` and `team cost`. */
export function addStoreOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--no-cache', 'fetch every event and leave the local event store alone').conflicts(
        'refresh',
      ),
    )
    .option('--refresh', 'fetch every event and replace what the local event store holds');
}

/** What commander hands an action for the window flags, already validated. */
export interface WindowFlags {
  days?: number;
  since?: CivilDate;
  until?: CivilDate;
  month?: boolean;
  all?: boolean;
  timezone?: string;
}

/**
 * The window the flags name; what is left to check needs today's date, so it is checked here, before any
 * request. Without --timezone the local zone is used, and `--verbose` hears why when it is not TZ's.
 */
export function windowFromFlags(flags: WindowFlags, io: CliIo, log: (line: string) => void): CostWindow {
  let timeZone = flags.timezone;
  if (timeZone === undefined) {
    const local = resolveLocalTimeZone(io.env);
    if (local.note) log(`[cursor-cost] ${local.note}`);
    timeZone = local.zone;
  }
  return resolveCostWindow({
    days: flags.days,
    since: flags.since,
    until: flags.until,
    month: flags.month,
    all: flags.all,
    timeZone,
    now: io.now(),
  });
}

function civilDate(flag: string): (value: string) => CivilDate {
  return (value) => {
    const date = parseCivilDate(value);
    if (!date) {
      throw new InvalidArgumentError(
        `${flag} must be a date as YYYY-MM-DD or YYYYMMDD, e.g. 2026-11-01 (got '${value}').`,
      );
    }
    return date;
  };
}

function ianaZone(value: string): string {
  const zone = value.trim() === '' ? undefined : canonicalTimeZone(value.trim());
  if (!zone) {
    throw new InvalidArgumentError(
      `--timezone must be an IANA time zone name such as America/New_York, Europe/Berlin or UTC (got '${value}').`,
    );
  }
  return zone;
}

import type { Command } from 'commander';
import { z } from 'zod';
import { ArgumentError } from '../errors.js';

/**
 * The window flags `cost` shares with `team usage` and `team cost`; `--all` only where the endpoint can
 * serve all history in one go (the Admin API splits windows into 30-day requests, so `team` has no --all).
 */
export function addWindowOptions(command: Command, options: { all: boolean }): Command {
  command
    .option('--days <n>', 'the last N local days including today (1-365)', '30')
    .option('--since <date>', 'first local day, YYYY-MM-DD or YYYYMMDD')
    .option('--until <date>', 'last local day, YYYY-MM-DD or YYYYMMDD (default: today)')
    .option('--month', 'month to date');
  if (options.all) command.option('--all', 'all history since the Unix epoch');
  return command.option(
    '--timezone <zone>',
    'IANA time zone for the window and the day buckets (default: TZ or the system zone)',
  );
}

export function addCostOptions(command: Command): Command {
  return addWindowOptions(command, { all: true })
    .option('--concurrency <n>', 'pages fetched at once once the event count is known (1-16)', '6')
    .option('--breakdown', 'per-model rows under each day')
    .option('--compact', 'the narrow table layout');
}

const windowSchema = z.object({
  days: z.string(),
  since: z.string().optional(),
  until: z.string().optional(),
  month: z.boolean().optional(),
  all: z.boolean().optional(),
  timezone: z.string().optional(),
});

const costSchema = windowSchema.extend({
  concurrency: z.string(),
  breakdown: z.boolean().optional(),
  compact: z.boolean().optional(),
});

export interface WindowFlags {
  /** Set only when --days was given explicitly or no other window flag was. */
  days?: number;
  since?: string;
  until?: string;
  month: boolean;
  all: boolean;
  timeZone?: string;
}

export interface CostOptions extends WindowFlags {
  concurrency: number;
  breakdown: boolean;
  compact: boolean;
}

export function parseWindowFlags(raw: unknown, daysWasGiven: boolean): WindowFlags {
  const options = windowSchema.parse(raw);
  const days = daysWasGiven ? parseWholeInRange(options.days, '--days', 1, 365) : undefined;
  return {
    days,
    since: options.since,
    until: options.until,
    month: options.month === true,
    all: options.all === true,
    timeZone: options.timezone,
  };
}

export function parseCostOptions(raw: unknown, daysWasGiven: boolean): CostOptions {
  const options = costSchema.parse(raw);
  const concurrency = parseWholeInRange(options.concurrency, '--concurrency', 1, 16);
  return {
    ...parseWindowFlags(raw, daysWasGiven),
    concurrency,
    breakdown: options.breakdown === true,
    compact: options.compact === true,
  };
}

function parseWholeInRange(value: string, flag: string, min: number, max: number): number {
  const number = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min && number <= max)) {
    throw new ArgumentError(`${flag} must be a whole number from ${min} to ${max} (got '${value}').`);
  }
  return number;
}

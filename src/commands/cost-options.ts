import type { Command } from 'commander';
import { z } from 'zod';
import { ArgumentError } from '../errors.js';

export function addCostOptions(command: Command): Command {
  return command
    .option('--days <n>', 'the last N local days including today (1-365)', '30')
    .option('--since <date>', 'first local day, YYYY-MM-DD or YYYYMMDD')
    .option('--until <date>', 'last local day, YYYY-MM-DD or YYYYMMDD (default: today)')
    .option('--month', 'month to date')
    .option('--all', 'all history since the Unix epoch')
    .option(
      '--timezone <zone>',
      'IANA time zone for the window and the day buckets (default: TZ or the system zone)',
    )
    .option('--concurrency <n>', 'pages fetched at once once the event count is known (1-16)', '6')
    .option('--breakdown', 'per-model rows under each day')
    .option('--compact', 'the narrow table layout');
}

const costSchema = z.object({
  days: z.string(),
  since: z.string().optional(),
  until: z.string().optional(),
  month: z.boolean().optional(),
  all: z.boolean().optional(),
  timezone: z.string().optional(),
  concurrency: z.string(),
  breakdown: z.boolean().optional(),
  compact: z.boolean().optional(),
});

export interface CostOptions {
  /** Set only when --days was given explicitly or no other window flag was. */
  days?: number;
  since?: string;
  until?: string;
  month: boolean;
  all: boolean;
  timeZone?: string;
  concurrency: number;
  breakdown: boolean;
  compact: boolean;
}

export function parseCostOptions(raw: unknown, daysWasGiven: boolean): CostOptions {
  const options = costSchema.parse(raw);
  const concurrency = parseWhole(options.concurrency, '--concurrency');
  if (concurrency < 1 || concurrency > 16) {
    throw new ArgumentError(
      `Error: --concurrency must be a whole number from 1 to 16 (got '${options.concurrency}').`,
    );
  }
  const days = daysWasGiven ? parseWhole(options.days, '--days') : undefined;
  if (days !== undefined && (days < 1 || days > 365)) {
    throw new ArgumentError(`Error: --days must be a whole number from 1 to 365 (got '${options.days}').`);
  }
  return {
    days,
    since: options.since,
    until: options.until,
    month: options.month === true,
    all: options.all === true,
    timeZone: options.timezone,
    concurrency,
    breakdown: options.breakdown === true,
    compact: options.compact === true,
  };
}

function parseWhole(value: string, flag: string): number {
  if (!/^\s*\d+\s*$/.test(value)) {
    throw new ArgumentError(`Error: ${flag} must be a whole number (got '${value}').`);
  }
  return Number(value);
}

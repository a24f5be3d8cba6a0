/**
 * `codexbar statusline --json` and `codexbar guard --json`:
 * one object, or with `--all-accounts` an array of them; an argument error is a `cli` row in an array.
 */
import { z } from 'zod';
import { cliErrorOutputSchema, count, errorBodySchema, isoDate } from './shared.js';

const labelField = z
  .string()
  .optional()
  .describe(
    "The token account's label, when an account flag (`--account`, `--account-index`, `--all-accounts`) named the " +
      'account; never for the default account.',
  );

/** Who a statusline or guard object is about. */
const whoFields = {
  provider: z.literal('cursor').describe('Always `cursor`.'),
  account: labelField,
};

const statuslineLineSchema = z
  .strictObject({
    ...whoFields,
    text: z
      .string()
      .describe(
        'The line text output prints (`Cursor 58% left · 15d 9h · $12.34/$50`), without colour; a stale one starts with `~`.',
      ),
    leftPercent: z
      .number()
      .min(0)
      .max(100)
      .optional()
      .describe(
        "The primary window's percent left: 100 − used, clamped to 0–100; omitted without a primary window.",
      ),
    usedPercent: z
      .number()
      .optional()
      .describe("The primary window's percent used; omitted without a primary window."),
    resetsAt: isoDate.optional().describe('When the primary window resets, when known.'),
    stale: z
      .boolean()
      .describe(
        'Whether the snapshot is older than `--max-age` (default 60 s); a stale line is printed at once and ' +
          'refreshed in the background.',
      ),
    fetchedAt: isoDate.describe('When the figures were fetched from cursor.com.'),
    ageSeconds: count.describe('How old the figures are, in whole seconds (`{age}`).'),
  })
  .meta({ title: 'Statusline object', about: "One account's line." });

const statuslineFailureSchema = z
  .strictObject({
    ...whoFields,
    text: z
      .string()
      .describe(
        'The short marker text output prints: `Cursor: not logged in`, `Cursor: no desktop session` (a browser ' +
          'session whose key is in a keyring no D-Bus session reaches), `Cursor: timed out`, `Cursor: offline`, ' +
          '`Cursor: cursor.com error`, `Cursor: unexpected response`, `Cursor: config error`, `Cursor: unavailable`, ' +
          '`Cursor: no such account`, `Cursor: error`; `Cursor (<label>): …` for a named account.',
      ),
    stale: z.literal(false).describe('Always `false`.'),
    error: errorBodySchema.describe('The failure.'),
  })
  .meta({
    title: 'Statusline failure',
    about: "One account's failure: the run still exits 0 (unless `--strict`), so a prompt never breaks.",
  });

const statuslinePendingSchema = z
  .strictObject({
    ...whoFields,
    text: z
      .string()
      .describe(
        'The placeholder text output prints: `Cursor …` (`Cursor ...` where the locale is not UTF-8); ' +
          '`Cursor (<label>) …` for a named account.',
      ),
    stale: z.literal(false).describe('Always `false`.'),
    pending: z.literal(true).describe('Always `true`.'),
  })
  .meta({
    title: 'Statusline placeholder',
    about:
      '`--no-wait` before the account has a snapshot: nothing was fetched; one background refresh fetches the ' +
      'figures for the next run. The run exits 0, `--strict` included.',
  });

const statuslineEntrySchema = z.union([
  statuslineLineSchema,
  statuslineFailureSchema,
  statuslinePendingSchema,
]);

export const statuslineOutputSchema = z.union([
  statuslineEntrySchema,
  z.array(statuslineEntrySchema),
  cliErrorOutputSchema,
]);

const WAYBAR_LEVELS = ['ok', 'warning', 'critical', 'unknown'] as const;

/** `statusline --format waybar`: Waybar's own custom-module object, on one line. */
export const waybarOutputSchema = z
  .strictObject({
    text: z
      .string()
      .describe(
        "The line (`--template`; `~` first when stale), or a failure's marker; with `--all-accounts` each " +
          "account's joined by ` | `. Pango markup: `&`, `<` and `>` escaped.",
      ),
    alt: z
      .enum([...WAYBAR_LEVELS, 'error', 'pending'])
      .describe(
        'The level, for `format-icons`; `error` when no account could be shown; `pending` for `--no-wait`’s ' +
          'placeholder alone.',
      ),
    tooltip: z
      .string()
      .describe(
        'One fact a line: who (label, plan, account), every window with its reset (the primary one with its ' +
          'pace), on-demand spend, how old the figures are; a failure is its marker. Accounts are separated by ' +
          'a blank line. Pango markup, escaped as `text`.',
      ),
    class: z
      .union([
        z.enum([...WAYBAR_LEVELS, 'error', 'pending']),
        z.array(z.enum([...WAYBAR_LEVELS, 'stale', 'pending', 'error'])),
      ])
      .describe(
        'The level by the most-constrained window: `critical` below 10 % left, `warning` below 25 %, else ' +
          '`ok`; `unknown` without a window of known usage. An array when `stale` (a stale snapshot), `pending` ' +
          '(`--no-wait`’s placeholder beside shown accounts) or `error` (a failed account beside shown ones) is ' +
          'added; a failure alone is `error`, a placeholder alone `pending`.',
      ),
    percentage: z
      .number()
      .int()
      .min(0)
      .max(100)
      .optional()
      .describe(
        "The most-constrained window's percent left, rounded; omitted when no window's usage is known.",
      ),
  })
  .meta({ title: 'Waybar object', about: 'What a Waybar custom module with `"return-type": "json"` reads.' });

const guardCommonFields = {
  ...whoFields,
  window: z
    .enum(['session', 'weekly'])
    .describe('`--window`: `session` is the primary (Total) window, `weekly` the secondary (Cursor) one.'),
};

const minimumField = z.number().min(0).max(100).describe('`--min-remaining` (default 10).');

const guardVerdictSchema = z
  .strictObject({
    ...guardCommonFields,
    remainingPercent: z
      .number()
      .min(0)
      .max(100)
      .describe("The window's percent left: 100 − used, clamped to 0–100."),
    minimumRemainingPercent: minimumField,
    decision: z
      .enum(['ok', 'blocked'])
      .describe('`ok` when at least the minimum is left (inclusive), else `blocked`.'),
    exitCode: z
      .union([z.literal(0), z.literal(1)])
      .describe("This account's exit code: 0 for `ok`, 1 for `blocked`."),
  })
  .meta({ title: 'Guard verdict', about: 'An account whose window could be read.' });

const guardUnknownSchema = z
  .strictObject({
    ...guardCommonFields,
    minimumRemainingPercent: minimumField,
    decision: z.literal('unknown').describe('Always `unknown`.'),
    exitCode: z.union([z.literal(69), z.literal(0)]).describe('69 (unavailable), or 0 with `--fail-open`.'),
    unavailableReason: z
      .enum(['account-resolution', 'fetch-failed', 'timeout', 'window-unavailable'])
      .describe(
        '`account-resolution`: no session, not logged in, a config or cookie-source error, an account that cannot ' +
          'be selected; `fetch-failed`: network, HTTP or parse errors; `timeout`: a request timed out or `--timeout` ' +
          'passed; `window-unavailable`: the account has no such window.',
      ),
  })
  .meta({
    title: 'Guard unknown',
    about: 'An account whose window could not be read; the error is on stderr.',
  });

const guardEntrySchema = z.union([guardVerdictSchema, guardUnknownSchema]);

export const guardOutputSchema = z.union([guardEntrySchema, z.array(guardEntrySchema), cliErrorOutputSchema]);

/**
 * What every JSON output shares: the date forms, counts, the `error` object and the
 * command-level `cli` error row. Every object is strict, so a field the schemas do not name fails validation.
 *
 * `.meta({ title })` names a shape: docs/json.md gives each named shape a table of its own and links to it;
 * `about` is the sentence under that table's heading. Field descriptions are what docs/json.md prints.
 */
import { z } from 'zod';

/** ISO-8601 in UTC, whole seconds, `Z`. */
export const isoDate = z.iso.datetime({ precision: 0 });
/** A local day, `YYYY-MM-DD`. */
export const dayKey = z.iso.date();
export const count = z.number().int().nonnegative();
export const usd = z.number();

/** The four token kinds and their sum, as `cost` writes them on days, models and groups. */
export const tokenFields = {
  inputTokens: count.optional().describe('Input tokens; omitted when unknown.'),
  outputTokens: count.optional().describe('Output tokens; omitted when unknown.'),
  cacheReadTokens: count.optional().describe('Cache-read tokens; omitted when unknown.'),
  cacheCreationTokens: count.optional().describe("Cursor's cache-write tokens; omitted when unknown."),
  totalTokens: count
    .optional()
    .describe(
      'The sum of the four token kinds; omitted when unknown (a part unknown, or a sum that overflowed).',
    ),
};

const ERROR_KINDS = ['args', 'config', 'provider', 'runtime'] as const;

/** `error` of every row but a cost row's. */
export const errorBodySchema = z
  .strictObject({
    code: z
      .number()
      .int()
      .describe(
        'The exit code this failure gives: 1, 4 for a timeout, 64 for an argument error under `guard`.',
      ),
    message: z
      .string()
      .min(1)
      .describe(
        'What went wrong, as text output prints it but without the `Error: ` prefix. Never a credential.',
      ),
    kind: z
      .enum(ERROR_KINDS)
      .describe(
        '`args` for an argument error, `config` for a configuration error (an unreadable config file, a refused ' +
          'base URL), `provider` for every Cursor failure, `runtime` for an unexpected error.',
      ),
  })
  .meta({ title: 'Error', about: 'What a failed row carries as `error`.' });

/** Bad flags, an unreadable config, a refused base URL, and any failure of a command without rows of its own. */
export const cliErrorRowSchema = z
  .strictObject({
    provider: z
      .literal('cli')
      .describe("Always `cli`: the failure is the command's, not one provider row's."),
    source: z.literal('cli').describe('Always `cli`.'),
    error: errorBodySchema.describe('The failure.'),
  })
  .meta({
    title: '`cli` error row',
    about:
      'A command-level failure. `usage`, `cost` and `team` print it for argument and config errors (their other ' +
      'failures are their own error rows); every other command prints it for any failure, so there `kind` can be ' +
      'any of the four. It comes as the only row of an array, also from the commands whose output is an object ' +
      '(`statusline`, `guard`, `config`, `login`, `logout`, `doctor`). The run exits with `error.code`.',
  });

/** What a command prints instead of its output when it fails as a whole. */
export const cliErrorOutputSchema = z.tuple([cliErrorRowSchema]);

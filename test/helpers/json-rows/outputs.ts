/**
 * Every JSON output a user meets, in the order docs/json.md lists them: the command, what its stdout holds
 * and the schema the tests validate the real output against (test/integration/json-rows.test.ts and the
 * tests it names). scripts/json-docs.ts writes docs/json.md from this list.
 */
import type { z } from 'zod';
import { costOutputSchema } from './cost.js';
import { doctorOutputSchema } from './doctor.js';
import {
  cacheClearOutputSchema,
  configProvidersOutputSchema,
  configToggleOutputSchema,
  configValidateOutputSchema,
  loginOutputSchema,
  logoutOutputSchema,
} from './files.js';
import { modelsOutputSchema } from './models.js';
import { guardOutputSchema, statuslineOutputSchema, waybarOutputSchema } from './prompt.js';
import { teamCostOutputSchema, teamSpendOutputSchema, teamUsageOutputSchema } from './team.js';
import { usageOutputSchema } from './usage.js';

export interface JsonOutput {
  /** The heading: how the output is asked for. */
  command: string;
  /** What stdout holds, in a sentence or two (Markdown). */
  about: string;
  schema: z.ZodType;
}

export const JSON_OUTPUTS: readonly JsonOutput[] = [
  {
    command: 'codexbar usage --json',
    about:
      'An array with one row per account: one row without token accounts, one per account with ' +
      '`--all-accounts`, in config order (fetched 4 at a time). `codexbar --json` is the same.',
    schema: usageOutputSchema,
  },
  {
    command: 'codexbar cost --json',
    about:
      'An array with one row per account, as `usage`. `--by day|week|month|model|kind` adds `groupBy`, `weekStart` ' +
      '(weeks only) and `groups`; without `--by` the row is as CodexBar writes it plus the additive fields. ' +
      '`--format json` is the same; `--format csv` is not JSON. `--source byok` prints one row from the codexbar ' +
      'proxy ledger: `source: "byok"`, the `byok` counts, and `--by conversation` as well.',
    schema: costOutputSchema,
  },
  {
    command: 'codexbar statusline --json',
    about:
      'One object; with `--all-accounts` an array of them, one per account in config order (a failing one is ' +
      'its failure object). A snapshot younger than `--max-age` answers without a request.',
    schema: statuslineOutputSchema,
  },
  {
    command: 'codexbar statusline --format waybar',
    about:
      'One object on one line, also with `--all-accounts` (the worst level, the lowest percentage), and also ' +
      'for a failure (exit 0 unless `--strict`). Served from the snapshot like the line.',
    schema: waybarOutputSchema,
  },
  {
    command: 'codexbar guard --json',
    about:
      "One object; with `--all-accounts` an array of them, each with `account`. The exit code is CodexBar's: 1 if " +
      'any account is blocked, else 69 if any is unavailable (0 with `--fail-open`), else 0; an argument error ' +
      'is a `cli` row with `code: 64`.',
    schema: guardOutputSchema,
  },
  {
    command: 'codexbar cache clear --json',
    about:
      'An array with one result per cache asked for (`--usage`, `--cost`, `--cookies`, `--all`); exit 1 when any failed.',
    schema: cacheClearOutputSchema,
  },
  {
    command: 'codexbar config validate --json',
    about:
      'An array of the issues, `[]` when there are none (a missing file too); exit 1 when any is an `error`. ' +
      '`codexbar config --json` is the same. (`config dump` prints the config file itself, credentials redacted, ' +
      'whatever `--format` says.)',
    schema: configValidateOutputSchema,
  },
  {
    command: 'codexbar config providers --json',
    about: 'An array with one entry per provider.',
    schema: configProvidersOutputSchema,
  },
  {
    command: 'codexbar config enable|disable --provider <id> --json',
    about: 'One object: the switch written.',
    schema: configToggleOutputSchema,
  },
  {
    command: 'codexbar login --json',
    about:
      'One object, once the session was verified and stored. A session cursor.com rejects is a `cli` row ' +
      '(nothing is saved).',
    schema: loginOutputSchema,
  },
  {
    command: 'codexbar logout --json',
    about: 'One object: what `logout` (the active account), `--account <label>` or `--all` removed.',
    schema: logoutOutputSchema,
  },
  {
    command: 'codexbar doctor --json',
    about:
      'One object, the redacted export (`codexbar diagnose --format json` is the same; `--redact` changes nothing). ' +
      'Keys are sorted, compact or `--pretty`; it exits 0 whatever it found.',
    schema: doctorOutputSchema,
  },
  {
    command: 'codexbar team spend --json',
    about: 'An array with one row. Exit 3 when `--over` matches any member.',
    schema: teamSpendOutputSchema,
  },
  {
    command: 'codexbar team usage --json',
    about: 'An array with one row.',
    schema: teamUsageOutputSchema,
  },
  {
    command: 'codexbar team cost --json',
    about: 'An array with one row.',
    schema: teamCostOutputSchema,
  },
  {
    command: 'codexbar models --json',
    about:
      "An array with one row per model Cursor offers the account (`AiService/AvailableModels`), with codexbar's " +
      'list prices; from a cache up to 24 hours old unless `--refresh` is given (`fetchedAt` says when). ' +
      'A failure is a `cli` row.',
    schema: modelsOutputSchema,
  },
];

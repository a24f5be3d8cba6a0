/**
 * The commands that look after local files: `cache clear --json`, `config
 * validate|providers|enable|disable --json`, `login --json` and `logout --json`.
 */
import { z } from 'zod';
import { cliErrorOutputSchema, cliErrorRowSchema, count } from './shared.js';

const cacheClearResultSchema = z
  .strictObject({
    cache: z
      .enum(['cookies', 'cost', 'usage', 'models'])
      .describe(
        "`cookies`: CodexBar's legacy `cursor-cookie.json`; `cost`: the cost event stores; `usage`: the usage " +
          'snapshots, account records and locks; `models`: the cached model catalogs of `codexbar models`.',
      ),
    provider: z
      .literal('cursor')
      .optional()
      .describe('`cursor` with `--cookies --provider cursor`; omitted otherwise (all providers).'),
    cleared: z.union([z.literal(0), z.literal(1)]).describe('1 when there was something to clear, else 0.'),
    error: z
      .string()
      .optional()
      .describe('Why it could not be cleared (a string, not an error object); the run then exits 1.'),
  })
  .meta({ title: 'Cache clear result', about: 'One cache, in the order cookies, cost, usage, models.' });

export const cacheClearOutputSchema = z.array(z.union([cacheClearResultSchema, cliErrorRowSchema]));

const CONFIG_ISSUE_CODES = [
  'unreadable',
  'decode_failed',
  'version_mismatch',
  'unsupported_source',
  'api_source_unsupported',
  'cookie_header_missing',
  'secret_key_unused',
  'region_unused',
  'workspace_unused',
  'enterprise_host_unused',
  'active_index_out_of_range',
  'duplicate_account_label',
  'empty_account_label',
  'empty_account_token',
] as const;

const configIssueSchema = z
  .strictObject({
    severity: z.enum(['warning', 'error']).describe('An `error` makes the run exit 1.'),
    provider: z
      .string()
      .optional()
      .describe('`cursor` for an issue of its entry; omitted for the whole file.'),
    field: z
      .string()
      .optional()
      .describe('The key the issue is about (`version`, `cookieHeader`, `tokenAccounts`, …).'),
    code: z
      .enum(CONFIG_ISSUE_CODES)
      .describe(
        "CodexBar's codes, then codexbar's own token-account checks (`active_index_out_of_range`, " +
          '`duplicate_account_label`, `empty_account_label`, `empty_account_token`).',
      ),
    message: z
      .string()
      .describe(
        'The sentence text output prints (`cookieSource manual is set but cookieHeader is missing for cursor.`).',
      ),
  })
  .meta({
    title: 'Config issue',
    about: "One finding, CodexBar's shape. Only the Cursor entry is checked; a missing file has no issues.",
  });

/** `config validate --json` prints its issues even for a file it cannot read: they are the output, not a failure. */
export const configValidateOutputSchema = z.union([z.array(configIssueSchema), cliErrorOutputSchema]);

const providerStateSchema = z
  .strictObject({
    provider: z.string().describe('The provider id (`cursor`, `codex`, …).'),
    displayName: z
      .string()
      .describe('Its name as CodexBar shows it (`Cursor`); the id for one codexbar does not know.'),
    enabled: z
      .boolean()
      .describe("The file's `enabled`, else CodexBar's default. codexbar itself always queries Cursor."),
    defaultEnabled: z.boolean().describe("CodexBar's default: only Codex is enabled by default."),
  })
  .meta({
    title: 'Provider state',
    about:
      'One provider of the config file, in file order (the first of duplicate ids), then Cursor when it is not there.',
  });

export const configProvidersOutputSchema = z.union([z.array(providerStateSchema), cliErrorOutputSchema]);

const configPathField = z.string().min(1).describe('The config file written, as an absolute path.');

const providerSwitchSchema = z
  .strictObject({
    provider: z.string().describe('The provider id switched.'),
    displayName: z.string().describe('Its name as CodexBar shows it.'),
    enabled: z.boolean().describe('The new value: `true` for `enable`, `false` for `disable`.'),
    configPath: configPathField,
  })
  .meta({
    title: 'Provider switch',
    about: "The entry `enable` or `disable` wrote (CodexBar's switch; codexbar queries Cursor anyway).",
  });

export const configToggleOutputSchema = z.union([providerSwitchSchema, cliErrorOutputSchema]);

const loginResultSchema = z
  .strictObject({
    account: z.string().min(1).describe("The token account's label: `--label`, else the account's email."),
    email: z
      .string()
      .optional()
      .describe("The account's email, from `/api/auth/me` or the session token; omitted when neither says."),
    plan: z.string().optional().describe('The plan (`Cursor Pro`), when cursor.com says.'),
    active: z
      .boolean()
      .describe(
        'Whether it is now the active account (`false` with `--no-activate`, unless it already was).',
      ),
    replaced: z
      .boolean()
      .describe('Whether an account with the same label (trimmed, any case) got the new token.'),
    configPath: configPathField,
  })
  .meta({ title: 'Login result', about: 'The token account stored, after cursor.com accepted the session.' });

export const loginOutputSchema = z.union([loginResultSchema, cliErrorOutputSchema]);

const logoutResultSchema = z
  .strictObject({
    removed: z.array(z.string()).min(1).describe('The labels removed, as stored.'),
    remaining: count.describe('How many token accounts are left.'),
    active: z.string().optional().describe('The label of the account active now; omitted when none is left.'),
    configPath: configPathField,
  })
  .meta({
    title: 'Logout result',
    about: 'What was removed from the config file. The sessions stay valid on cursor.com.',
  });

export const logoutOutputSchema = z.union([logoutResultSchema, cliErrorOutputSchema]);

import { type Command, InvalidArgumentError, Option } from 'commander';
import type { SourceMode } from '../auth/resolver.js';
import { ACCOUNT_INDEX_INVALID, parseAccountIndex } from '../config/accounts.js';
import { BROWSER_IDS, type BrowserId } from '../config/schema.js';
import { MAX_AGE_RANGE } from '../statusline/output.js';
import { choiceOption, duration } from './parsers.js';

export type { AccountFlags } from '../config/accounts.js';

/**
 * Flags every command shares. Defined once, added to each command; commander validates the fixed value sets,
 * so an action only ever sees accepted values.
 */
export function addSharedOptions(
  command: Command,
  options: { formats?: readonly OutputFormat[]; byok?: boolean } = {},
): Command {
  command
    .addOption(providerOption().default('cursor'))
    .addOption(
      options.byok
        ? sourceOption(
            'auth source: web uses cookies only, never local Cursor tokens; cli is auto; byok reads the codexbar proxy ledger',
            COST_SOURCES,
          )
        : sourceOption('auth source: web uses cookies only, never local Cursor tokens; cli is auto'),
    )
    .addOption(new Option('--web', 'same as --source web').hideHelp())
    .option('--cookie <header>', 'a Cookie header copied from cursor.com (beats the config file)')
    .addOption(
      choiceOption('--browser <name>', 'read the cursor.com cookie from this browser only', BROWSER_IDS),
    )
    .option('--allow-keychain-prompt', 'macOS: let codexbar ask the Keychain for a browser cookie key')
    .option(
      '--refresh-token',
      'refresh an expired or rejected Cursor app or cursor-agent token for this run (memory only)',
    );
  return addOutputOptions(command, options.formats);
}

/**
 * How a command prints: every command takes these, including those that never fetch (`config`, `login`,
 * `doctor`).
 */
export function addOutputOptions(command: Command, formats: readonly OutputFormat[] = FORMATS): Command {
  return command
    .addOption(choiceOption('--format <format>', 'output format', formats))
    .option('--json', 'same as --format json')
    .option('--json-only', 'JSON on stdout and nothing on stderr')
    .option('--pretty', 'pretty JSON (sorted keys, as CodexBar prints it)')
    .option('--no-color', 'no ANSI colours in text output')
    .option('-v, --verbose', 'say which auth source was used and why earlier ones were skipped')
    .addOption(
      choiceOption(
        '--log-level <level>',
        'log threshold (trace, verbose and debug mean --verbose)',
        LOG_LEVELS,
      ),
    );
}

/**
 * `--account <label>`, `--account-index <n>` and `--all-accounts`, for every command that fetches per
 * account; run them with `forEachAccount` (src/session/per-account.ts).
 */
export function addAccountOptions(command: Command): Command {
  return command
    .option('--account <label>', 'the token account with this label (trimmed, any case)')
    .addOption(
      new Option('--account-index <n>', 'the n-th token account in the config file (1-based)').argParser(
        (value: string) => {
          const index = parseAccountIndex(value);
          if (index === undefined) throw new InvalidArgumentError(ACCOUNT_INDEX_INVALID);
          return index;
        },
      ),
    )
    .option('--all-accounts', 'every token account, fetched concurrently (4 at a time)');
}

/** `--max-age <duration>` of `usage`, `statusline` and `guard`, in milliseconds. */
export function maxAgeOption(defaultMs: number, meaning: string): Option {
  return new Option('--max-age <duration>', meaning)
    .argParser(duration('--max-age', MAX_AGE_RANGE))
    .default(defaultMs, `${defaultMs / 1000}s`);
}

const PROVIDERS = ['cursor', 'all', 'both'] as const;
const SOURCES = ['auto', 'web', 'cli', 'rpc', 'oauth', 'api'] as const;
/** `cost` also reads the BYOK ledger `codexbar proxy` writes (`--source byok`). */
const COST_SOURCES = [...SOURCES, 'byok'] as const;

/** `--provider`: cursor, or all/both meaning cursor; anything else is refused. */
export function providerOption(what = 'provider to query'): Option {
  return choiceOption(
    '--provider <id>',
    `${what} (all and both mean cursor)`,
    PROVIDERS,
    (value) => `unknown provider '${value}' (supported: cursor)`,
  );
}

/** `--source`, with CodexBar's sentence for a value it does not know. */
export function sourceOption(description: string, sources: readonly string[] = SOURCES): Option {
  return choiceOption(
    '--source <mode>',
    description,
    sources,
    () => `--source must be ${sources.join('|')}.`,
  );
}
/** What every command prints; `cost` also prints CSV. */
const FORMATS = ['text', 'json'] as const;
export const COST_FORMATS = ['text', 'json', 'csv'] as const;
const LOG_LEVELS = ['trace', 'verbose', 'debug', 'info', 'warning', 'error', 'critical'] as const;

/** What commander hands an action for the output flags, already validated. */
export interface OutputFlags {
  format?: OutputFormat;
  json?: boolean;
  jsonOnly?: boolean;
  pretty?: boolean;
  color: boolean;
  verbose?: boolean;
  logLevel?: (typeof LOG_LEVELS)[number];
}

/** What commander hands an action for the shared flags, already validated. */
export interface SharedFlags extends OutputFlags {
  provider: (typeof PROVIDERS)[number];
  /** `byok` only on `cost` (its parser refuses it everywhere else). */
  source?: (typeof COST_SOURCES)[number];
  web?: boolean;
  cookie?: string;
  browser?: BrowserId;
  allowKeychainPrompt?: boolean;
  refreshToken?: boolean;
}

export type OutputFormat = (typeof COST_FORMATS)[number];

/** How a command prints, derived from the output flags. */
export interface OutputOptions {
  format: OutputFormat;
  jsonOnly: boolean;
  pretty: boolean;
  noColorFlag: boolean;
  verbose: boolean;
}

export interface SharedOptions extends OutputOptions {
  /** `auto`, `web` and `rpc` (api2's Connect RPCs only: docs/api2.md); `cli` behaves as `auto`. */
  sourceMode: SourceMode;
  /** The mode as given (`auto`, `web`, `cli`, …): what a JSON error row reports as its `source`. */
  sourceLabel: string;
  /** `oauth`/`api` are valid values Cursor does not support: a row error, not an argument error. */
  unsupportedSource?: string;
  cookieFlag?: string;
  /** `--browser`: search only this browser for the cursor.com cookie. */
  browserFlag?: BrowserId;
  /** `--allow-keychain-prompt`. */
  allowKeychainPrompt: boolean;
  /** `--refresh-token`: the opt-in token refresh (docs/api2.md, "Token refresh (opt-in)"). */
  refreshToken?: boolean;
}

/** An explicit --format beats --json; trace, verbose and debug log levels mean --verbose. */
export function outputOptions(flags: OutputFlags): OutputOptions {
  const jsonFlag = flags.json === true || flags.jsonOnly === true;
  return {
    format: flags.format ?? (jsonFlag ? 'json' : 'text'),
    jsonOnly: flags.jsonOnly === true,
    pretty: flags.pretty === true,
    noColorFlag: flags.color === false,
    verbose: flags.verbose === true || ['trace', 'verbose', 'debug'].includes(flags.logLevel ?? ''),
  };
}

/** Settings derived from the parsed flags: --web beats --source, an explicit --format beats --json. */
export function sharedOptions(flags: SharedFlags): SharedOptions {
  const source = flags.web ? 'web' : (flags.source ?? 'auto');
  return {
    ...outputOptions(flags),
    sourceMode: source === 'web' || source === 'rpc' ? source : 'auto',
    sourceLabel: source,
    unsupportedSource: source === 'oauth' || source === 'api' ? source : undefined,
    cookieFlag: flags.cookie,
    browserFlag: flags.browser,
    allowKeychainPrompt: flags.allowKeychainPrompt === true,
    refreshToken: flags.refreshToken === true,
  };
}

/**
 * Before commander has parsed anything: does this argv ask for JSON, so that an argument error becomes a
 * JSON row? An explicit `--format` wins over `--json`/`--json-only`, as it does once parsed.
 */
export function argvWantsJson(argv: readonly string[]): boolean {
  let explicit: string | undefined;
  let jsonFlag = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--json' || arg === '--json-only') jsonFlag = true;
    else if (arg === '--format') explicit = argv[i + 1]?.toLowerCase();
    else if (arg.startsWith('--format=')) explicit = arg.slice('--format='.length).toLowerCase();
  }
  return explicit !== undefined && (COST_FORMATS as readonly string[]).includes(explicit)
    ? explicit === 'json'
    : jsonFlag;
}

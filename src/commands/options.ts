import { type Command, Option } from 'commander';
import { z } from 'zod';
import { BROWSER_IDS, type BrowserId } from '../auth/sources/browser/catalog.js';
import { ArgumentError } from '../errors.js';

/** Flags every command shares (codexbar-cli.md §1.3, contract.md §1). Defined once, added to each command. */
export function addSharedOptions(command: Command): Command {
  return command
    .option('--provider <id>', 'provider to query: cursor (all and both mean cursor)', 'cursor')
    .option('--source <mode>', 'auth source: auto, web (cookies only, never local Cursor tokens) or cli')
    .addOption(new Option('--web', 'same as --source web').hideHelp())
    .option('--cookie <header>', 'a Cookie header copied from cursor.com (beats the config file)')
    .addOption(
      new Option('--browser <name>', 'read the cursor.com cookie from this browser only').choices(
        BROWSER_IDS,
      ),
    )
    .option('--allow-keychain-prompt', 'macOS: let codexbar ask the Keychain for a browser cookie key')
    .option('--format <format>', 'output format: text or json')
    .option('--json', 'same as --format json')
    .option('--json-only', 'JSON on stdout and nothing on stderr')
    .option('--pretty', 'pretty JSON (sorted keys, as CodexBar prints it)')
    .option('--no-color', 'no ANSI colours in text output')
    .option('-v, --verbose', 'say which auth source was used and why earlier ones were skipped')
    .option('--log-level <level>', 'log threshold: trace, verbose, debug, info, warning, error, critical');
}

const sharedSchema = z.object({
  provider: z.string(),
  source: z.string().optional(),
  web: z.boolean().optional(),
  cookie: z.string().optional(),
  browser: z.enum(BROWSER_IDS).optional(),
  allowKeychainPrompt: z.boolean().optional(),
  format: z.string().optional(),
  json: z.boolean().optional(),
  jsonOnly: z.boolean().optional(),
  pretty: z.boolean().optional(),
  color: z.boolean(),
  verbose: z.boolean().optional(),
  logLevel: z.string().optional(),
});

export type OutputFormat = 'text' | 'json';

export interface SharedOptions {
  format: OutputFormat;
  jsonOnly: boolean;
  pretty: boolean;
  noColorFlag: boolean;
  verbose: boolean;
  /** `auto` and `web`; `cli` behaves as `auto` (contract.md §1). */
  sourceMode: 'auto' | 'web';
  /** The mode as given (`auto`, `web`, `cli`, …): what a JSON error row reports as its `source`. */
  sourceLabel: string;
  /** `oauth`/`api` are valid values Cursor does not support: a row error, not an argument error. */
  unsupportedSource?: string;
  cookieFlag?: string;
  /** `--browser`: search only this browser for the cursor.com cookie. */
  browserFlag?: BrowserId;
  /** `--allow-keychain-prompt`. */
  allowKeychainPrompt: boolean;
}

const SOURCES = ['auto', 'web', 'cli', 'oauth', 'api'] as const;

export function parseSharedOptions(raw: unknown): SharedOptions {
  const options = sharedSchema.parse(raw);
  const provider = options.provider.trim().toLowerCase();
  if (!['cursor', 'all', 'both'].includes(provider)) {
    throw new ArgumentError(`Error: unknown provider '${options.provider}' (supported: cursor)`);
  }
  const source = options.web ? 'web' : (options.source?.trim().toLowerCase() ?? 'auto');
  if (!(SOURCES as readonly string[]).includes(source)) {
    throw new ArgumentError('Error: --source must be auto|web|cli|oauth|api.');
  }
  return {
    format: resolveFormat(options.format, options.json === true || options.jsonOnly === true),
    jsonOnly: options.jsonOnly === true,
    pretty: options.pretty === true,
    noColorFlag: options.color === false,
    verbose: options.verbose === true || ['trace', 'verbose', 'debug'].includes(options.logLevel ?? ''),
    sourceMode: source === 'web' ? 'web' : 'auto',
    sourceLabel: source,
    unsupportedSource: source === 'oauth' || source === 'api' ? source : undefined,
    cookieFlag: options.cookie,
    browserFlag: options.browser,
    allowKeychainPrompt: options.allowKeychainPrompt === true,
  };
}

/** codexbar-cli.md §1.3: an explicit --format wins over --json/--json-only. */
function resolveFormat(format: string | undefined, jsonFlag: boolean): OutputFormat {
  if (format === undefined) return jsonFlag ? 'json' : 'text';
  const value = format.trim().toLowerCase();
  if (value === 'text' || value === 'json') return value;
  throw new ArgumentError(`Error: --format must be text or json (got '${format}').`);
}

/** Before commander has parsed anything: does this argv ask for JSON (so early errors become JSON rows)? */
export function argvWantsJson(argv: readonly string[]): boolean {
  let explicit: string | undefined;
  let jsonFlag = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--json' || arg === '--json-only') jsonFlag = true;
    else if (arg === '--format') explicit = argv[i + 1]?.toLowerCase();
    else if (arg.startsWith('--format=')) explicit = arg.slice('--format='.length).toLowerCase();
  }
  return explicit === 'json' || explicit === 'text' ? explicit === 'json' : jsonFlag;
}

export function argvHas(argv: readonly string[], flag: string): boolean {
  return argv.includes(flag);
}

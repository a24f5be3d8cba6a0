import type { Command } from 'commander';
import { CACHE_KINDS, type CacheKind, clearCache } from '../cache/clear.js';
import type { CliIo } from '../cli/io.js';
import { providerOption, type SharedFlags, sharedOptions } from '../cli/options.js';
import { Reporter } from '../cli/output.js';
import { choiceOption } from '../cli/parsers.js';
import { ArgumentError, messageFor } from '../errors.js';
import { cliErrorRow } from '../render/usage-json.js';

const CACHE_EXAMPLES = `
Examples:
  codexbar cache clear --usage               forget the usage snapshots
  codexbar cache clear --models              forget the cached model catalogs (codexbar models)
  codexbar cache clear --cookies --provider cursor`;

export function register(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  addCacheClearOptions(
    program
      .command('cache')
      .description('clear the caches codexbar keeps')
      .command('clear', { isDefault: true })
      .description("clear the usage snapshots, the cost cache or CodexBar's legacy cookie cache"),
  )
    .addHelpText('after', CACHE_EXAMPLES)
    .action(async (flags: CacheClearFlags) => setExitCode(await cacheClearCommand(flags, io)));
}

function addCacheClearOptions(command: Command): Command {
  return command
    .option('--usage', 'the usage snapshots (statusline, --max-age)')
    .option('--cost', 'the cost cache')
    .option('--models', 'the cached model catalogs (codexbar models)')
    .option('--cookies', "CodexBar's legacy cached cookie file (cursor-cookie.json)")
    .option('--all', 'all of the above')
    .addOption(providerOption())
    .addOption(choiceOption('--format <format>', 'output format', ['text', 'json']))
    .option('--json', 'same as --format json')
    .option('--json-only', 'JSON on stdout and nothing on stderr')
    .option('--pretty', 'pretty JSON (sorted keys)');
}

interface CacheClearFlags {
  usage?: boolean;
  cost?: boolean;
  models?: boolean;
  cookies?: boolean;
  all?: boolean;
  provider?: SharedFlags['provider'];
  format?: SharedFlags['format'];
  json?: boolean;
  jsonOnly?: boolean;
  pretty?: boolean;
}

interface ClearResult {
  cache: CacheKind;
  provider?: 'cursor';
  cleared: number;
  error?: string;
}

/**
 * `codexbar cache clear` (CodexBar's `cache clear` with our usage snapshots): one result per cache, as a line
 * or a JSON row; exit 1 when any failed.
 */
async function cacheClearCommand(flags: CacheClearFlags, io: CliIo): Promise<number> {
  const reporter = new Reporter(
    io,
    sharedOptions({ ...flags, provider: flags.provider ?? 'cursor', color: false }),
  );
  try {
    const kinds = selectedKinds(flags);
    const results: ClearResult[] = [];
    for (const cache of kinds) {
      const result: ClearResult = { cache, cleared: 0 };
      if (cache === 'cookies' && flags.provider !== undefined) result.provider = 'cursor';
      try {
        result.cleared = (await clearCache(cache, io)) ? 1 : 0;
      } catch (error) {
        result.error = messageFor(error);
      }
      results.push(result);
    }
    if (reporter.json) reporter.printJson(results);
    else reporter.printText(results.map(describe).join('\n'));
    return results.some((result) => result.error !== undefined) ? 1 : 0;
  } catch (error) {
    return reporter.fail(error, cliErrorRow);
  }
}

function selectedKinds(flags: CacheClearFlags): CacheKind[] {
  const kinds = flags.all ? [...CACHE_KINDS] : CACHE_KINDS.filter((kind) => flags[kind] === true);
  if (flags.provider !== undefined && kinds.some((kind) => kind !== 'cookies')) {
    throw new ArgumentError(
      '--provider only scopes cookie caches. Use --cookies --provider <name>, or omit --provider.',
    );
  }
  if (kinds.length === 0) throw new ArgumentError('Specify --usage, --cost, --models, --cookies, or --all.');
  return kinds;
}

/** `cookies: cleared (cursor)`, `usage: nothing to clear (all providers)`, `… failed to clear (…) - why`. */
function describe(result: ClearResult): string {
  const scope = result.provider ?? 'all providers';
  if (result.error !== undefined) return `${result.cache}: failed to clear (${scope}) - ${result.error}`;
  return `${result.cache}: ${result.cleared ? 'cleared' : 'nothing to clear'} (${scope})`;
}

import type { Command } from 'commander';
import type { CliIo } from '../cli/io.js';
import { addSharedOptions, type SharedFlags, type SharedOptions, sharedOptions } from '../cli/options.js';
import { Reporter } from '../cli/output.js';
import { buildCatalog } from '../models/catalog.js';
import { modelsAgeText, obtainModels } from '../models/obtain.js';
import { modelsJson } from '../render/models-json.js';
import { renderModelsText } from '../render/models-text.js';
import { cliErrorRow } from '../render/usage-json.js';
import { openCursorSession, prepareCursor } from '../session/cursor-session.js';

const MODELS_EXAMPLES = `
Examples:
  codexbar models                            every model Cursor offers this account, with our list prices
  codexbar models --json --pretty            the same as a JSON array
  codexbar models --refresh --verbose        fetch the catalog again and say which token was used`;

export function register(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  addSharedOptions(
    program
      .command('models')
      .description("Cursor's model catalog for this account, with list prices per million tokens"),
  )
    .option('--refresh', 'fetch the catalog again instead of using the one cached in the last 24 h')
    .addHelpText('after', MODELS_EXAMPLES)
    .action(async (flags: ModelsFlags) => setExitCode(await modelsCommand(flags, io)));
}

interface ModelsFlags extends SharedFlags {
  refresh?: boolean;
}

/**
 * `codexbar models`: the catalog comes from api2 (`AiService/AvailableModels`, docs/api2.md), so only a
 * session with an access token can ask for it (`--source rpc` whatever the flags say). The answer is cached
 * per account for 24 h; `--refresh` skips the cache.
 */
async function modelsCommand(flags: ModelsFlags, io: CliIo): Promise<number> {
  const options: SharedOptions = { ...sharedOptions(flags), sourceMode: 'rpc' };
  const reporter = new Reporter(io, options);
  try {
    const prep = await prepareCursor(io, options, reporter.verbose);
    const setup = await openCursorSession(io, options, 'usage', reporter.verbose, { prep });
    const obtained = await obtainModels(io, setup, {
      api2BaseUrl: prep.api2BaseUrl,
      refresh: flags.refresh === true,
      who: 'codexbar models',
      requestTimeoutMs: io.timing.requestTimeoutMs,
      log: reporter.verbose,
    });
    const catalog = buildCatalog(obtained.answer, io.now());
    if (reporter.json) {
      reporter.printJson(modelsJson(catalog, obtained.fetchedAt));
    } else {
      reporter.printText(
        renderModelsText(catalog, {
          cacheNote: obtained.fromCache
            ? `(cached ${modelsAgeText(obtained.fetchedAt, io.now())} ago)`
            : undefined,
        }),
      );
    }
    return 0;
  } catch (error) {
    return reporter.fail(error, cliErrorRow);
  }
}

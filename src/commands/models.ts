import type { Command } from 'commander';
import { fetchAvailableModels } from '../api/api2/available-models.js';
import type { AvailableModels } from '../api/api2/schemas/available-models.js';
import { cookieCannotOpenApi2 } from '../auth/api2-access.js';
import { isFresh, modelsCacheDir, readModels, writeModels } from '../cache/models-file.js';
import { sessionAccountKey } from '../cache/session-account.js';
import type { CliIo } from '../cli/io.js';
import { addSharedOptions, type SharedFlags, type SharedOptions, sharedOptions } from '../cli/options.js';
import { Reporter } from '../cli/output.js';
import { messageFor } from '../errors.js';
import { formatDuration } from '../lib/duration.js';
import { buildCatalog } from '../models/catalog.js';
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

interface Obtained {
  answer: AvailableModels;
  fetchedAt: Date;
  fromCache: boolean;
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
    const obtained = await obtainModels(io, options, reporter, flags.refresh === true);
    const catalog = buildCatalog(obtained.answer, io.now());
    if (reporter.json) {
      reporter.printJson(modelsJson(catalog, obtained.fetchedAt));
    } else {
      reporter.printText(
        renderModelsText(catalog, {
          cacheNote: obtained.fromCache ? `(cached ${ageText(obtained.fetchedAt, io.now())} ago)` : undefined,
        }),
      );
    }
    return 0;
  } catch (error) {
    return reporter.fail(error, cliErrorRow);
  }
}

async function obtainModels(
  io: CliIo,
  options: SharedOptions,
  reporter: Reporter,
  refresh: boolean,
): Promise<Obtained> {
  const prep = await prepareCursor(io, options, reporter.verbose);
  const setup = await openCursorSession(io, options, 'usage', reporter.verbose, { prep });
  const dir = modelsCacheDir(io);
  if (!refresh) {
    // The first local session says whose cache to read, without a request.
    const peeked = await setup.peek();
    const key =
      peeked?.session.accessToken !== undefined
        ? sessionAccountKey(peeked.session, setup.accountLabel)
        : undefined;
    if (peeked && key !== undefined) {
      const read = readModels(dir, key, prep.api2BaseUrl);
      const now = io.now();
      if (read.kind === 'ok' && isFresh(read.cached, now)) {
        for (const line of peeked.lines) reporter.verbose(line);
        reporter.verbose(
          `[cursor] Model catalog from the cache, fetched ${ageText(read.cached.fetchedAt, now)} ago (--refresh fetches it again)`,
        );
        return { ...read.cached, fromCache: true };
      }
      reporter.verbose(
        `[cursor] Fetching the model catalog: the cached one is ${read.kind === 'ok' ? '24 h old or more' : read.reason}`,
      );
    }
  }
  const resolved = await setup.run(async (_client, session, api2) => {
    if (session.accessToken === undefined) {
      throw cookieCannotOpenApi2('codexbar models', session.description);
    }
    const answer = await fetchAvailableModels(api2, session.accessToken, io.timing.requestTimeoutMs);
    return { answer, fetchedAt: io.now(), fromCache: false };
  });
  const key = sessionAccountKey(resolved.session, setup.accountLabel);
  if (key !== undefined) {
    try {
      writeModels(dir, key, prep.api2BaseUrl, resolved.value);
    } catch (error) {
      // A cache that cannot be written costs a request next time, never this run's answer.
      reporter.verbose(`[cursor] The model catalog was not cached: ${messageFor(error)}`);
    }
  }
  return resolved.value;
}

/** Whole seconds since `fetchedAt`, as `3h 12m`. */
function ageText(fetchedAt: Date, now: Date): string {
  return formatDuration(Math.max(0, Math.floor((now.getTime() - fetchedAt.getTime()) / 1000)));
}

import { startBackgroundRefresh } from '../cache/background-refresh.js';
import type { BrowserId } from '../config/schema.js';
import type { CliIo } from './io.js';
import { type SharedFlags, sharedOptions } from './options.js';
import { printStatusline, printStatuslineFailure, type StatuslineSettings } from './statusline-output.js';
import { obtainUsage } from './usage-source.js';

/** What commander hands the `statusline` action, already validated. */
export interface StatuslineFlags {
  provider: SharedFlags['provider'];
  source?: SharedFlags['source'];
  web?: boolean;
  browser?: BrowserId;
  json?: boolean;
  pretty?: boolean;
  /** true with --color, false with --no-color. */
  color?: boolean;
  verbose?: boolean;
  template: string;
  /** Milliseconds. */
  maxAge: number;
  /** Milliseconds. */
  timeout: number;
  strict?: boolean;
}

/**
 * `codexbar statusline` (docs/behaviour.md §26.4–26.6): one line from the account's snapshot; a stale one is
 * printed at once, marked, and refreshed in the background; with none, cursor.com is asked within
 * `--timeout`. The fast path (src/fast/statusline.ts) answers the common cases before this loads.
 */
export async function statuslineCommand(flags: StatuslineFlags, io: CliIo): Promise<number> {
  const settings: StatuslineSettings = {
    template: flags.template,
    json: flags.json === true,
    pretty: flags.pretty === true,
    colorFlag: flags.color,
    strict: flags.strict === true,
  };
  const options = sharedOptions({
    provider: flags.provider,
    source: flags.source,
    web: flags.web,
    browser: flags.browser,
    json: flags.json,
    verbose: flags.verbose,
    color: flags.color !== false,
  });
  const log = (line: string) => {
    if (options.verbose) io.stderr.write(`${line}\n`);
  };
  try {
    const usage = await obtainUsage(io, options, log, {
      maxAgeMs: flags.maxAge,
      acceptStale: true,
      deadlineMs: flags.timeout,
    });
    const now = io.now();
    printStatusline(io.stdout, settings, io.env, { ...usage, now });
    if (usage.stale && usage.account !== undefined && usage.cacheDir !== undefined) {
      const started = await startBackgroundRefresh(
        {
          usageDir: usage.cacheDir,
          account: usage.account,
          seenFetchedAt: usage.fetchedAt,
          now,
          sourceArgs: [
            '--source',
            options.sourceLabel,
            ...(flags.browser ? ['--browser', flags.browser] : []),
          ],
        },
        io.spawnRefresh,
      ).catch((error: unknown) => `failed (${error instanceof Error ? error.message : String(error)})`);
      log(`[cache] Background refresh: ${started}`);
    }
    return 0;
  } catch (error) {
    return printStatuslineFailure(io.stdout, io.stderr, settings, error);
  }
}

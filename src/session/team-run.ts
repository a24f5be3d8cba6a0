/**
 * What every `team` subcommand does around its fetch: output flags, the key (refused before any request when
 * missing or malformed), the base URL rule, one Admin API client with its rate limiters, a progress line that
 * shows rate-limit waits, and one error path.
 */

import { ADMIN_ORIGIN, AdminClient } from '../api/admin/client.js';
import { ADMIN_RATE_LIMITS, type AdminContext } from '../api/admin/endpoints.js';
import { readFirstLine, resolveAdminKey } from '../api/admin/key.js';
import { type Clock, RateLimiters, realClock } from '../api/admin/rate-limiter.js';
import { resolveOverridableUrl } from '../api/base-url.js';
import { proxySettings } from '../api/transport.js';
import type { CliIo } from '../cli/io.js';
import type { OutputOptions } from '../cli/options.js';
import { Reporter } from '../cli/output.js';
import { loadConfig } from '../config/config.js';
import type { LocalEnvironment } from '../local/environment.js';
import { createProgressLine, type ProgressLine } from '../render/progress.js';
import { teamErrorRow } from '../render/team-spend.js';
import { teamStoreKey } from '../team/store-key.js';

/**
 * CliIo plus what only `team` needs, injected by tests: the clock and
 * sleep of the rate limiter and retries, so no test waits in real time.
 */
export interface TeamIo extends CliIo {
  clock?: Clock;
}

export type TeamFormat = 'text' | 'json' | 'csv';

export interface TeamOutputOptions {
  format: TeamFormat;
  jsonOnly: boolean;
  pretty: boolean;
  noColorFlag: boolean;
  verbose: boolean;
  apiKeyStdin: boolean;
}

interface RawOutputOptions {
  format?: TeamFormat;
  json?: boolean;
  csv?: boolean;
  jsonOnly?: boolean;
  pretty?: boolean;
  color?: boolean;
  verbose?: boolean;
  apiKeyStdin?: boolean;
}

export function parseTeamOutput(raw: RawOutputOptions): TeamOutputOptions {
  const jsonFlag = raw.json === true || raw.jsonOnly === true;
  return {
    format: raw.format ?? (jsonFlag ? 'json' : raw.csv ? 'csv' : 'text'),
    jsonOnly: raw.jsonOnly === true,
    pretty: raw.pretty === true,
    noColorFlag: raw.color === false,
    verbose: raw.verbose === true,
    apiKeyStdin: raw.apiKeyStdin === true,
  };
}

/** Rate-limit waits shorter than this are not worth a line. */
const SHOWN_WAIT_MS = 1000;
const VERBOSE_WAIT_MS = 5000;

/**
 * The progress line of a long fetch, with the rate-limit wait appended while there is one. Verbose lines
 * go through it too, so a line is never written into the middle of the progress line.
 */
export class FetchProgress {
  private base = '';
  private shown = '';

  constructor(
    private readonly line: ProgressLine,
    private readonly verboseLine: (line: string) => void,
  ) {}

  step(message: string): void {
    this.base = message;
    this.show(message);
  }

  waiting(ms: number): void {
    if (ms < SHOWN_WAIT_MS) return;
    const text = `waiting ${Math.ceil(ms / 1000)} s for the rate limit`;
    if (ms >= VERBOSE_WAIT_MS) this.verbose(`[cursor-team] ${text}`);
    this.show(this.base ? `${this.base} · ${text}` : `${text[0]!.toUpperCase()}${text.slice(1)}`);
  }

  verbose = (text: string): void => {
    this.line.finish();
    this.verboseLine(text);
    if (this.shown) this.line.update(this.shown);
  };

  private show(message: string): void {
    this.shown = message;
    this.line.update(message);
  }

  finish(): void {
    this.shown = '';
    this.line.finish();
  }
}

export interface TeamRun {
  context: AdminContext;
  /** The team's event-store key, derived one way from the Admin API key (never the key itself). */
  teamKey: string;
  /** Where the run's cache lives. */
  env: LocalEnvironment;
  reporter: Reporter<OutputOptions>;
  progress: FetchProgress;
  output: TeamOutputOptions;
  io: TeamIo;
}

/**
 * Runs one subcommand: `perform` fetches and prints, and returns the exit code. Errors print as text
 * (`Error: …` and a hint) or as a JSON error row, and map to exit codes in one place.
 */
export async function runTeamCommand(
  io: TeamIo,
  output: TeamOutputOptions,
  perform: (run: TeamRun) => Promise<number>,
): Promise<number> {
  const reporter = new Reporter<OutputOptions>(io, {
    format: output.format === 'json' ? 'json' : 'text',
    jsonOnly: output.jsonOnly,
    pretty: output.pretty,
    noColorFlag: output.noColorFlag || output.format === 'csv',
    verbose: output.verbose,
  });
  const progress = new FetchProgress(
    createProgressLine({ enabled: output.format !== 'json' && io.stderr.isTTY === true, stream: io.stderr }),
    reporter.verbose,
  );
  let client: AdminClient | undefined;
  try {
    const authEnv: LocalEnvironment = io;
    const baseUrl = resolveOverridableUrl(io.env.CODEXBAR_CURSOR_ADMIN_BASE_URL, {
      variable: 'CODEXBAR_CURSOR_ADMIN_BASE_URL',
      defaultUrl: ADMIN_ORIGIN,
    });
    const stdinLine = output.apiKeyStdin ? await readFirstLine(io.stdin ?? emptyInput()) : undefined;
    // The config file is read only when it is the key's last chance, so a broken one cannot stop a run
    // that has its key from stdin or the environment.
    const needsConfig = stdinLine === undefined && !io.env.CURSOR_ADMIN_API_KEY?.trim();
    const config = needsConfig ? await loadConfig(authEnv) : undefined;
    const key = resolveAdminKey({ stdinLine, env: io.env, configKey: config?.cursor.apiKey });
    reporter.verbose(`[cursor-team] Using the Admin API key from ${key.source}`);

    const clock = io.clock ?? realClock;
    const limiters = new RateLimiters(clock, ADMIN_RATE_LIMITS);
    limiters.onWait((_family, ms) => progress.waiting(ms));
    client = new AdminClient({ baseUrl, apiKey: key.value, proxy: proxySettings(io.env) });
    const context: AdminContext = {
      client,
      limiters,
      retry: {
        sleep: clock.sleep,
        onRetry: ({ rateLimited, delayMs }) => {
          if (rateLimited) progress.waiting(delayMs);
        },
      },
    };
    const teamKey = teamStoreKey(key.value);
    return await perform({ context, teamKey, env: authEnv, reporter, progress, output, io });
  } catch (error) {
    progress.finish();
    return reporter.fail(error, (failure) => teamErrorRow(failure, io.now()));
  } finally {
    progress.finish();
    await client?.close();
  }
}

/** Without a stdin (an embedding that gave none), `--api-key-stdin` reads nothing. */
async function* emptyInput(): AsyncGenerator<string> {}

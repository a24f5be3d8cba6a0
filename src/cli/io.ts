import os from 'node:os';
import type { RequestTimer } from '../api/client.js';
import {
  OPTIONAL_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  STATUS_TIMEOUT_MS,
  TEAM_DEADLINE_MS,
} from '../api/timeouts.js';
import { DEFAULT_RETRY_POLICY } from '../lib/retry.js';
import type { LocalEnvironment } from '../local/environment.js';
import { zoneSafeProcessEnv } from '../local/zone-file.js';
import type { RefreshSpawner } from '../statusline/background-refresh.js';
import type { UsageTimeouts } from '../usage/collect.js';

export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * Budgets and waits that tests shrink so that no test waits in real time. Commands read them from the
 * injected `CliIo`; the defaults are the real ones.
 */
export interface Timing {
  /** usage-summary and each events page. */
  requestTimeoutMs: number;
  /** auth/me, /api/usage, Grok Bot and v2/usage-status: the best-effort lookups. */
  optionalTimeoutMs: number;
  /** The one deadline shared by /teams and every get-team-spend page. */
  teamDeadlineMs: number;
  /** `usage --status`: the Statuspage request. */
  statusTimeoutMs: number;
  /** The wait before a retry of an events page (backoff or Retry-After). */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A signal that aborts when a whole run's deadline has passed (`cost --timeout`). */
  deadline: (ms: number) => AbortSignal;
  /** Each cursor.com request's budget (the ones above): a test says when one runs out. */
  requestTimer: RequestTimer;
}

export const DEFAULT_TIMING: Timing = {
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  optionalTimeoutMs: OPTIONAL_TIMEOUT_MS,
  teamDeadlineMs: TEAM_DEADLINE_MS,
  statusTimeoutMs: STATUS_TIMEOUT_MS,
  sleep: DEFAULT_RETRY_POLICY.sleep,
  deadline: (ms) => AbortSignal.timeout(ms),
  requestTimer: (ms) => AbortSignal.timeout(ms),
};

/** What `login` reads a secret from: process.stdin, or a test's stream. */
export interface InputStream extends AsyncIterable<Buffer | string> {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  setEncoding?(encoding: BufferEncoding): unknown;
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

/**
 * Everything a command touches outside the process: injected so tests can run commands in-process. It is the
 * LocalEnvironment (platform, environment, home, clock) the layers below take, plus streams and budgets.
 */
export interface CliIo extends LocalEnvironment {
  stdout: OutputStream;
  stderr: OutputStream;
  timing: Timing;
  /**
   * Starts the detached background refresh of a stale snapshot and returns its pid; the real one spawns this
   * CLI again. Tests record the request instead.
   */
  spawnRefresh?: RefreshSpawner;
  /** Only `login` reads it; absent means no input at all. */
  stdin?: InputStream;
}

export function processIo(): CliIo {
  const platform = process.platform === 'darwin' || process.platform === 'win32' ? process.platform : 'linux';
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: zoneSafeProcessEnv(),
    platform,
    homeDir: os.homedir(),
    now: () => new Date(),
    timing: DEFAULT_TIMING,
    // A getter: Node creates process.stdin on first access, and only `login` should ever touch it.
    get stdin() {
      return process.stdin;
    },
  };
}

/** The usage lookups' budgets from the run's timing. */
export function usageTimeouts(timing: Timing): UsageTimeouts {
  return {
    requestMs: timing.requestTimeoutMs,
    optionalMs: timing.optionalTimeoutMs,
    teamDeadlineMs: timing.teamDeadlineMs,
  };
}

/** Output that is not a terminal has no width to fit: the full table, unless --compact says otherwise. */
const UNBOUNDED_COLUMNS = 1000;

/** The width tables are laid out for: COLUMNS, then the terminal's (ccusage's rule); a pipe or a file: unbounded. */
export function terminalColumns(io: Pick<CliIo, 'env' | 'stdout'>): number {
  const fromEnv = Number(io.env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return io.stdout.isTTY ? (io.stdout.columns ?? 80) : UNBOUNDED_COLUMNS;
}

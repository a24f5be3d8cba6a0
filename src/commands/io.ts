import os from 'node:os';
import { OPTIONAL_TIMEOUT_MS, REQUEST_TIMEOUT_MS, TEAM_DEADLINE_MS } from '../api/timeouts.js';
import { DEFAULT_RETRY_POLICY } from '../cost/retry.js';
import type { Platform } from '../local/environment.js';

export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * Budgets and waits that tests shrink so that no test waits in real time. Commands read them from the
 * injected `CliIo`; the defaults are the real ones (docs/behaviour.md §11.1).
 */
export interface Timing {
  /** usage-summary and each events page. */
  requestTimeoutMs: number;
  /** auth/me, /api/usage, Grok Bot and v2/usage-status: the best-effort lookups. */
  optionalTimeoutMs: number;
  /** The one deadline shared by /teams and every get-team-spend page. */
  teamDeadlineMs: number;
  /** The wait before a retry of an events page (backoff or Retry-After). */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A signal that aborts when a whole run's deadline has passed (`cost --timeout`). */
  deadline: (ms: number) => AbortSignal;
}

export const DEFAULT_TIMING: Timing = {
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  optionalTimeoutMs: OPTIONAL_TIMEOUT_MS,
  teamDeadlineMs: TEAM_DEADLINE_MS,
  sleep: DEFAULT_RETRY_POLICY.sleep,
  deadline: (ms) => AbortSignal.timeout(ms),
};

/** Everything a command touches outside the process: injected so tests can run commands in-process. */
export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  env: Readonly<Record<string, string | undefined>>;
  platform: Platform;
  homeDir: string;
  now: () => Date;
  timing: Timing;
}

export function processIo(): CliIo {
  const platform = process.platform === 'darwin' || process.platform === 'win32' ? process.platform : 'linux';
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    platform,
    homeDir: os.homedir(),
    now: () => new Date(),
    timing: DEFAULT_TIMING,
  };
}

import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type CliIo, DEFAULT_TIMING, type OutputStream, type Timing } from '../../src/cli/io.js';
import { run } from '../../src/cli.js';
import type { ProxyIo } from '../../src/commands/proxy.js';
import type { ServeIo } from '../../src/commands/serve.js';
import type { TeamIo } from '../../src/session/team-run.js';
import { seedCompileCache } from './compile-cache.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const binPath = path.join(repoRoot, 'bin', 'codexbar.js');
/**
 * Pins the clock of a spawned CLI (`node --require`). CommonJS, like the bundles: a `--import` preload starts
 * Node's ES module loader in every spawned run, ~10 ms more CPU each (bench/README.md, "npm test").
 */
export const fixedNowPreload = path.join(repoRoot, 'test', 'helpers', 'fixed-now.cjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  home: string;
  /** Added to `HOME` and `TZ=UTC`; an undefined value removes the variable. */
  env?: Record<string, string | undefined>;
  /**
   * The clock the CLI sees: it starts here and advances with real time, or stands still with `frozen`; a
   * function is the clock itself (a clock the test steps).
   */
  now?: Date | (() => Date);
  frozen?: boolean;
  platform?: CliIo['platform'];
  /** Pretend stdout / stderr are a terminal of this many columns. */
  stdoutTTY?: { columns: number };
  stderrTTY?: boolean;
  /** Shorter budgets for a test; retry waits never sleep unless a test passes its own `sleep`. */
  timing?: Partial<Timing>;
  /**
   * Receives the detached refresh a stale statusline would start (its argv, without node and the script).
   * In-process runs never spawn: by default nothing starts and the run sees a refresh that failed to start.
   */
  spawnRefresh?: CliIo['spawnRefresh'];
  /** What the CLI reads on stdin (a pipe, not a terminal); absent means no stdin at all. */
  stdin?: string;
  /** `team`'s rate-limit clock (virtual: its sleeps advance it at once). */
  clock?: TeamIo['clock'];
  /** `serve`'s stop signal, deadlines and clock. */
  serveHooks?: ServeIo['serveHooks'];
  /** `proxy`'s stop signal, deadlines and clock. */
  proxyHooks?: ProxyIo['proxyHooks'];
}

/** A stream that collects what the CLI writes. */
function captureStream(tty?: { columns?: number }): OutputStream & { text: () => string } {
  const chunks: string[] = [];
  return {
    write: (chunk: string) => chunks.push(chunk),
    isTTY: tty !== undefined,
    columns: tty?.columns,
    text: () => chunks.join(''),
  };
}

/** Retry waits in tests: recorded, never slept. */
const noSleep: Timing['sleep'] = async (_ms, signal) => {
  signal?.throwIfAborted();
};

/** What runCli hands the CLI, for a test that starts a part of it (the serve harness) with the same io. */
export interface TestIo {
  io: CliIo & TeamIo & ServeIo & ProxyIo;
  stdout: () => string;
  stderr: () => string;
}

/**
 * The io of an in-process run: an environment that holds only what the test passes (so the developer's own
 * Cursor login can never leak in), a HOME of the test's own, and an injected clock.
 */
export function testIo(options: RunOptions): TestIo {
  const env: Record<string, string> = { HOME: options.home, TZ: 'UTC' };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  // api2 follows the fake cursor.com unless the test names it, so no run ever reaches the real api2.
  if (env.CODEXBAR_CURSOR_BASE_URL && env.CODEXBAR_CURSOR_API2_BASE_URL === undefined) {
    env.CODEXBAR_CURSOR_API2_BASE_URL = env.CODEXBAR_CURSOR_BASE_URL;
  }
  const stdout = captureStream(options.stdoutTTY);
  const stderr = captureStream(options.stderrTTY ? {} : undefined);
  const startedAt = Date.now();
  const { now: start, frozen } = options;
  const now =
    typeof start === 'function'
      ? start
      : start === undefined
        ? () => new Date()
        : () => new Date(frozen ? start.getTime() : start.getTime() + (Date.now() - startedAt));
  const io: TestIo['io'] = {
    stdout,
    stderr,
    env,
    platform: options.platform ?? 'linux',
    homeDir: options.home,
    now,
    timing: { ...DEFAULT_TIMING, sleep: noSleep, ...options.timing },
    spawnRefresh: options.spawnRefresh ?? (() => undefined),
    stdin:
      options.stdin === undefined
        ? undefined
        : Readable.from(options.stdin ? [Buffer.from(options.stdin)] : []),
    clock: options.clock,
    serveHooks: options.serveHooks,
    proxyHooks: options.proxyHooks,
  };
  return { io, stdout: stdout.text, stderr: stderr.text };
}

/**
 * Runs the CLI in-process through `run(argv, io)`, as a user would run it, with the io of testIo: no process
 * is spawned and no test waits in real time. The one in-process runner: the scene's `run` and every
 * domain helper (cost, store, team, usage, browser) come here.
 */
export async function runCli(args: readonly string[], options: RunOptions): Promise<CliResult> {
  const { io, stdout, stderr } = testIo(options);
  const code = await run(args, io);
  return { code, stdout: stdout(), stderr: stderr() };
}

export interface SpawnResult extends CliResult {
  /** The signal that ended the process, if one did. */
  signal: NodeJS.Signals | null;
}

export interface SpawnOptions {
  home: string;
  env?: Record<string, string | undefined>;
  now?: Date;
  /** With `now`: the clock stands still, so two runs print byte-identical output (`updatedAt` included). */
  frozen?: boolean;
  /** Close the reading end of stdout at once, like `| head` that stops reading: writes then hit EPIPE. */
  closeStdout?: boolean;
  /** Leave HOME without the run's warm compile cache (test/helpers/compile-cache.ts): the cache's own tests. */
  coldCompileCache?: boolean;
  /**
   * Every write into a file fails (EFBIG), as on a full disk: the process runs under `ulimit -f 0`, with
   * SIGXFSZ ignored so the write returns its error instead of killing the process.
   */
  writesFail?: boolean;
  /** Another install's bin/codexbar.js (an install without its SQLite addon, say) instead of the worktree's. */
  bin?: string;
  /** The single executable (dist-sea/codexbar) instead of node and a bin script: it takes no node flags. */
  executable?: string;
}

/** Whether `npm run build` has produced the bundle bin/codexbar.js loads. */
export const builtCliExists = (): boolean => fs.existsSync(path.join(repoRoot, 'dist', 'cli.cjs'));

/**
 * Starts the BUILT CLI (`node bin/codexbar.js …`) in its own process: only for what the process itself does
 * (start-up, exit codes, signals, EPIPE). The environment holds only what the test passes plus PATH.
 */
export function startCli(
  args: readonly string[],
  options: SpawnOptions,
): { child: ChildProcess; result: Promise<SpawnResult> } {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: options.home, TZ: 'UTC' };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  // api2 follows the fake cursor.com unless the test names it, so no run ever reaches the real api2.
  if (env.CODEXBAR_CURSOR_BASE_URL && env.CODEXBAR_CURSOR_API2_BASE_URL === undefined) {
    env.CODEXBAR_CURSOR_API2_BASE_URL = env.CODEXBAR_CURSOR_BASE_URL;
  }
  const preload: string[] = [];
  if (options.now) {
    env.FAKE_NOW = options.now.toISOString();
    if (options.frozen) env.FAKE_NOW_FROZEN = '1';
    preload.push('--require', fixedNowPreload);
  }
  if (!options.coldCompileCache) seedCompileCache(options.home, options.bin);
  // An executable reads node flags only from NODE_OPTIONS.
  if (options.executable !== undefined && options.now)
    env.NODE_OPTIONS = `--require ${JSON.stringify(fixedNowPreload)}`;
  const argv =
    options.executable !== undefined
      ? [options.executable, ...args]
      : [process.execPath, ...preload, options.bin ?? binPath, ...args];
  const child = options.writesFail
    ? spawn('sh', ['-c', 'trap "" XFSZ; ulimit -f 0; exec "$@"', 'sh', ...argv], { env, cwd: options.home })
    : spawn(argv[0]!, argv.slice(1), { env, cwd: options.home });
  if (options.closeStdout) child.stdout.destroy();
  const result = outputOf(child);
  child.stdin.end();
  return { child, result };
}

/** What a child process wrote to its piped stdout and stderr, and how it ended. */
export function outputOf(child: ChildProcess): Promise<SpawnResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    if (child.stdout && !child.stdout.destroyed)
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
      });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Runs the BUILT CLI to the end (see startCli). */
export function spawnCli(args: readonly string[], options: SpawnOptions): Promise<SpawnResult> {
  return startCli(args, options).result;
}

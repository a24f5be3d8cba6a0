/**
 * `codexbar serve` in-process against the fake cursor.com, with a clock the test steps, plus a raw-socket
 * HTTP client so tests see exactly the bytes on the wire (duplicate headers, bad targets, no Host, …).
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { CliIo } from '../../src/cli/io.js';
import { type RunningServer, type ServeDeps, startServe } from '../../src/serve/server.js';
import { resolveServeSettings, type ServeFlags } from '../../src/serve/settings.js';
import { generateEvents } from '../fake-cursor/events.js';
import type { FakeAccount, FakeCursor, HandlerFunction } from '../fake-cursor/server.js';
import { proAccount } from './accounts.js';
import { type CliResult, type RunOptions, runCli, testIo } from './cli.js';
import { openScene } from './scene.js';

export { freePort } from './serve-process.js';

/** Mid-cycle for proAccount (15 Nov – 15 Dec 2026). */
export const SERVE_NOW = new Date('2026-11-20T12:00:00Z');
export const SESSION_VALUE = 'user_serve%3A%3Aserve-session';
export const SERVE_COOKIE = `WorkosCursorSessionToken=${SESSION_VALUE}`;
export const USAGE_SUMMARY = '/api/usage-summary';
export const EVENTS = '/api/dashboard/get-filtered-usage-events';

export class TestClock {
  constructor(private ms: number) {}
  now = (): number => this.ms;
  date = (): Date => new Date(this.ms);
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

/** A Pro account with usage and a few priced events in the 30 days before SERVE_NOW. */
export function serveAccount(cookies = [SESSION_VALUE], overrides: Partial<FakeAccount> = {}): FakeAccount {
  const events = generateEvents({
    count: 24,
    seed: 7,
    start: new Date(SERVE_NOW.getTime() - 20 * 86_400_000),
    end: new Date(SERVE_NOW.getTime() - 3_600_000),
  });
  return proAccount(cookies, 'dev@example.com', { events: { events }, ...overrides });
}

/** A handler held at a gate (closed at first) that the test opens and closes, so "still running" needs no sleep. */
export function gated(answer: HandlerFunction): {
  handler: HandlerFunction;
  open(): void;
  close(): void;
  waiting(): number;
} {
  let release: () => void = () => {};
  let gate: Promise<void> | undefined;
  let waiting = 0;
  const close = () => {
    gate = new Promise((resolve) => {
      release = resolve;
    });
  };
  close();
  return {
    handler: async (request, attempt) => {
      if (gate) {
        waiting++;
        await gate;
        waiting--;
      }
      return answer(request, attempt);
    },
    open() {
      release();
      gate = undefined;
    },
    close,
    waiting: () => waiting,
  };
}

export interface ServeHarnessOptions {
  accounts?: FakeAccount[];
  flags?: Partial<ServeFlags>;
  env?: Record<string, string | undefined>;
  deps?: Partial<Omit<ServeDeps, 'io' | 'version'>>;
  /** Written to ~/.config/codexbar/config.json before start. */
  config?: unknown;
  /** Where the server's clock starts (default SERVE_NOW). */
  now?: Date;
}

export interface ServeHarness {
  server: RunningServer;
  fake: FakeCursor;
  clock: TestClock;
  io: CliIo;
  home: string;
  configPath: string;
  /** Requests the fake got for `path`. */
  count(path: string): number;
  get(target: string, headers?: Record<string, string>): Promise<RawResponse>;
  /** The CLI in-process (runCli) in the server's own environment: same HOME, clock and fake. */
  run(argv: readonly string[]): Promise<CliResult>;
  close(): Promise<void>;
}

/**
 * The server module (`startServe`, for the deadlines and sources no flag reaches) in a scene of its own
 * (test/helpers/scene.ts), with the io runCli gives the CLI and a clock the test steps. Closed by its caller.
 */
export async function startServeHarness(options: ServeHarnessOptions = {}): Promise<ServeHarness> {
  const clock = new TestClock((options.now ?? SERVE_NOW).getTime());
  const scene = openScene();
  const fake = await scene.serve(options.accounts ?? [serveAccount()]);
  const configPath = path.join(scene.home, '.config', 'codexbar', 'config.json');
  if (options.config !== undefined) writeJson(configPath, options.config);
  const runOptions: RunOptions = {
    home: scene.home,
    now: clock.date,
    env: {
      CODEXBAR_CURSOR_BASE_URL: fake.url,
      CODEXBAR_CURSOR_COOKIE: options.config === undefined ? SERVE_COOKIE : undefined,
      ...options.env,
    },
  };
  const { io } = testIo(runOptions);
  const flags: ServeFlags = {
    host: '127.0.0.1',
    port: 0,
    refreshInterval: 60,
    requestTimeout: 30,
    ...options.flags,
  };
  const settings = resolveServeSettings(flags, io.env);
  const server = await startServe(settings, { io, version: '9.9.9', now: clock.now, ...options.deps });
  const host = flags.host === '0.0.0.0' ? '127.0.0.1' : flags.host;
  return {
    server,
    fake,
    clock,
    io,
    home: scene.home,
    configPath,
    count: (route) => fake.requests.filter((request) => request.path === route).length,
    get: (target, headers) => httpGet(host, server.port, target, headers),
    run: (argv) => runCli(argv, runOptions),
    async close() {
      await server.stop();
      await scene.close();
    },
  };
}

export function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value), { mode: 0o600 });
}

export interface RawResponse {
  status: number;
  /** Lower-case names; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: string;
  /** The whole answer as it came off the socket. */
  raw: string;
  json(): unknown;
}

/** Sends `request` verbatim and reads until the server closes the connection. */
export function rawRequest(host: string, port: number, request: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      resolve(parseResponse(raw));
    });
    socket.write(request);
  });
}

export function httpGet(
  host: string,
  port: number,
  target: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const all = { Host: `${host}:${port}`, ...headers };
  const lines = [
    `GET ${target} HTTP/1.1`,
    ...Object.entries(all).map(([name, value]) => `${name}: ${value}`),
  ];
  return rawRequest(host, port, `${lines.join('\r\n')}\r\n\r\n`);
}

function parseResponse(raw: string): RawResponse {
  const split = raw.indexOf('\r\n\r\n');
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split + 4);
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    status: Number(statusLine.split(' ')[1] ?? 0),
    headers,
    body,
    raw,
    json: () => JSON.parse(body),
  };
}

/**
 * Resolves once `check` holds, polling on the event loop (for background work the test cannot await). Bounded
 * by time, not by turns: on a loaded machine an idle loop spins through thousands of turns while a file read
 * or a socket is still on its way.
 */
export async function until(check: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const end = performance.now() + limitMs;
  while (!check()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

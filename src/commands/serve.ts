/**
 * `codexbar serve` (docs/invariants.md, "Servers safe by default"): CodexBar's local HTTP API and a dashboard
 * page. Start-up errors are JSON error rows on stdout before anything is bound; then the banner goes to
 * stderr and the server runs until SIGINT, SIGTERM or SIGHUP.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import pkg from '../../package.json' with { type: 'json' };
import { resolveBaseUrl } from '../api/base-url.js';
import type { CliIo } from '../cli/io.js';
import { type OutputMode, reportFailure } from '../cli/output.js';
import { createRequestLogger } from '../serve/log.js';
import { type RunningServer, startServe } from '../serve/server.js';
import { resolveServeSettings, type ServeFlags, type ServeSettings } from '../serve/settings.js';
import { limitHeapGrowth } from '../server/heap.js';
import { listenReason, stopRequested } from '../server/lifecycle.js';

/** `serve`'s start-up errors, commander's refusals included, are always JSON rows. */
export const jsonErrors = true;

const LOG_LEVELS = ['trace', 'verbose', 'debug', 'info', 'warning', 'error', 'critical'];

/** What tests inject when they run `serve` in-process (no real signals, short deadlines, their own clock). */
export interface ServeHooks {
  /** Aborting it stops the server; default: the first SIGINT, SIGTERM or SIGHUP. */
  stop?: AbortSignal;
  headDeadlineMs?: number;
  readIdleMs?: number;
  now?: () => number;
  onListening?: (server: RunningServer) => void;
}

export type ServeIo = CliIo & { serveHooks?: ServeHooks };

export function register(program: Command, io: ServeIo, setExitCode: (code: number) => void): void {
  program
    .command('serve')
    .description('a local HTTP API (/usage, /cost, /dashboard/v1/snapshot) and a live dashboard page')
    .addOption(
      new Option('--host <address>', "address to bind: 'localhost' or IPv4; non-loopback needs a token")
        .default('127.0.0.1')
        .argParser(parseServeHost),
    )
    .addOption(new Option('--port <port>', 'TCP port (1-65535)').default(8080).argParser(parsePort))
    .addOption(
      new Option('--refresh-interval <seconds>', 'serve cached answers this long; 0 turns the cache off')
        .default(60)
        .argParser(parseRefreshInterval),
    )
    .addOption(
      new Option('--request-timeout <seconds>', 'budget of one request; 0 means no deadline (max 86400)')
        .default(30)
        .argParser(parseRequestTimeout),
    )
    .option(
      '--dashboard-token <token>',
      'Bearer token for /dashboard/v1/snapshot and non-loopback binds (CODEXBAR_DASHBOARD_TOKEN wins; prefer it, argv is visible to other users)',
    )
    .option(
      '--allow-plain-http',
      'allow a non-loopback --host over cleartext HTTP (the token crosses the network)',
    )
    .addOption(
      new Option('--identity <mode>', 'identity in the dashboard snapshot').choices(['redacted', 'full']),
    )
    .option('-v, --verbose', 'log each request (method, path, status, time, cache state) to stderr')
    .addOption(new Option('--log-level <level>', 'log threshold').choices(LOG_LEVELS))
    .option('--json-output', 'log lines as JSON')
    .addHelpText(
      'after',
      [
        '',
        'Routes: GET /health, /usage, /cost, /metrics (Prometheus), /dashboard/v1/snapshot (Bearer), / (the page).',
        'A loopback bind needs no token for /usage, /cost and the page. Any other --host needs',
        'CODEXBAR_DASHBOARD_TOKEN (or --dashboard-token) and --allow-plain-http: it serves cleartext HTTP.',
        '',
        'Examples:',
        '  codexbar serve                                 http://127.0.0.1:8080, open in a browser',
        '  codexbar serve --port 9000 --refresh-interval 120 --request-timeout 45',
        '  CODEXBAR_DASHBOARD_TOKEN=… codexbar serve --host 0.0.0.0 --allow-plain-http',
      ].join('\n'),
    )
    .action(async (options: RawServeOptions) => setExitCode(await serveCommand(options, io)));
}

const START_UP_OUTPUT: OutputMode = { json: true, pretty: false, jsonOnly: false };

interface RawServeOptions extends ServeFlags {
  verbose?: boolean;
  logLevel?: string;
  jsonOutput?: boolean;
}

async function serveCommand(options: RawServeOptions, io: ServeIo): Promise<number> {
  const hooks = io.serveHooks ?? {};
  let settings: ServeSettings;
  try {
    settings = resolveServeSettings(options, io.env);
    // A refused base URL would fail every request; say so once, before binding.
    resolveBaseUrl(io.env.CODEXBAR_CURSOR_BASE_URL);
  } catch (error) {
    // `serve`'s start-up errors are always JSON rows.
    return reportFailure(io, error, START_UP_OUTPUT);
  }

  const verbose = options.verbose === true || ['trace', 'verbose', 'debug'].includes(options.logLevel ?? '');
  const log = verbose
    ? createRequestLogger({ stderr: io.stderr, json: options.jsonOutput === true, now: io.now })
    : undefined;
  let server: RunningServer;
  try {
    server = await startServe(settings, {
      io,
      version: pkg.version,
      now: hooks.now,
      headDeadlineMs: hooks.headDeadlineMs,
      readIdleMs: hooks.readIdleMs,
      log,
    });
  } catch (error) {
    const reason = new Error(`Could not listen on ${settings.host}:${settings.port}: ${listenReason(error)}`);
    return reportFailure(io, reason, START_UP_OUTPUT);
  }

  io.stderr.write(`CodexBar server listening on ${server.url}\n`);
  if (!settings.loopback) {
    io.stderr.write(
      `Warning: serving cleartext HTTP on non-loopback --host '${settings.host}': the dashboard token and your usage cross the network unencrypted.\n`,
    );
  }
  hooks.onListening?.(server);
  // Tests run serve inside their own process (with hooks); the real one owns its process.
  const stopHeapLimits = io.serveHooks === undefined ? limitHeapGrowth() : undefined;
  await stopRequested(hooks.stop);
  await server.stop();
  stopHeapLimits?.();
  return 0;
}

/**
 * commander argParsers for `serve`'s number and address flags. Each throws commander's InvalidArgumentError,
 * so commander names the flag and the value; the message is CodexBar's.
 */
const WHOLE = /^\s*\d+\s*$/;
/** Plain decimal seconds: `60`, `12.5`, `.5`, `1e3`. No sign, no `inf`, no `nan`, no hex. */
const DECIMAL = /^\s*(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
const DOTTED_QUAD = /^(?:0|[1-9]\d{0,2})(?:\.(?:0|[1-9]\d{0,2})){3}$/;

const MAX_REQUEST_TIMEOUT_SECONDS = 86_400;

export function parsePort(value: string): number {
  const port = WHOLE.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 1 && port <= 65_535)) throw new InvalidArgumentError('--port must be between 1 and 65535.');
  return port;
}

function finiteSeconds(value: string): number {
  const seconds = DECIMAL.test(value) ? Number(value) : Number.NaN;
  return Number.isFinite(seconds) ? seconds : Number.NaN;
}

/** Any finite value ≥ 0; 0 turns the response cache off. Not clamped (CodexBar accepts 86401). */
export function parseRefreshInterval(value: string): number {
  const seconds = finiteSeconds(value);
  if (Number.isNaN(seconds)) {
    throw new InvalidArgumentError('--refresh-interval must be a finite number of seconds, 0 or more.');
  }
  return seconds;
}

/** Finite and ≥ 0; 0 means no deadline; clamped to a day. */
export function parseRequestTimeout(value: string): number {
  const seconds = finiteSeconds(value);
  if (Number.isNaN(seconds)) {
    throw new InvalidArgumentError(
      '--request-timeout must be a finite number of seconds, 0 or more (0 means no deadline).',
    );
  }
  return Math.min(seconds, MAX_REQUEST_TIMEOUT_SECONDS);
}

/** `localhost` becomes 127.0.0.1; otherwise a dotted quad with parts 0–255 and no leading zeros. */
export function parseServeHost(value: string): string {
  const host = value.trim();
  if (host.toLowerCase() === 'localhost') return '127.0.0.1';
  if (DOTTED_QUAD.test(host) && host.split('.').every((part) => Number(part) <= 255)) return host;
  throw new InvalidArgumentError("--host must be 'localhost' or an IPv4 address.");
}

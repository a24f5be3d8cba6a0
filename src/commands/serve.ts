/**
 * `codexbar serve`: CodexBar's local HTTP API and a dashboard page (docs/behaviour.md §29). Start-up
 * errors are JSON error rows on stdout before anything is bound; then the banner goes to stderr and the
 * server runs until SIGINT, SIGTERM or SIGHUP. This file only declares the command; src/commands/serve-run.ts
 * runs it and is imported only then, so no other command loads the server (docs/architecture.md, Start-up).
 */
import { type Command, Option } from 'commander';
import type { CliIo } from '../cli/io.js';
import type { RunningServer } from '../serve/server.js';
import { parsePort, parseRefreshInterval, parseRequestTimeout, parseServeHost } from './serve-parsers.js';
import type { RawServeOptions } from './serve-run.js';

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

export function addServeCommand(program: Command, io: ServeIo, setExitCode: (code: number) => void): Command {
  return program
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
        'Routes: GET /health, /usage, /cost, /dashboard/v1/snapshot (Bearer), / (the dashboard page).',
        'A loopback bind needs no token for /usage, /cost and the page. Any other --host needs',
        'CODEXBAR_DASHBOARD_TOKEN (or --dashboard-token) and --allow-plain-http: it serves cleartext HTTP.',
        '',
        'Examples:',
        '  codexbar serve                                 http://127.0.0.1:8080, open in a browser',
        '  codexbar serve --port 9000 --refresh-interval 120 --request-timeout 45',
        '  CODEXBAR_DASHBOARD_TOKEN=… codexbar serve --host 0.0.0.0 --allow-plain-http',
      ].join('\n'),
    )
    .action(async (options: RawServeOptions) => {
      const { serveCommand } = await import('./serve-run.js');
      setExitCode(await serveCommand(options, io));
    });
}

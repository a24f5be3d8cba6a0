/**
 * Runs `codexbar serve` once commander has parsed its flags (docs/behaviour.md §29); src/commands/serve.ts
 * declares the command and imports this only when it runs.
 */
import pkg from '../../package.json' with { type: 'json' };
import { resolveBaseUrl } from '../api/base-url.js';
import { type OutputMode, reportFailure } from '../cli/output.js';
import { messageFor } from '../errors.js';
import { limitHeapGrowth } from '../serve/heap.js';
import { createRequestLogger } from '../serve/log.js';
import { type RunningServer, startServe } from '../serve/server.js';
import { resolveServeSettings, type ServeFlags, type ServeSettings } from '../serve/settings.js';
import type { ServeIo } from './serve.js';

const START_UP_OUTPUT: OutputMode = { json: true, pretty: false, jsonOnly: false };
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface RawServeOptions extends ServeFlags {
  verbose?: boolean;
  logLevel?: string;
  jsonOutput?: boolean;
}

export async function serveCommand(options: RawServeOptions, io: ServeIo): Promise<number> {
  const hooks = io.serveHooks ?? {};
  let settings: ServeSettings;
  try {
    settings = resolveServeSettings(options, io.env);
    // A refused base URL would fail every request; say so once, before binding.
    resolveBaseUrl(io.env.CODEXBAR_CURSOR_BASE_URL);
  } catch (error) {
    // docs/behaviour.md §29.1: serve's start-up errors are always JSON rows.
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

function listenReason(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? String(error.code) : undefined;
  if (code === 'EADDRINUSE') return 'the address is already in use.';
  if (code === 'EACCES') return 'permission denied.';
  if (code === 'EADDRNOTAVAIL') return 'the address is not available on this machine.';
  return messageFor(error);
}

/**
 * Resolves on the first stop signal. The handlers are removed at once, so a second Ctrl-C during a slow
 * shutdown gets the default behaviour and ends the process immediately.
 */
function stopRequested(stop: AbortSignal | undefined): Promise<void> {
  if (stop) {
    return stop.aborted
      ? Promise.resolve()
      : new Promise((resolve) => stop.addEventListener('abort', () => resolve(), { once: true }));
  }
  return new Promise((resolve) => {
    const onSignal = () => {
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
      resolve();
    };
    for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  });
}

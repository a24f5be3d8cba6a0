/**
 * `serve -v` request lines on stderr: method, path without its query, status, milliseconds and cache state.
 * Never a header, a query string or a token (docs/invariants.md, "Servers safe by default"): a client could
 * put a token in a query string, and the log must not keep it.
 */
import type { IncomingMessage } from 'node:http';
import type { OutputStream } from '../cli/io.js';
import type { ServeResponse } from './responses.js';

export type RequestLogger = (request: IncomingMessage, response: ServeResponse, startedAt: bigint) => void;

const MAX_PATH = 200;

export function createRequestLogger(options: {
  stderr: OutputStream;
  json: boolean;
  now: () => Date;
}): RequestLogger {
  return (request, response, startedAt) => {
    const ms = Math.round(Number(process.hrtime.bigint() - startedAt) / 1e6);
    const path = printablePath(request.url ?? '');
    const method = printable(request.method ?? '?').slice(0, 16);
    const cache = response.headers['X-CodexBar-Cache'];
    if (options.json) {
      const entry = {
        timestamp: options.now().toISOString(),
        level: 'info',
        label: 'serve',
        method,
        path,
        status: response.status,
        ms,
        cache,
      };
      options.stderr.write(`${JSON.stringify(entry)}\n`);
      return;
    }
    options.stderr.write(
      `[serve] ${method} ${path} ${response.status} ${ms}ms${cache ? ` cache=${cache}` : ''}\n`,
    );
  };
}

function printablePath(target: string): string {
  const origin = target.startsWith('/') ? target : originPath(target);
  const queryAt = origin.indexOf('?');
  const path = printable(queryAt === -1 ? origin : origin.slice(0, queryAt));
  return path.length > MAX_PATH ? `${path.slice(0, MAX_PATH)}…` : path;
}

/**
 * An absolute-form target (`GET http://user:password@host/usage`) is logged by its path alone: its
 * `user:password@` is a credential and its host is the client's to choose. Anything else is not a path.
 */
function originPath(target: string): string {
  try {
    return new URL(target).pathname;
  } catch {
    return '(not a path)';
  }
}

/** Control characters (C0, DEL and C1) would let a client forge log lines or drive the terminal. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { answerApi2, isApi2Path } from './api2.js';
import { createAggregatedHandler, createEventsHandler, isEventsScenario } from './events.js';
import type {
  EventsScenario,
  FakeAccount,
  FakeCursor,
  FakeCursorOptions,
  FakeResponse,
  HandlerFunction,
  RecordedRequest,
} from './types.js';

export type {
  FakeAccount,
  FakeCursor,
  FakeCursorOptions,
  FakeResponse,
  Handler,
  HandlerFunction,
  RecordedRequest,
  UsageEventJson,
} from './types.js';

type AccountEndpoint = Exclude<keyof FakeAccount, 'cookies' | 'bearers' | 'rpc'>;

/** Every route the CLI may call. */
const ROUTES: Record<string, { method: 'GET' | 'POST'; endpoint: AccountEndpoint }> = {
  '/api/usage-summary': { method: 'GET', endpoint: 'usageSummary' },
  '/api/auth/me': { method: 'GET', endpoint: 'me' },
  '/api/usage': { method: 'GET', endpoint: 'legacyUsage' },
  '/api/dashboard/get-sand-usage-status': { method: 'POST', endpoint: 'sand' },
  '/api/dashboard/get-filtered-usage-events': { method: 'POST', endpoint: 'events' },
  '/api/dashboard/get-aggregated-usage-events': { method: 'POST', endpoint: 'aggregated' },
  '/api/dashboard/teams': { method: 'POST', endpoint: 'teams' },
  '/api/dashboard/get-team-spend': { method: 'POST', endpoint: 'teamSpend' },
  '/api/dashboard/v2/usage-status': { method: 'GET', endpoint: 'usageStatus' },
};

/** Statuspage's API, served next to cursor.com's routes so one fake serves `usage --status` too. */
const STATUS_PAGE_PATH = '/api/v2/status.json';

const SESSION_COOKIE = 'WorkosCursorSessionToken';
const CURSOR_ORIGIN = 'https://cursor.com';

/** The first `WorkosCursorSessionToken` value of a `name=value; …` Cookie header, untouched. */
function sessionCookie(header: string | undefined): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === SESSION_COOKIE) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function parseBody(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function pageOf(body: unknown): string {
  const page = typeof body === 'object' && body !== null ? (body as { page?: unknown }).page : undefined;
  return page === undefined ? '' : String(page);
}

export function send(res: http.ServerResponse, response: FakeResponse): void {
  if (res.destroyed || res.writableEnded) return;
  if (response.destroy) {
    // A TCP reset, so clients see ECONNRESET rather than a clean end of stream.
    res.socket?.resetAndDestroy();
    return;
  }
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  for (const [name, value] of Object.entries(response.headers ?? {})) headers[name.toLowerCase()] = value;
  if (response.stream) {
    res.writeHead(response.status ?? 200, headers);
    void pump(res, response.stream);
    return;
  }
  const body = response.text ?? (response.json === undefined ? '' : JSON.stringify(response.json));
  headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(response.status ?? 200, headers);
  res.end(body);
}

/** A request as every fake records it: method, path, query, lower-case headers and the parsed body. */
export async function recordRequest(req: http.IncomingMessage): Promise<RecordedRequest> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: flattenHeaders(req.headers),
    body: parseBody(await readBody(req)),
  };
}

export interface LoopbackListener {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  close(): Promise<void>;
}

/** Listens on an ephemeral 127.0.0.1 port; close() runs `beforeClose` once and drops keep-alive sockets. */
export async function listenOnLoopback(
  server: http.Server,
  beforeClose?: () => void,
): Promise<LoopbackListener> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `${server instanceof https.Server ? 'https' : 'http'}://127.0.0.1:${port}`,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        beforeClose?.();
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets (and requests parked in a delay) would otherwise hold close() open.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** Writes a streamed body chunk by chunk, waiting for the client to drain, until done or the client leaves. */
async function pump(res: http.ServerResponse, stream: { chunk: string; bytes?: number }): Promise<void> {
  const chunk = Buffer.from(stream.chunk);
  let left = stream.bytes ?? Number.POSITIVE_INFINITY;
  while (left > 0 && !res.destroyed) {
    const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
    left -= piece.length;
    if (!res.write(piece)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  if (!res.destroyed) res.end();
}

/** A loopback cursor.com for tests, the demo and benchmarks (test/fake-cursor/types.ts has the shapes). */
export async function startFakeCursor(options: FakeCursorOptions): Promise<FakeCursor> {
  const { accounts } = options;
  const requests: RecordedRequest[] = [];
  const attempts = new Map<string, number>();
  const eventHandlers = new WeakMap<EventsScenario, HandlerFunction>();
  const timers = new Set<NodeJS.Timeout>();
  let latencyMs = options.latencyMs ?? 0;

  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      if (ms <= 0) return resolve();
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const handlerFor = (account: FakeAccount, endpoint: AccountEndpoint): HandlerFunction | undefined => {
    const handler = account[endpoint];
    if (endpoint === 'aggregated' && handler === undefined && isEventsScenario(account.events)) {
      return createAggregatedHandler(account.events);
    }
    if (handler === undefined) return undefined;
    if (typeof handler === 'function') return handler;
    if (isEventsScenario(handler)) {
      let events = eventHandlers.get(handler);
      if (!events) {
        events = createEventsHandler(handler);
        eventHandlers.set(handler, events);
      }
      return events;
    }
    return () => handler;
  };

  const answer = async (req: http.IncomingMessage, recorded: RecordedRequest): Promise<FakeResponse> => {
    if (recorded.path === STATUS_PAGE_PATH) {
      const handler = options.statusPage;
      if (handler === undefined) return { status: 404, json: { error: 'not_found' } };
      return typeof handler === 'function' ? handler(recorded, 0) : handler;
    }
    if (isApi2Path(recorded.path)) {
      return answerApi2(recorded, accounts, options, (key) => {
        const attempt = attempts.get(`api2|${key}`) ?? 0;
        attempts.set(`api2|${key}`, attempt + 1);
        return attempt;
      });
    }
    const route = ROUTES[recorded.path];
    if (!route) return { status: 404, json: { error: 'not_found' } };
    // A Bearer token belongs to api2 only (test/fake-cursor/api2.ts).
    if (recorded.headers.authorization !== undefined) {
      return { status: 400, json: { error: 'an Authorization header was sent to cursor.com' } };
    }
    if (req.method !== route.method) return { status: 405, json: { error: 'method_not_allowed' } };
    // docs/invariants.md, "Credentials only to their own server, over HTTPS": POSTs need the Origin header
    // (CSRF), checked before the session.
    if (route.method === 'POST' && recorded.headers.origin !== CURSOR_ORIGIN) {
      return { status: 403, json: { error: 'Invalid origin for state-changing request' } };
    }
    const account = recorded.accountIndex === undefined ? undefined : accounts[recorded.accountIndex];
    if (!account) return { status: 401, json: { error: 'not_authenticated' } };
    const handler = handlerFor(account, route.endpoint);
    if (!handler) return { status: 404, json: {} };
    const key = `${recorded.accountIndex}|${route.endpoint}|${pageOf(recorded.body)}`;
    const attempt = attempts.get(key) ?? 0;
    attempts.set(key, attempt + 1);
    return handler(recorded, attempt);
  };

  const handle: http.RequestListener = (req, res) => {
    void (async () => {
      let response: FakeResponse;
      try {
        const recorded = await recordRequest(req);
        const cookie = sessionCookie(recorded.headers.cookie);
        const index = cookie === undefined ? -1 : accounts.findIndex((a) => a.cookies.includes(cookie));
        if (index >= 0) recorded.accountIndex = index;
        // Recorded before any delay, so a test can count requests that the client gave up on.
        requests.push(recorded);
        response = await answer(req, recorded);
      } catch (error) {
        response = { status: 500, text: `fake cursor.com handler failed: ${String(error)}` };
      }
      await wait(latencyMs + (response.delayMs ?? 0));
      send(res, response);
    })();
  };
  const server = options.tls ? https.createServer(options.tls, handle) : http.createServer(handle);

  const listener = await listenOnLoopback(server, () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  });
  return {
    url: listener.url,
    requests,
    setLatency(ms: number) {
      latencyMs = ms;
    },
    close: listener.close,
  };
}

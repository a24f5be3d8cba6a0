/**
 * A running `codexbar proxy` (docs/proxy.md): Node's http or https server, bounded like `serve`'s
 * (src/server/head-gate.ts for heads; a body cap and deadline here), the routes, authentication before any
 * byte of a body is read, the stream slots, and one ledger row per answered chat or responses request.
 *
 * A connection carries one request after another (HTTP keep-alive, up to MAX_REQUESTS_PER_SOCKET, idle for
 * at most KEEP_ALIVE_MS), as a client of the provider would have: a new connection per request cost more
 * than the proxy's own work (bench/README.md, "proxy"). Every answer of the proxy's own (401, 404, 413, …)
 * closes its connection, so a client that is refused holds nothing, and a request body left unread is never
 * parsed as a request. A proxied answer does not say `Connection: close`, so an answer cut short is always
 * an error to its client (src/proxy/forward.ts, cutShort).
 */
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { Dispatcher } from 'undici';
import { orAfter } from '../server/deadline.js';
import { gateHeads, type HeadGateOptions, headBackstopMs } from '../server/head-gate.js';
import { forward, SHUTDOWN, sendError } from './forward.js';
import type { Ledger, LedgerOutcome, LedgerRoute } from './ledger.js';
import { type ProxyRequestInfo, readProxyRequest } from './request-body.js';
import type { ProxySettings } from './settings.js';
import { Slots } from './slots.js';
import { bearerCredential, type ProxyTokenCheck } from './tokens.js';
import type { RequestUsage } from './usage.js';

/** Cursor's request heads carry Cloudflare's headers; 32 KiB leaves room and still bounds them. */
const MAX_HEAD_BYTES = 32 * 1024;
const BODY_DEADLINE_MS = 60_000;
/** An idle connection between two requests is closed after this. */
const KEEP_ALIVE_MS = 5_000;
const MAX_REQUESTS_PER_SOCKET = 1_000;
/** How long a request waits for a stream slot before it is refused with 503. */
const SLOT_WAIT_MS = 30_000;

type Route = LedgerRoute | 'models' | 'health';

export interface ProxyLine {
  method: string;
  route: Route;
  model?: string;
  status: number;
  outcome?: LedgerOutcome;
  stream?: boolean;
  usage?: RequestUsage;
  durationMs: number;
}

export interface ProxyDeps extends HeadGateOptions {
  ledger: Ledger;
  /** In token mode, the proxy tokens; absent under --pass-key. */
  tokens?: ProxyTokenCheck;
  dispatcher: Dispatcher;
  /** The certificate and key, read by the command (src/commands/proxy.ts). */
  tls?: { cert: Buffer; key: Buffer };
  /** Wall clock in ms for the rows (default Date.now). */
  now?: () => number;
  bodyDeadlineMs?: number;
  /** One line per request (`--verbose`). */
  onRequest?: (line: ProxyLine) => void;
}

export interface RunningProxy {
  url: string;
  port: number;
  /** Requests being answered. */
  inFlight(): number;
  /** Stops accepting; answers in flight get `shutdownGraceMs`, then are cut (and recorded as partial). */
  stop(): Promise<void>;
}

function routeOf(method: string, target: string): Route | 404 | 405 {
  if (!target.startsWith('/')) return 404;
  const queryAt = target.indexOf('?');
  let path = queryAt === -1 ? target : target.slice(0, queryAt);
  if (path.startsWith('/v1/')) path = path.slice(3);
  const routes: Record<string, [Route, string]> = {
    '/chat/completions': ['chat', 'POST'],
    '/responses': ['responses', 'POST'],
    '/models': ['models', 'GET'],
    '/health': ['health', 'GET'],
  };
  const found = routes[path.replace(/\/+$/, '')];
  if (!found) return 404;
  return found[1] === method || (found[1] === 'GET' && method === 'HEAD') ? found[0] : 405;
}

const ROUTE_PATHS: Record<LedgerRoute | 'models', string> = {
  chat: '/chat/completions',
  responses: '/responses',
  models: '/models',
};

type BodyRead = { ok: true; body: Buffer } | { ok: false; reason: 'too-large' | 'timeout' | 'aborted' };

/** The whole body, at most `limit` bytes (a Content-Length past it is refused before any byte is read). */
function readBody(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  limit: number,
  deadlineMs: number,
): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit)
    return Promise.resolve({ ok: false, reason: 'too-large' });
  if (/^\s*100-continue\s*$/i.test(req.headers.expect ?? '')) res.writeContinue();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyRead) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('error', onAborted);
      if (!result.ok) req.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish({ ok: false, reason: 'too-large' });
      else chunks.push(chunk);
    };
    const onEnd = () => finish({ ok: true, body: Buffer.concat(chunks, size) });
    const onAborted = () => finish({ ok: false, reason: 'aborted' });
    const timer = setTimeout(() => finish({ ok: false, reason: 'timeout' }), deadlineMs);
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('aborted', onAborted);
    req.once('error', onAborted);
  });
}

export async function startProxy(settings: ProxySettings, deps: ProxyDeps): Promise<RunningProxy> {
  const now = deps.now ?? Date.now;
  const bodyDeadlineMs = deps.bodyDeadlineMs ?? BODY_DEADLINE_MS;
  const backstopMs = Math.max(headBackstopMs(deps), bodyDeadlineMs + 1000);
  const serverOptions: http.ServerOptions = {
    maxHeaderSize: MAX_HEAD_BYTES,
    headersTimeout: headBackstopMs(deps),
    requestTimeout: backstopMs,
    connectionsCheckingInterval: 1000,
    keepAliveTimeout: KEEP_ALIVE_MS,
    requireHostHeader: false,
    joinDuplicateHeaders: false,
  };
  const server = deps.tls
    ? https.createServer({ ...serverOptions, ...deps.tls, handshakeTimeout: deps.headDeadlineMs ?? 10_000 })
    : http.createServer(serverOptions);
  server.maxRequestsPerSocket = MAX_REQUESTS_PER_SOCKET;
  const heads = gateHeads(server, deps, deps.tls ? 'secureConnection' : 'connection');
  const slots = new Slots(settings.maxStreams, settings.maxStreams * 4, SLOT_WAIT_MS);
  const upstream = new URL(settings.upstream.base);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const inFlight = new Set<Promise<void>>();
  const shutdown = new AbortController();

  const authorizationFor = async (header: string | undefined): Promise<string | undefined> => {
    if (settings.auth.mode === 'pass-key') {
      const credential = bearerCredential(header);
      return credential === undefined ? undefined : `Bearer ${credential}`;
    }
    return (await deps.tokens?.authorized(header)) ? `Bearer ${settings.auth.upstreamKey}` : undefined;
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const startedAt = now();
    const clock = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - clock) / 1e6;
    const method = req.method ?? 'GET';
    const route = routeOf(method, req.url ?? '');
    const line = (fields: Omit<ProxyLine, 'method' | 'durationMs'>) =>
      deps.onRequest?.({ method, durationMs: elapsed(), ...fields });

    if (route === 404 || route === 405) {
      sendError(res, route, route === 404 ? 'Not found.' : 'Method not allowed.');
      return;
    }
    if (route === 'health') {
      const body = '{"status":"ok"}';
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(body.length),
        connection: 'close',
      });
      res.end(method === 'HEAD' ? undefined : body);
      return;
    }
    const authorization = await authorizationFor(req.headers.authorization);
    if (authorization === undefined) {
      // No upstream request, and no body read: an unauthenticated client costs its head and nothing more.
      sendError(res, 401, 'A valid proxy token is required (Authorization: Bearer …).', {
        'www-authenticate': 'Bearer',
      });
      line({ route, status: 401 });
      return;
    }

    const client = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) client.abort();
    };
    res.once('close', onClose);
    const abortOnShutdown = () => client.abort(SHUTDOWN);
    shutdown.signal.addEventListener('abort', abortOnShutdown, { once: true });
    try {
      if (route === 'models') {
        const result = await forward({
          dispatcher: deps.dispatcher,
          origin: upstream.origin,
          path: `${basePath}${ROUTE_PATHS.models}`,
          method: 'GET',
          clientHeaders: req.headers,
          authorization,
          stripUsage: false,
          headersTimeoutMs: settings.upstreamTimeoutMs,
          idleTimeoutMs: settings.idleTimeoutMs,
          res,
          signal: client.signal,
        });
        line({ route, status: result.status });
        return;
      }
      await exchange(req, res, route, authorization, client.signal, startedAt, line);
    } finally {
      res.off('close', onClose);
      shutdown.signal.removeEventListener('abort', abortOnShutdown);
    }
  };

  const exchange = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    route: LedgerRoute,
    authorization: string,
    signal: AbortSignal,
    startedAt: number,
    line: (fields: Omit<ProxyLine, 'method' | 'durationMs'>) => void,
  ): Promise<void> => {
    const record = (
      info: ProxyRequestInfo | undefined,
      status: number,
      outcome: LedgerOutcome,
      usage?: RequestUsage,
    ) => {
      const model = info?.model ?? usage?.responseModel;
      deps.ledger.record({
        startedAt,
        durationMs: now() - startedAt,
        upstreamHost: settings.upstream.host,
        route,
        ...(model !== undefined ? { model } : {}),
        stream: info?.stream ?? false,
        status,
        outcome,
        ...(usage ? { usage } : {}),
        ...(info?.conversation !== undefined ? { conversation: info.conversation } : {}),
      });
      line({ route, model, status, outcome, stream: info?.stream, usage });
    };

    const read = await readBody(req, res, settings.maxBodyBytes, bodyDeadlineMs);
    if (!read.ok) {
      if (read.reason === 'too-large') {
        sendError(res, 413, `The request body is over ${settings.maxBodyBytes} bytes.`);
        record(undefined, 413, 'body-too-large');
      } else if (read.reason === 'timeout') {
        sendError(res, 408, 'The request body did not arrive in time.');
      } else {
        res.destroy();
      }
      return;
    }
    const info = readProxyRequest(route, read.body);
    const slot = await slots.acquire(signal);
    if (typeof slot === 'string') {
      if (slot === 'aborted') {
        record(info, 499, signal.reason === SHUTDOWN ? 'shutdown' : 'client-aborted');
        return;
      }
      sendError(res, 503, 'codexbar proxy has too many answers in flight; try again.', {
        'retry-after': '1',
      });
      record(info, 503, 'proxy-busy');
      return;
    }
    try {
      const result = await forward({
        dispatcher: deps.dispatcher,
        origin: upstream.origin,
        path: `${basePath}${ROUTE_PATHS[route]}`,
        method: 'POST',
        clientHeaders: req.headers,
        authorization,
        body: info.upstreamBody,
        stripUsage: info.addedIncludeUsage,
        headersTimeoutMs: settings.upstreamTimeoutMs,
        idleTimeoutMs: settings.idleTimeoutMs,
        res,
        signal,
      });
      record(info, result.status, result.outcome, result.usage);
    } finally {
      slot();
    }
  };

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    heads.release(req.socket);
    const done: Promise<void> = handle(req, res)
      .catch(() => sendError(res, 500, 'internal error'))
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  };
  server.on('request', onRequest);
  // `Expect: 100-continue` is met only once the request is authenticated and its size accepted (readBody).
  server.on('checkContinue', onRequest);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const waitingForHead = heads.release(socket);
    if (waitingForHead && socket.writable && error.code?.startsWith('HPE_')) {
      const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
      socket.end(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: settings.host, port: settings.port, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // After start-up, an accept error (EMFILE, …) must not take the server down.
  server.on('error', () => {});
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;

  let stopping: Promise<void> | undefined;
  return {
    url: `${deps.tls ? 'https' : 'http'}://${settings.host}:${port}`,
    port,
    inFlight: () => inFlight.size,
    stop() {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        heads.dropAll();
        const settled = () => Promise.all([...inFlight]).then(() => undefined);
        await orAfter(settled(), settings.shutdownGraceMs, () => undefined);
        // What is still streaming is cut (a reset: src/proxy/forward.ts, cutShort), and records its partial
        // row; then whatever is left, a body still arriving, goes with its connection.
        shutdown.abort();
        await orAfter(settled(), 1_000, () => undefined);
        server.closeAllConnections();
        await orAfter(settled(), 5_000, () => undefined);
        await closed;
        deps.ledger.flush();
      })();
      return stopping;
    },
  };
}

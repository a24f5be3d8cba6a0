/**
 * The socket side of `serve`, on Node's own `http` server: it enforces the 16 KiB head limit in its parser
 * (`maxHeaderSize`), needs no dependency, and hands us each socket on accept so we can hold it to our own
 * head deadline (src/server/head-gate.ts; docs/invariants.md, "Every read is bounded").
 *
 * One request per connection: every answer closes it, so once a head is in the socket stops reading, and
 * a request pipelined behind it (which Node's parser dispatches from the bytes it already holds) is never
 * run, answered or logged.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { orAfter } from '../server/deadline.js';
import { gateHeads, type HeadGateOptions, headBackstopMs } from '../server/head-gate.js';
import { rawInvalidRequest, type ServeResponse, serverError } from './responses.js';

export const MAX_HEAD_BYTES = 16 * 1024;

export interface ListenerOptions extends HeadGateOptions {
  host: string;
  port: number;
  handle(request: http.IncomingMessage): Promise<ServeResponse>;
  /** After each answer (for request logging). */
  onResponse?(request: http.IncomingMessage, response: ServeResponse, startedAt: bigint): void;
}

export interface Listener {
  /** The bound port (useful with port 0 in tests). */
  port: number;
  /** Sockets accepted whose request head has not arrived yet. */
  pendingHeads(): number;
  /** Requests being answered. */
  inFlight(): number;
  /** Stops accepting, closes head-pending sockets, lets requests in flight finish for at most `graceMs`. */
  close(graceMs: number): Promise<void>;
}

export async function listen(options: ListenerOptions): Promise<Listener> {
  const backstopMs = headBackstopMs(options);
  const server = http.createServer({
    maxHeaderSize: MAX_HEAD_BYTES,
    headersTimeout: backstopMs,
    requestTimeout: backstopMs,
    connectionsCheckingInterval: 1000,
    keepAlive: false,
    requireHostHeader: false,
    joinDuplicateHeaders: false,
  });
  const heads = gateHeads(server, options);
  const answered = new WeakSet<Socket>();
  const inFlight = new Set<Promise<void>>();

  const answer = (request: http.IncomingMessage, write: (response: ServeResponse) => void): void => {
    const { socket } = request;
    if (answered.has(socket)) return;
    // Node's parser resumes the socket after each message it parses: keep this one paused.
    socket.pause();
    socket.on('resume', () => socket.pause());
    heads.release(socket);
    answered.add(socket);
    const { onResponse } = options;
    const startedAt = onResponse ? process.hrtime.bigint() : 0n;
    const done = options
      .handle(request)
      .catch(() => serverError('internal error'))
      .then((response) => {
        write(response);
        onResponse?.(request, response, startedAt);
      })
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  };

  const onRequest = (request: http.IncomingMessage, res: http.ServerResponse): void => {
    answer(request, (response) => writeResponse(res, response));
  };
  server.on('request', onRequest);
  // Every `Expect:` is judged by the head checks (417 for one we cannot meet) and answered like any other
  // request. `100-continue` gets no interim 100: serve reads no body, so the final answer comes at once.
  server.on('checkContinue', onRequest);
  server.on('checkExpectation', onRequest);
  // CONNECT never reaches 'request'; it still gets a proper answer (400 or 405) from the same pipeline.
  server.on('connect', (request: http.IncomingMessage, socket: Socket) => {
    answer(request, (response) => {
      if (socket.writable) socket.end(serializeResponse(response));
    });
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const waitingForHead = heads.release(socket);
    // A parse error after a request was dispatched (pipelined junk) must not corrupt the answer in
    // progress; that socket closes after its answer anyway.
    if (answered.has(socket)) return;
    if (waitingForHead && socket.writable && error.code?.startsWith('HPE_')) {
      socket.end(rawInvalidRequest());
      return;
    }
    socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: options.host, port: options.port, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // After start-up, an accept error (EMFILE, …) must not take the server down.
  server.on('error', () => {});
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;

  return {
    port,
    pendingHeads: () => heads.pending(),
    inFlight: () => inFlight.size,
    async close(graceMs) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      heads.dropAll();
      // Every answer closes its connection, so `closed` settles once the last answer is flushed.
      await orAfter(closed, graceMs, () => undefined);
      server.closeAllConnections();
      await closed;
    },
  };
}

function finalHeaders(response: ServeResponse): Record<string, string> {
  return {
    ...response.headers,
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': String(response.body.length),
    Connection: 'close',
  };
}

function writeResponse(res: http.ServerResponse, response: ServeResponse): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(response.status, finalHeaders(response));
  res.end(response.body);
}

function serializeResponse(response: ServeResponse): Buffer {
  const lines = [`HTTP/1.1 ${response.status} ${http.STATUS_CODES[response.status] ?? ''}`];
  for (const [name, value] of Object.entries(finalHeaders(response))) lines.push(`${name}: ${value}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), response.body]);
}

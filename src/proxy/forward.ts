/**
 * One request upstream and its answer back (docs/proxy.md, "How a request passes"). The upstream is the
 * configured one: the client chooses nothing but the route. Redirects are never followed (undici's
 * `request` follows none) and never passed on either: a 3xx becomes a 502, so a client cannot be sent
 * anywhere with its credentials. The answer streams to the client chunk by chunk as it arrives; a copy goes
 * to the usage reader (src/proxy/stream-tap.ts for SSE, a bounded copy for a JSON body). An answer cut
 * short upstream is cut short downstream too (the socket is destroyed), so a client never takes a partial
 * answer for a whole one.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { sendRequest } from '../api/transport.js';
import type { LedgerOutcome } from './ledger.js';
import { createStreamTap } from './stream-tap.js';
import { type RequestUsage, UsageReader } from './usage.js';

/** A JSON answer is copied for its usage up to this size; past it the usage is unknown. */
const MAX_JSON_COPY_BYTES = 32 * 1024 * 1024;

/** Request headers passed upstream: what a provider reads. Everything else (cookies, Cf-*, forwarding
 * headers, the client's Authorization in token mode) stays here. */
const FORWARDED_REQUEST_HEADERS = [
  'content-type',
  'accept',
  'user-agent',
  'openai-beta',
  'openai-organization',
  'openai-project',
  'idempotency-key',
  'http-referer',
  'x-title',
  'anthropic-version',
  'anthropic-beta',
];

/** Hop-by-hop headers (RFC 9110 §7.6.1) and what this proxy sets itself. */
const DROPPED_RESPONSE_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  'set-cookie',
]);

export interface ForwardRequest {
  dispatcher: Dispatcher;
  /** `https://api.openai.com` */
  origin: string;
  /** `/v1/chat/completions`: the upstream's base path and the route. */
  path: string;
  method: 'GET' | 'POST';
  clientHeaders: IncomingHttpHeaders;
  /** `Bearer …`: the provider key, or the client's own under --pass-key. */
  authorization: string;
  body?: Buffer;
  /** Remove the usage frame the proxy asked for (src/proxy/request-body.ts). */
  stripUsage: boolean;
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  res: ServerResponse;
  /** Aborts when the client goes away (or at shutdown). */
  signal: AbortSignal;
}

/** The abort reason of a request cut at shutdown, so its row says so rather than blame its client. */
export const SHUTDOWN = new Error('codexbar proxy is shutting down');

function abortedOutcome(signal: AbortSignal): LedgerOutcome {
  return signal.reason === SHUTDOWN ? 'shutdown' : 'client-aborted';
}

export interface ForwardResult {
  status: number;
  outcome: LedgerOutcome;
  usage?: RequestUsage;
}

export async function forward(request: ForwardRequest): Promise<ForwardResult> {
  const { res, signal } = request;
  let answer: Dispatcher.ResponseData;
  try {
    answer = await sendRequest(request.dispatcher, {
      origin: request.origin,
      path: request.path,
      method: request.method,
      headers: upstreamHeaders(request),
      body: request.body,
      signal,
      headersTimeout: request.headersTimeoutMs,
      bodyTimeout: request.idleTimeoutMs,
    });
  } catch (error) {
    if (signal.aborted) return { status: 499, outcome: abortedOutcome(signal) };
    if (errorCode(error) === 'UND_ERR_HEADERS_TIMEOUT') {
      sendError(res, 504, 'The upstream did not answer in time.');
      return { status: 504, outcome: 'upstream-timeout' };
    }
    sendError(res, 502, 'The upstream could not be reached.');
    return { status: 502, outcome: 'upstream-unreachable' };
  }

  if (answer.statusCode >= 300 && answer.statusCode < 400) {
    // Read to its end (it is small), not destroyed: a destroyed unread body emits an error nobody hears.
    await answer.body.dump().catch(() => undefined);
    sendError(res, 502, 'The upstream answered with a redirect, which codexbar proxy does not follow.');
    return { status: 502, outcome: 'upstream-redirect' };
  }

  const contentType = String(answer.headers['content-type'] ?? '');
  const sse = contentType.toLowerCase().includes('text/event-stream');
  res.writeHead(answer.statusCode, responseHeaders(answer.headers, sse && request.stripUsage));
  res.flushHeaders();
  const tap = sse ? createStreamTap({ strip: request.stripUsage }) : undefined;
  const copy = sse ? undefined : new BodyCopy(MAX_JSON_COPY_BYTES);
  const usage = () => {
    if (tap) return tap.reader.usage();
    const reader = new UsageReader();
    const text = copy?.text();
    if (text !== undefined) reader.readBody(text);
    return reader.usage();
  };

  try {
    for await (const chunk of answer.body as AsyncIterable<Buffer>) {
      const out = tap ? tap.push(chunk) : chunk;
      copy?.add(chunk);
      if (out.length > 0 && !res.write(out)) await drained(res, signal);
    }
    const rest = tap?.end();
    if (rest && rest.length > 0) res.write(rest);
  } catch (error) {
    cutShort(res);
    const outcome: LedgerOutcome = signal.aborted
      ? abortedOutcome(signal)
      : errorCode(error) === 'UND_ERR_BODY_TIMEOUT'
        ? 'upstream-timeout'
        : 'upstream-cut';
    return { status: answer.statusCode, outcome, usage: usage() };
  }
  const ended = await endResponse(res);
  return { status: answer.statusCode, outcome: ended ? 'completed' : 'client-aborted', usage: usage() };
}

function upstreamHeaders(request: ForwardRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.clientHeaders[name];
    if (typeof value === 'string') headers[name] = value;
  }
  headers.authorization = request.authorization;
  // The copy must be readable: an encoded answer would pass, but its usage would be lost.
  headers['accept-encoding'] = 'identity';
  if (request.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(request.body.length);
  }
  return headers;
}

function responseHeaders(
  upstream: Dispatcher.ResponseData['headers'],
  stripping: boolean,
): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(upstream)) {
    if (value === undefined || DROPPED_RESPONSE_HEADERS.has(name)) continue;
    headers[name] = value;
  }
  // Stripping changes the length; otherwise the body is the upstream's, byte for byte, and so is its length.
  const length = upstream['content-length'];
  if (!stripping && typeof length === 'string') headers['content-length'] = length;
  return headers;
}

/**
 * Ends an answer that did not end upstream so that no client can take it for whole: a TCP reset, not a
 * close (a chunked body without its last chunk, closed cleanly, is accepted as complete by some clients
 * when the answer said `Connection: close`). A TLS socket has no reset to send: it is destroyed.
 */
function cutShort(res: ServerResponse): void {
  const socket = res.socket;
  try {
    if (socket && !socket.destroyed) {
      socket.resetAndDestroy();
      return;
    }
  } catch {
    // ERR_INVALID_HANDLE_TYPE on a TLS socket.
  }
  res.destroy();
}

/** Resolves when the client can take more, or when it went away. */
function drained(res: ServerResponse, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    res.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Ends the answer; true once every byte was handed to the socket, false when the client went first. */
function endResponse(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    if (res.destroyed) {
      resolve(false);
      return;
    }
    res.once('close', () => resolve(res.writableFinished));
    res.end();
  });
}

/** An OpenAI-style error answer from the proxy itself. */
export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  extra: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: { message, type: 'codexbar_proxy_error', code: status } });
  res.writeHead(status, {
    ...extra,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'x-content-type-options': 'nosniff',
    connection: 'close',
  });
  res.end(body);
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The bytes of a JSON answer, kept up to a limit. */
class BodyCopy {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private overflow = false;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    if (this.overflow) return;
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.overflow = true;
      this.chunks.length = 0;
      return;
    }
    this.chunks.push(chunk);
  }

  text(): string | undefined {
    return this.overflow ? undefined : Buffer.concat(this.chunks).toString('utf8');
  }
}

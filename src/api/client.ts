import { isAscii } from 'node:buffer';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { ApiError, NotLoggedInError, ParseError, TimeoutError } from '../errors.js';
import { redact } from '../lib/redact.js';
import { CURSOR_ORIGIN } from './base-url.js';
import { cookieHeaderProblem } from './header-value.js';
import {
  BodyTooLargeError,
  type BufferedResponse,
  createDispatcher,
  type ProxySettings,
  proxySettings,
  requestBuffered,
} from './transport.js';

export interface CursorRequest<T> {
  method: 'GET' | 'POST';
  /** Path with query, e.g. `/api/usage?user=auth0%7C1`. */
  path: string;
  /** Label used in errors and verbose lines, e.g. `GET /api/usage-summary`. */
  endpoint: string;
  cookieHeader: string;
  body?: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  schema: z.ZodType<T>;
  /**
   * A faster decoder of the raw body for this endpoint; undefined from it means "use the schema" (which also
   * words every error). It must give exactly what the schema gives.
   */
  decodeBytes?: (bytes: Buffer) => T | undefined;
  /** Statuses that mean "not logged in" (docs/invariants.md, "Only a rejection switches credentials"). */
  notLoggedInStatuses?: readonly number[];
  /** Largest body accepted (docs/invariants.md, "Every read is bounded"); default SMALL_RESPONSE_LIMIT. */
  maxBytes?: number;
}

/**
 * The signal that aborts when a request's budget of `ms` has passed: `AbortSignal.timeout` unless a test
 * says when, so that one request's budget can run out while the others' cannot.
 */
export type RequestTimer = (ms: number, endpoint: string) => AbortSignal;

/** A JSON answer of the small endpoints: far above any real one, far below what could hurt. */
export const SMALL_RESPONSE_LIMIT = 2 * 1024 * 1024;
/** One page of 1000 usage events. */
export const EVENTS_PAGE_LIMIT = 64 * 1024 * 1024;

const MAX_REDIRECTS = 5;
const RAW_EXCERPT = 200;
/** How much of a body is redacted before the excerpt is cut from it: far more than any credential. */
const REDACTED_PREFIX = 64 * 1024;

/**
 * The one cursor.com client: a single keep-alive dispatcher that honours HTTP(S)_PROXY/NO_PROXY, no cookie
 * jar (each request carries exactly the chosen session's Cookie header), same-origin https redirects only
 * (docs/invariants.md, "Credentials only to their own server, over HTTPS"), and typed errors that name the
 * endpoint. It never retries: only cost pages do (lib/retry.ts).
 */
export class CursorClient {
  readonly baseUrl: string;
  private readonly dispatcher: Dispatcher;
  private readonly timer: RequestTimer;

  constructor(options: {
    baseUrl: string;
    proxy?: ProxySettings;
    dispatcher?: Dispatcher;
    timer?: RequestTimer;
  }) {
    this.baseUrl = options.baseUrl;
    this.dispatcher = options.dispatcher ?? createDispatcher(options.proxy ?? proxySettings({}));
    this.timer = options.timer ?? ((ms) => AbortSignal.timeout(ms));
  }

  async request<T>(req: CursorRequest<T>): Promise<T> {
    const timeout = this.timer(req.timeoutMs, req.endpoint);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    // Sources refuse such values first; this keeps a bad one from ever going out.
    const refused = cookieHeaderProblem(req.cookieHeader);
    if (refused) throw new ApiError(req.endpoint, `the Cookie header was not sent: ${refused}`);
    const headers: Record<string, string> = { accept: 'application/json', cookie: req.cookieHeader };
    let body: string | undefined;
    if (req.method === 'POST') {
      headers['content-type'] = 'application/json';
      // cursor.com answers 403 to a POST without its own Origin (CSRF), whatever the base URL.
      headers.origin = CURSOR_ORIGIN;
      body = JSON.stringify(req.body ?? {});
    }

    let response: BufferedResponse;
    const maxBytes = req.maxBytes ?? SMALL_RESPONSE_LIMIT;
    try {
      let url = new URL(this.baseUrl + req.path);
      for (let redirects = 0; ; redirects++) {
        // Read while it streams and abandoned at the limit (a redirect's body too).
        response = await requestBuffered(this.dispatcher, {
          origin: url.origin,
          path: url.pathname + url.search,
          method: req.method,
          headers,
          body,
          signal,
          maxBytes,
        });
        const next = followableRedirect(url, response.statusCode, response.headers.location);
        if (!next || redirects >= MAX_REDIRECTS) break;
        url = next;
      }
    } catch (error) {
      throw requestFailure(error, req.endpoint, {
        maxBytes,
        timeoutMs: req.timeoutMs,
        timeout,
        signal: req.signal,
      });
    }

    const { statusCode: status, body: bytes } = response;
    if ((req.notLoggedInStatuses ?? [401, 403]).includes(status)) {
      throw new NotLoggedInError(req.endpoint, status);
    }
    if (status !== 200) {
      throw new ApiError(req.endpoint, `HTTP ${status}`, {
        status,
        retryAfterMs: parseRetryAfter(headerValue(response.headers['retry-after'])),
      });
    }
    const fast = req.decodeBytes?.(bytes);
    return fast !== undefined ? fast : decode(req.endpoint, decodeBody(bytes), req.schema);
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

/**
 * What a request that got no whole answer throws, for every client: a body past its cap, the request's own
 * timeout (exit 4), the caller's cancellation as it came, or a transport failure naming the endpoint.
 */
export function requestFailure(
  error: unknown,
  endpoint: string,
  at: { maxBytes: number; timeoutMs: number; timeout: AbortSignal; signal: AbortSignal | undefined },
): unknown {
  if (error instanceof BodyTooLargeError) return bodyTooLargeError(endpoint, at.maxBytes);
  if (at.timeout.aborted) return new TimeoutError(endpoint, at.timeoutMs);
  if (at.signal?.aborted) return at.signal.reason ?? error;
  return new ApiError(endpoint, transportMessage(error), { transport: true });
}

export function describeBytes(bytes: number): string {
  return `${bytes / (1024 * 1024)} MiB`;
}

/** A body past its cap, e.g. `response larger than 2 MiB (GET /api/usage-summary)`. */
function bodyTooLargeError(endpoint: string, maxBytes: number): ApiError {
  return new ApiError(endpoint, `response larger than ${describeBytes(maxBytes)}`);
}

/**
 * cursor.com's JSON is ASCII in practice: reading ASCII bytes as Latin-1 is a plain copy and gives the same
 * string as UTF-8 decoding, several times faster on the 150 usage-event pages of a heavy month.
 */
export function decodeBody(bytes: Buffer): string {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  return isAscii(body) ? body.toString('latin1') : body.toString('utf8');
}

/**
 * JSON text through the endpoint's schema, with errors that name the endpoint. `rawExcerpt: false` keeps
 * the body out of the message (the Admin API's bodies carry member emails).
 */
export function decode<T>(
  endpoint: string,
  text: string,
  schema: z.ZodType<T>,
  options: { rawExcerpt?: boolean } = {},
): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    if (options.rawExcerpt === false) throw new ParseError(endpoint, 'JSON decode failed');
    // V8's message quotes a piece of the body, which may be a credential: only the excerpt shows the body,
    // redacted before it is cut, so a cut can never leave part of a secret the printer would not recognise
    // (docs/invariants.md, "Never a credential shown").
    const reason = (error instanceof Error ? error.message : String(error)).replace(
      /, "[\s\S]*"(?:\.\.\.)? is not valid JSON$/,
      ' is not valid JSON',
    );
    const excerpt = redact(text.slice(0, REDACTED_PREFIX)).slice(0, RAW_EXCERPT);
    throw new ParseError(endpoint, `JSON decode failed: ${reason}. Raw: ${excerpt}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
      .join('; ');
    throw new ParseError(endpoint, issues);
  }
  return parsed.data;
}

/** Redirects are followed only https → https with the same host and port. */
function followableRedirect(
  from: URL,
  status: number,
  location: string | string[] | undefined,
): URL | undefined {
  if (status < 300 || status >= 400 || typeof location !== 'string') return undefined;
  let to: URL;
  try {
    to = new URL(location, from);
  } catch {
    return undefined;
  }
  if (from.protocol !== 'https:' || to.protocol !== 'https:' || to.host !== from.host) return undefined;
  return to;
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function transportMessage(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' ? `${code}: ${message}` : message;
}

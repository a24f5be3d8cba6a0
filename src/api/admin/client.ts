import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { ApiError } from '../../errors.js';
import {
  decode,
  decodeBody,
  EVENTS_PAGE_LIMIT,
  headerValue,
  parseRetryAfter,
  requestFailure,
} from '../client.js';
import {
  type BufferedResponse,
  createDispatcher,
  type ProxySettings,
  requestBuffered,
} from '../transport.js';
import { AdminForbiddenError, AdminKeyRejectedError } from './errors.js';

export const ADMIN_ORIGIN = 'https://api.cursor.com';
/**
 * The largest Admin API answer read (docs/invariants.md, "Every read is bounded"): a page of 1,000 events,
 * or a large team's daily usage in one answer, is a few MB; anything past the cap is abandoned as it streams.
 */
const ADMIN_RESPONSE_LIMIT = EVENTS_PAGE_LIMIT;

/** A POST to `path` with a JSON body; errors name the endpoint `POST <path>`. */
export interface AdminRequest<T> {
  path: string;
  body: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  schema: z.ZodType<T>;
}

/** What the endpoint functions need from AdminClient (structural, so tests can stand in). */
export interface AdminRequester {
  request<T>(req: AdminRequest<T>): Promise<T>;
}

/**
 * The Admin API client: one keep-alive dispatcher that honours the proxy
 * variables, HTTP Basic auth with the key as the user name and an empty password, no redirects, zod
 * decoding, and typed errors that name the endpoint. The key lives only in the Authorization header: no
 * message, log line or error body ever carries it, and response bodies are kept out of parse errors
 * because they carry member emails.
 */
export class AdminClient implements AdminRequester {
  readonly baseUrl: string;
  private readonly dispatcher: Dispatcher;
  private readonly authorization: string;

  constructor(options: { baseUrl: string; apiKey: string; proxy: ProxySettings }) {
    this.baseUrl = options.baseUrl;
    this.dispatcher = createDispatcher(options.proxy);
    this.authorization = `Basic ${Buffer.from(`${options.apiKey}:`, 'utf8').toString('base64')}`;
  }

  async request<T>(req: AdminRequest<T>): Promise<T> {
    const endpoint = `POST ${req.path}`;
    const timeout = AbortSignal.timeout(req.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    const url = new URL(this.baseUrl + req.path);
    let response: BufferedResponse;
    try {
      response = await requestBuffered(this.dispatcher, {
        origin: url.origin,
        path: url.pathname + url.search,
        method: 'POST',
        headers: {
          accept: 'application/json',
          authorization: this.authorization,
          'content-type': 'application/json',
        },
        body: JSON.stringify(req.body),
        signal,
        maxBytes: ADMIN_RESPONSE_LIMIT,
      });
    } catch (error) {
      throw requestFailure(error, endpoint, {
        maxBytes: ADMIN_RESPONSE_LIMIT,
        timeoutMs: req.timeoutMs,
        timeout,
        signal: req.signal,
      });
    }
    const status = response.statusCode;
    if (status === 401) throw new AdminKeyRejectedError(endpoint);
    if (status === 403) throw new AdminForbiddenError(endpoint);
    if (status !== 200) {
      throw new ApiError(endpoint, `HTTP ${status}`, {
        status,
        retryAfterMs: parseRetryAfter(headerValue(response.headers['retry-after'])),
      });
    }
    return decode(endpoint, decodeBody(response.body), req.schema, { rawExcerpt: false });
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

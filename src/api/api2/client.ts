/**
 * The api2 client: Connect unary RPCs with the JSON codec on `api2.cursor.sh`, the way Cursor's IDE reads
 * usage and models, plus its two plain JSON auth routes (`/oauth/token`, `/auth/exchange_user_api_key`).
 * docs/api2.md has the facts it is built from.
 *
 * - `POST <base>/aiserver.v1.<Service>/<Method>`, `Content-Type: application/json`,
 *   `Connect-Protocol-Version: 1`, `Authorization: Bearer <token>`; no cookie is ever sent here, and the
 *   Bearer token never to cursor.com (docs/invariants.md, "Credentials only to their own server, over HTTPS").
 * - The one transport of the cursor.com client: keep-alive, the proxy variables, a cap on every body, read
 *   whole before the next request uses the socket (api2 answers an empty body on a socket reused before the
 *   last body was drained).
 * - No redirects: a Bearer token is never carried to another URL.
 * - Connect errors become the typed errors: `unauthenticated` (or `ERROR_NOT_LOGGED_IN`) is "not logged in",
 *   `permission_denied` a `Api2DeniedError` its caller may treat as "not applicable", a 429 or 503 an
 *   `ApiError` with its `Retry-After` for the retry rules.
 */
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { ApiError, NotLoggedInError } from '../../errors.js';
import { safeText } from '../../render/safe-text.js';
import {
  decode,
  decodeBody,
  headerValue,
  parseRetryAfter,
  type RequestTimer,
  requestFailure,
  SMALL_RESPONSE_LIMIT,
} from '../client.js';
import { cookieHeaderProblem } from '../header-value.js';
import {
  type BufferedResponse,
  createDispatcher,
  type ProxySettings,
  requestBuffered,
} from '../transport.js';
import { connectErrorSchema } from './schemas/connect-error.js';

/** `DashboardService` and `AiService` of the `aiserver.v1` package. */
export type Api2Service = 'DashboardService' | 'AiService';

export interface Api2Request<T> {
  /** The path, e.g. `/aiserver.v1.DashboardService/GetCurrentPeriodUsage` or `/oauth/token`. */
  path: string;
  /** The access token sent as `Authorization: Bearer`; none for `/oauth/token`. */
  bearer?: string;
  body: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  schema: z.ZodType<T>;
  /** Largest body accepted (docs/invariants.md, "Every read is bounded"); default SMALL_RESPONSE_LIMIT. */
  maxBytes?: number;
}

/** api2 refused the method for this account (`permission_denied`): a team method on a personal account. */
export class Api2DeniedError extends ApiError {}

/** `POST /aiserver.v1.DashboardService/GetCurrentPeriodUsage`, as errors name a method. */
export function rpcPath(service: Api2Service, method: string): string {
  return `/aiserver.v1.${service}/${method}`;
}

export class Api2Client {
  readonly baseUrl: string;
  private readonly dispatcher: Dispatcher;
  private readonly timer: RequestTimer;

  constructor(options: { baseUrl: string; proxy: ProxySettings; timer?: RequestTimer }) {
    this.baseUrl = options.baseUrl;
    this.dispatcher = createDispatcher(options.proxy);
    this.timer = options.timer ?? ((ms) => AbortSignal.timeout(ms));
  }

  async request<T>(req: Api2Request<T>): Promise<T> {
    const endpoint = `POST ${req.path}`;
    const timeout = this.timer(req.timeoutMs, endpoint);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/json',
      'connect-protocol-version': '1',
    };
    if (req.bearer !== undefined) {
      const refused = cookieHeaderProblem(req.bearer);
      if (refused) throw new ApiError(endpoint, `the access token was not sent: ${refused}`);
      headers.authorization = `Bearer ${req.bearer}`;
    }
    const maxBytes = req.maxBytes ?? SMALL_RESPONSE_LIMIT;
    const url = new URL(this.baseUrl + req.path);
    let response: BufferedResponse;
    try {
      response = await requestBuffered(this.dispatcher, {
        origin: url.origin,
        path: url.pathname,
        method: 'POST',
        headers,
        body: JSON.stringify(req.body ?? {}),
        signal,
        maxBytes,
      });
    } catch (error) {
      throw requestFailure(error, endpoint, {
        maxBytes,
        timeoutMs: req.timeoutMs,
        timeout,
        signal: req.signal,
      });
    }
    const { statusCode: status, body: bytes } = response;
    if (status !== 200) throw connectError(endpoint, status, bytes, response.headers);
    return decode(endpoint, decodeBody(bytes), req.schema);
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

/**
 * A non-200 answer as a typed error. The Connect body's `code` and `debug.error` decide; its `message` and
 * `detail` are the server's words, shown only escaped and never whole (they could quote a request).
 */
function connectError(
  endpoint: string,
  status: number,
  bytes: Buffer,
  headers: BufferedResponse['headers'],
): Error {
  let code: string | undefined;
  let reason: string | undefined;
  try {
    const parsed = connectErrorSchema.safeParse(JSON.parse(decodeBody(bytes)));
    if (parsed.success) {
      code = parsed.data.code;
      reason = parsed.data.details?.find((detail) => detail.debug?.error)?.debug?.error;
    }
  } catch {
    // Not JSON (an HTML error page): the status decides.
  }
  if (status === 401 || code === 'unauthenticated' || reason === 'ERROR_NOT_LOGGED_IN') {
    return new NotLoggedInError(endpoint, status);
  }
  const named = [code, reason]
    .filter((part) => part !== undefined)
    .map((part) => safeText(part!.slice(0, 60)));
  const detail = named.length > 0 ? `HTTP ${status} (${named.join(', ')})` : `HTTP ${status}`;
  const options = {
    status,
    retryAfterMs: parseRetryAfter(headerValue(headers['retry-after'])),
  };
  if (code === 'permission_denied') return new Api2DeniedError(endpoint, detail, options);
  return new ApiError(endpoint, detail, options);
}

/** Shared shapes of the fake cursor.com (test/fake-cursor/server.ts). */

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/api/usage`. */
  path: string;
  query: Record<string, string>;
  /** Lower-case header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Parsed JSON body, the raw text when it is not JSON, or undefined when empty. */
  body: unknown;
  /** Index into `accounts` of the account whose session cookie matched. */
  accountIndex?: number;
}

export interface FakeResponse {
  /** Default 200. */
  status?: number;
  json?: unknown;
  /** A raw body, e.g. truncated JSON; sent as application/json unless `headers` say otherwise. */
  text?: string;
  headers?: Record<string, string>;
  /** Added to the server-wide latency. */
  delayMs?: number;
  /** Reset the socket instead of answering. */
  destroy?: boolean;
  /**
   * Stream `chunk` again and again with chunked encoding (no Content-Length): `bytes` in all, or without end
   * until the client goes away (an endless body). Replaces `json`/`text`.
   */
  stream?: { chunk: string; bytes?: number };
}

/** `attempt` counts earlier requests to the same account, endpoint and page (0 on the first). */
export type HandlerFunction = (req: RecordedRequest, attempt: number) => FakeResponse | Promise<FakeResponse>;

export type Handler = FakeResponse | HandlerFunction;

/** One usage event as the dashboard sends it. */
export interface UsageEventJson {
  timestamp?: string | number;
  model?: string;
  kind?: string;
  maxMode?: boolean;
  requestsCosts?: number | string;
  usageBasedCosts?: string;
  isTokenBasedCall?: boolean;
  tokenUsage?: {
    inputTokens?: number | string;
    outputTokens?: number | string;
    cacheWriteTokens?: number | string;
    cacheReadTokens?: number | string;
    totalCents?: number | string;
  };
  owningUser?: string | number;
  owningTeam?: string | number;
  cursorTokenFee?: number | string;
  isChargeable?: boolean;
  isHeadless?: boolean;
  chargedCents?: number | string;
  [field: string]: unknown;
}

export type EmptyPageShape = 'omit-array' | 'empty-object';

export interface EventsFault {
  /** 1-based page the fault applies to. */
  page: number;
  /** Answer with this status and `{"error":"fault"}` instead of the page. */
  status?: number;
  /** Fail only the first N attempts at this page; default: every attempt. */
  times?: number;
  /** A `Retry-After` header value. */
  retryAfter?: string;
  /** Send the first half of the page's JSON. */
  truncated?: boolean;
  /** Reset the socket. */
  destroy?: boolean;
  /** Delay this page's answer (on top of the server latency). */
  delayMs?: number;
}

export interface EventsScenario {
  /** Newest first, as the dashboard lists them. */
  events: UsageEventJson[];
  /**
   * `totalUsageEventsCount` on every page. Default: the number of events in the request's window.
   * null omits the field; a function decides per page (undefined there means the default).
   */
  count?: number | null | ((page: number) => number | null | undefined);
  /** Explicit answers for some pages, replacing the generated ones. */
  pages?: Record<number, UsageEventJson[] | EmptyPageShape>;
  /** Repeat the last `rows` rows of page `afterPage` at the start of the next page, shifting the rest. */
  overlap?: { afterPage: number; rows: number };
  /**
   * How a page past the end is answered. Default: omit the array but keep the count, or `{}` when the
   * window holds no events at all.
   */
  emptyShape?: EmptyPageShape;
  faults?: EventsFault[];
}

export interface FakeAccount {
  /** Accepted `WorkosCursorSessionToken` values (compared exactly, still URL-encoded). */
  cookies: string[];
  usageSummary?: Handler;
  me?: Handler;
  legacyUsage?: Handler;
  sand?: Handler;
  teams?: Handler;
  teamSpend?: Handler;
  usageStatus?: Handler;
  events?: EventsScenario | Handler;
  /**
   * `get-aggregated-usage-events`. Default: the totals of `events` when it is a scenario (404 otherwise);
   * a handler replaces them (e.g. `{"code":"internal"}` for an unsupported window).
   */
  aggregated?: Handler;
  /** api2: accepted `Authorization: Bearer` tokens (test/fake-cursor/api2.ts). */
  bearers?: string[];
  /**
   * api2: Connect unary methods by `<Service>/<Method>`, e.g. `DashboardService/GetCurrentPeriodUsage`;
   * a method not listed answers Connect `unimplemented` (404).
   */
  rpc?: Record<string, Handler>;
}

export interface FakeCursorOptions {
  accounts: FakeAccount[];
  latencyMs?: number;
  /** Serve https with this certificate (e.g. fixtures/tls/loopback.ts) instead of plain http. */
  tls?: { cert: string; key: string };
  /**
   * `GET /api/v2/status.json`, the Statuspage API `usage --status` reads (point CODEXBAR_CURSOR_STATUS_URL at
   * the fake). Answered without any session; 404 when not set.
   */
  statusPage?: Handler;
  /** api2's auth routes, answered without an account: `POST /oauth/token` and the API-key exchange. */
  api2?: { oauthToken?: Handler; exchangeApiKey?: Handler };
}

export interface FakeCursor {
  /** `http://127.0.0.1:<port>` (or https with `tls`), no trailing slash. */
  url: string;
  /** Every request, in arrival order, recorded before it is answered. */
  requests: RecordedRequest[];
  setLatency(ms: number): void;
  close(): Promise<void>;
}

import { decodeEventsPageBytes } from '../cost/events/byte-decoder.js';
import { type EventRowsPage, eventRowsPageSchema } from '../cost/events/rows.js';
import { type CursorRequest, EVENTS_PAGE_LIMIT } from './client.js';
import { aggregatedUsageSchema, type RangeTotals } from './schemas/aggregated-usage.js';
import { REQUEST_TIMEOUT_MS } from './timeouts.js';

export const EVENTS_ENDPOINT = 'POST /api/dashboard/get-filtered-usage-events';
export const EVENTS_PAGE_SIZE = 1000;
export const AGGREGATED_ENDPOINT = 'POST /api/dashboard/get-aggregated-usage-events';

/** What the pager needs from CursorClient (structural, so tests and the client stay decoupled). */
export interface EventsRequester {
  request<T>(req: CursorRequest<T>): Promise<T>;
}

interface RangeRequestOptions {
  cookieHeader: string;
  start: Date;
  end: Date;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface FetchEventsPageOptions extends RangeRequestOptions {
  /** 1-based. */
  page: number;
}

/** Bounds are rounded epoch milliseconds as decimal strings. */
function msString(date: Date): string {
  return String(Math.round(date.getTime()));
}

/**
 * One page of usage events, as rows. Only 401 means "not logged in" here: a 403 on this endpoint is a final
 * API error (docs/invariants.md, "Only a rejection switches credentials").
 */
export function fetchEventsPage(
  client: EventsRequester,
  options: FetchEventsPageOptions,
): Promise<EventRowsPage> {
  return client.request({
    method: 'POST',
    path: '/api/dashboard/get-filtered-usage-events',
    endpoint: EVENTS_ENDPOINT,
    cookieHeader: options.cookieHeader,
    body: {
      page: options.page,
      pageSize: EVENTS_PAGE_SIZE,
      startDate: msString(options.start),
      endDate: msString(options.end),
    },
    timeoutMs: options.timeoutMs ?? REQUEST_TIMEOUT_MS,
    signal: options.signal,
    schema: eventRowsPageSchema,
    decodeBytes: decodeEventsPageBytes,
    maxBytes: EVENTS_PAGE_LIMIT,
    notLoggedInStatuses: [401],
  });
}

/**
 * cursor.com's totals of the events in `[start, end]` (inclusive, as the events endpoint), for the event
 * store's content check. Only 401 means "not logged in", as for the events pages.
 */
export function fetchRangeTotals(
  client: EventsRequester,
  options: RangeRequestOptions,
): Promise<RangeTotals> {
  return client.request({
    method: 'POST',
    path: '/api/dashboard/get-aggregated-usage-events',
    endpoint: AGGREGATED_ENDPOINT,
    cookieHeader: options.cookieHeader,
    body: { startDate: msString(options.start), endDate: msString(options.end) },
    timeoutMs: options.timeoutMs ?? REQUEST_TIMEOUT_MS,
    signal: options.signal,
    schema: aggregatedUsageSchema,
    notLoggedInStatuses: [401],
  });
}

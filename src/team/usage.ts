/**
 * `team usage`: daily usage rows over any window, fetched in 30-day requests within the rate limit and
 * following any pagination to the end.
 */
import { type AdminContext, DAILY_USAGE_ENDPOINT, fetchDailyUsage } from '../api/admin/endpoints.js';
import type { DailyUsageRow } from '../api/admin/schemas/daily-usage.js';
import type { CostWindow } from '../cost/types.js';
import { PaginationError } from '../errors.js';
import { splitWindow } from './chunks.js';

/** Pages of one 30-day request: far more than any team's days × members. */
const MAX_DAILY_PAGES = 1000;

export interface DailyUsageProgress {
  /** 1-based request number and the number of 30-day pieces. */
  request: number;
  pieces: number;
}

export interface CollectDailyUsageOptions {
  window: CostWindow;
  onRequest?: (progress: DailyUsageProgress) => void;
  signal?: AbortSignal;
}

export interface DailyUsageRows {
  rows: DailyUsageRow[];
  /** HTTP requests that returned data (retries not counted). */
  requests: number;
  pieces: number;
}

const inconsistent = (detail: string) =>
  new PaginationError(
    'pagination_inconsistent',
    `Cursor daily usage pagination was inconsistent (${detail}, ${DAILY_USAGE_ENDPOINT}).`,
  );

export async function collectDailyUsage(
  context: AdminContext,
  options: CollectDailyUsageOptions,
): Promise<DailyUsageRows> {
  const pieces = splitWindow(options.window.start, options.window.end);
  const rows: DailyUsageRow[] = [];
  let requests = 0;
  for (const [index, piece] of pieces.entries()) {
    let numPages: number | undefined;
    for (let page = 1; ; page++) {
      if (page > MAX_DAILY_PAGES) {
        throw new PaginationError(
          'pagination_safety_limit',
          `Cursor daily usage reached its pagination safety limit of ${MAX_DAILY_PAGES} pages.`,
        );
      }
      const answer = await fetchDailyUsage(
        context,
        { start: piece.start, end: piece.end, page: page === 1 ? undefined : page },
        options.signal,
      );
      requests++;
      rows.push(...answer.data);
      options.onRequest?.({ request: requests, pieces: pieces.length });
      const pagination = answer.pagination;
      if (pagination?.numPages !== undefined) {
        if (numPages !== undefined && numPages !== pagination.numPages) {
          throw inconsistent(`${numPages} pages, then ${pagination.numPages}`);
        }
        numPages = pagination.numPages;
      }
      const more = pagination?.hasNextPage ?? (numPages !== undefined && page < numPages);
      if (!more) break;
      if (answer.data.length === 0) throw inconsistent(`page ${page} of piece ${index + 1} was empty`);
    }
  }
  return { rows, requests, pieces: pieces.length };
}

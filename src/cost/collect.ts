/**
 * `codexbar cost` data collection: page the usage events (with retries and read-ahead) straight into
 * the aggregator, so 150,000 events are summed as they arrive instead of being held in memory.
 */

import { type EventsRequester, fetchEventsPage } from '../api/events-endpoint.js';
import { DeadlineError } from '../errors.js';
import { createCostAggregator } from './aggregate.js';
import { type PageProgress, pageUsageEvents } from './pager.js';
import { createListPricer, type ListPricer } from './pricing.js';
import { type RetryPolicy, withRetry } from './retry.js';
import type { CostReport, CostWindow } from './types.js';

export interface CollectCostOptions {
  client: EventsRequester;
  cookieHeader: string;
  window: CostWindow;
  /** Zone for day buckets; default the window's zone. */
  timeZone?: string;
  /** Pages fetched ahead at once (default 6; 1 = strictly sequential). */
  concurrency?: number;
  onProgress?: (progress: PageProgress) => void;
  /** List prices for events without totalCents; default the bundled table, null to price nothing. */
  pricing?: ListPricer | null;
  /** Per-page timeout, default 15 s. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  signal?: AbortSignal;
  /** The whole run's deadline: its signal aborts the paging when `ms` have passed. */
  deadline?: { signal: AbortSignal; ms: number };
  /** Clock for "Today" and `generatedAt`; default the real one. */
  now?: () => Date;
}

export async function collectCost(options: CollectCostOptions): Promise<CostReport> {
  const now = options.now ?? (() => new Date());
  const timeZone = options.timeZone ?? options.window.timeZone;
  const aggregator = createCostAggregator({
    timeZone,
    pricing: options.pricing === undefined ? createListPricer() : options.pricing,
    today: now(),
  });
  const { deadline } = options;
  const signals = [options.signal, deadline?.signal].filter((signal) => signal !== undefined);
  let last: PageProgress | undefined;
  const paging = pageUsageEvents({
    concurrency: options.concurrency,
    onProgress: (progress) => {
      last = progress;
      options.onProgress?.(progress);
    },
    signal: signals.length > 0 ? AbortSignal.any(signals) : undefined,
    onEvent: (event) => aggregator.add(event),
    fetchPage: (page, signal) =>
      withRetry(
        () =>
          fetchEventsPage(options.client, {
            cookieHeader: options.cookieHeader,
            page,
            start: options.window.start,
            end: options.window.end,
            timeoutMs: options.timeoutMs,
            signal,
          }),
        options.retry,
        signal,
      ),
  });
  const result = await paging.catch((error: unknown) => {
    if (deadline?.signal.aborted) throw deadlinePassed(deadline.ms, last);
    throw error;
  });
  return aggregator.finish(
    { ...options.window, timeZone },
    { generatedAt: now(), reportedEventCount: result.expected },
  );
}

/** docs/behaviour.md §18.12: how far the run got, and no total. */
function deadlinePassed(ms: number, last: PageProgress | undefined): DeadlineError {
  const pages = last === undefined ? 'before the first page arrived' : `after ${describePages(last)}`;
  return new DeadlineError(
    `Cursor cost refresh ran past its ${ms / 1000} s deadline ${pages}; no total is shown.`,
    'Run it again with a longer --timeout, or narrow the window with --days or --since.',
  );
}

function describePages(progress: PageProgress): string {
  const of = progress.pagesKnown === null ? '' : ` of ${progress.pagesKnown}`;
  return `${progress.page}${of} page${progress.page === 1 && of === '' ? '' : 's'} (${progress.eventsReceived} events)`;
}

/**
 * `codexbar cost` data collection: page the usage events (with retries and read-ahead) straight into
 * the aggregator, so 150,000 events are summed as they arrive instead of being held in memory. With an
 * event store, settled time comes from the store once cursor.com confirms its counts.
 */

import {
  AGGREGATED_ENDPOINT,
  type EventsRequester,
  fetchEventsPage,
  fetchRangeTotals,
} from '../api/events-endpoint.js';
import { describeFailure } from '../api/usage-endpoints.js';
import { DeadlineError } from '../errors.js';
import { type RetryPolicy, withRetry } from '../lib/retry.js';
import { createCostAggregator } from './aggregate.js';
import type { PageProgress } from './pager.js';
import { createListPricer } from './pricing.js';
import type { TimeSpan } from './store/plan.js';
import {
  type CollectedRanges,
  type CostStoreUse,
  collectRanges,
  type EventsSource,
} from './store/ranged-collect.js';
import type { CostReport, CostWindow } from './types.js';

export interface CollectCostOptions {
  client: EventsRequester;
  cookieHeader: string;
  window: CostWindow;
  /** Pages fetched ahead at once (default 6; 1 = strictly sequential). */
  concurrency?: number;
  onProgress?: (progress: PageProgress) => void;
  /** Per-page timeout, default 15 s. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  signal?: AbortSignal;
  /** The whole run's deadline: its signal aborts the paging when `ms` have passed. */
  deadline?: { signal: AbortSignal; ms: number };
  /** Clock for "Today" and `generatedAt`; default the real one. */
  now?: () => Date;
  /** Without it, every event is fetched and nothing is kept (`--no-cache`, or no account to key it by). */
  store?: CostStoreUse;
}

export async function collectCost(options: CollectCostOptions): Promise<CostReport> {
  const now = options.now ?? (() => new Date());
  const aggregator = createCostAggregator({
    timeZone: options.window.timeZone,
    pricing: createListPricer(),
    today: now(),
  });
  const { deadline } = options;
  const signals = [options.signal, deadline?.signal].filter((signal) => signal !== undefined);
  const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
  /** The last page accepted, for the deadline's message. */
  let last: PageProgress | undefined;
  let collected: CollectedRanges;
  try {
    collected = await collectRanges({
      // cursor.com's endDate is inclusive, so the window is [start, end + 1 ms).
      window: { start: options.window.start.getTime(), end: options.window.end.getTime() + 1 },
      source: dashboardSource(options),
      store: options.store,
      addRows: aggregator.addRows.bind(aggregator),
      runAt: now().getTime(),
      signal,
      onProgress: (progress) => {
        last = progress;
        options.onProgress?.(progress);
      },
    });
  } catch (error) {
    if (deadline?.signal.aborted) throw deadlinePassed(deadline.ms, last);
    throw error;
  }
  return aggregator.finish(options.window, {
    generatedAt: now(),
    reportedEventCount: collected.reported,
    storedRanges: collected.stored,
  });
}

/**
 * cursor.com's events endpoint, a span `[a, b)` asked for as `startDate = a`, `endDate = b − 1`, and its
 * totals endpoint for the same span.
 */
function dashboardSource(options: CollectCostOptions): EventsSource {
  const range = (span: TimeSpan, signal: AbortSignal | undefined) => ({
    cookieHeader: options.cookieHeader,
    start: new Date(span.start),
    end: new Date(span.end - 1),
    timeoutMs: options.timeoutMs,
    signal,
  });
  return {
    tag: '[cursor-cost]',
    server: 'cursor.com',
    concurrency: options.concurrency,
    fetchPage: (span, page, signal) =>
      withRetry(
        () => fetchEventsPage(options.client, { ...range(span, signal), page }),
        options.retry,
        signal,
      ),
    // Best-effort (docs/invariants.md, "Best-effort lookups never fail a run"): without them, stored
    // ranges are checked by count only.
    fetchTotals: async (span, signal) => {
      try {
        return await withRetry(
          () => fetchRangeTotals(options.client, range(span, signal)),
          options.retry,
          signal,
        );
      } catch (error) {
        if (signal?.aborted) throw error;
        options.store?.log(
          `[cursor-cost] ${AGGREGATED_ENDPOINT} unavailable (${describeFailure(error)}); ` +
            'stored ranges are checked by count only',
        );
        return undefined;
      }
    },
  };
}

/** docs/invariants.md, "No partial total": how far the run got, and no total. */
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

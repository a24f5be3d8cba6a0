/**
 * `codexbar cost` data collection: page the usage events (with retries and read-ahead) straight into
 * the aggregator, so 150,000 events are summed as they arrive instead of being held in memory.
 */

import { type EventsRequester, fetchEventsPage } from '../api/events-endpoint.js';
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
  const result = await pageUsageEvents({
    concurrency: options.concurrency,
    onProgress: options.onProgress,
    signal: options.signal,
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
  return aggregator.finish(
    { ...options.window, timeZone },
    { generatedAt: now(), reportedEventCount: result.expected },
  );
}

/**
 * `codexbar cost` data collection: page the usage events (with retries and read-ahead) straight into
 * the aggregator, so 150,000 events are summed as they arrive instead of being held in memory. With an
 * event store, settled time comes from the store once cursor.com confirms its counts (docs/behaviour.md §28).
 */

import { EVENTS_PAGE_SIZE, type EventsRequester, fetchEventsPage } from '../api/events-endpoint.js';
import type { EventsPage } from '../api/schemas/events.js';
import { DeadlineError } from '../errors.js';
import { isoSeconds } from '../iso-date.js';
import { createCostAggregator } from './aggregate.js';
import { type PageProgress, pageUsageEvents } from './pager.js';
import { createListPricer, type ListPricer } from './pricing.js';
import { type RetryPolicy, withRetry } from './retry.js';
import { EventColumns } from './store/event-columns.js';
import type { EventStore, RangeEvents } from './store/event-store.js';
import { planWindow, settledPart, type TimeSpan } from './store/plan.js';
import type { CostEvent, CostReport, CostWindow } from './types.js';

/** docs/behaviour.md §28.3: events younger than this can still change, so they are always fetched again. */
const SETTLED_AFTER_MS = 48 * 3_600_000;

/** The account's event store, and how this run uses it (docs/behaviour.md §28). */
export interface CostStoreUse {
  store: EventStore;
  /** `--refresh`: nothing is read from the store; everything is fetched and then replaces what it held. */
  refresh: boolean;
  /** `--verbose` lines. */
  log: (line: string) => void;
}

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
  /** Without it, every event is fetched and nothing is kept (`--no-cache`, or no account to key it by). */
  store?: CostStoreUse;
}

export async function collectCost(options: CollectCostOptions): Promise<CostReport> {
  const now = options.now ?? (() => new Date());
  const timeZone = options.timeZone ?? options.window.timeZone;
  const aggregator = createCostAggregator({
    timeZone,
    pricing: options.pricing === undefined ? createListPricer() : options.pricing,
    today: now(),
  });
  const runAt = now().getTime();
  const { deadline } = options;
  const signals = [options.signal, deadline?.signal].filter((signal) => signal !== undefined);
  const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
  const collector = new RangeCollector(
    options,
    signal,
    aggregator.add.bind(aggregator),
    runAt - SETTLED_AFTER_MS,
  );
  // docs/behaviour.md §17.8: cursor.com's endDate is inclusive, so the window is [start, end + 1 ms).
  const window: TimeSpan = { start: options.window.start.getTime(), end: options.window.end.getTime() + 1 };
  const stored = options.store && !options.store.refresh ? collector.storedRanges() : [];
  const steps = planWindow({ window, stored, settledBefore: collector.settledBefore });
  let reported: number | null = 0;
  try {
    for (const step of steps) {
      const count = step.kind === 'stored' ? await collector.fromStore(step) : await collector.fetch(step);
      reported = reported === null || count === null ? null : reported + count;
    }
  } catch (error) {
    if (deadline?.signal.aborted) throw deadlinePassed(deadline.ms, collector.last);
    throw error;
  }
  collector.writeStore(runAt);
  return aggregator.finish(
    { ...options.window, timeZone },
    { generatedAt: now(), reportedEventCount: reported },
  );
}

/** Spans in messages, half-open as they are kept: `2026-09-01T00:00:00Z – 2026-11-28T14:00:00Z`. */
function spanText(span: TimeSpan): string {
  return `${isoSeconds(new Date(span.start))} – ${isoSeconds(new Date(span.end))}`;
}

/** One run's steps: fetching spans, verifying stored ones, and what is written back to the store. */
class RangeCollector {
  /** Fetched spans whose settled part will be stored, with the events fetched for them. */
  private readonly writes: RangeEvents[] = [];
  /** The last page accepted, for the deadline's message. */
  last: PageProgress | undefined;

  constructor(
    private readonly options: CollectCostOptions,
    /** The run's cancellation and deadline, for every request. */
    private readonly signal: AbortSignal | undefined,
    private readonly add: (event: CostEvent) => void,
    readonly settledBefore: number,
  ) {}

  private get log(): (line: string) => void {
    return this.options.store?.log ?? (() => {});
  }

  /** The store's ranges; a store that cannot be read is not used this run (everything is fetched). */
  storedRanges(): ReturnType<EventStore['ranges']> {
    try {
      return this.options.store!.store.ranges();
    } catch (error) {
      this.log(`[cursor-cost] The event store could not be read (${messageOf(error)}); fetching everything`);
      return [];
    }
  }

  private page(span: TimeSpan, page: number, signal?: AbortSignal): Promise<EventsPage> {
    const { options } = this;
    return withRetry(
      () =>
        fetchEventsPage(options.client, {
          cookieHeader: options.cookieHeader,
          page,
          start: new Date(span.start),
          end: new Date(span.end - 1),
          timeoutMs: options.timeoutMs,
          signal: signal ?? this.signal,
        }),
      options.retry,
      signal ?? this.signal,
    );
  }

  /**
   * Fetches every event of `span` (page 1 may be given, already fetched) into the aggregator, and keeps the
   * settled ones for the store. Returns cursor.com's count for the span.
   */
  async fetch(span: TimeSpan, firstPage?: EventsPage): Promise<number | null> {
    const settled = this.options.store ? settledPart(span, this.settledBefore) : undefined;
    const kept = settled ? new EventColumns() : undefined;
    let storable = true;
    if (this.options.store) this.log(`[cursor-cost] Fetching ${spanText(span)}`);
    const result = await pageUsageEvents({
      concurrency: this.options.concurrency,
      onProgress: (progress) => {
        this.last = progress;
        this.options.onProgress?.(progress);
      },
      signal: this.signal,
      onEvent: (event) => {
        this.add(event);
        if (!kept) return;
        const t = event.timestamp;
        // An event the span cannot place (no timestamp, or outside what was asked) makes it unstorable.
        if (t === undefined || t < span.start || t >= span.end) storable = false;
        else if (t < this.settledBefore) kept.push(event);
      },
      fetchPage: (page, signal) =>
        page === 1 && firstPage ? Promise.resolve(firstPage) : this.page(span, page, signal),
    });
    if (settled && kept) {
      // A count proves a span complete (docs/behaviour.md §18.4), and so does a single short page; a longer
      // answer without a count is not stored.
      const complete = result.expected !== null || result.raw < EVENTS_PAGE_SIZE;
      if (storable && complete) this.writes.push({ ...settled, columns: kept });
      else
        this.log(
          `[cursor-cost] Not storing ${spanText(settled)}: cursor.com's answer did not prove it complete`,
        );
    }
    return result.expected;
  }

  /**
   * A stored span: read it, then ask cursor.com for its count (page 1 of the span). Equal counts: the stored
   * events are used. Otherwise (or no count) the span is fetched again in full and replaces what was stored.
   */
  async fromStore(span: TimeSpan): Promise<number | null> {
    let held: EventColumns;
    try {
      held = this.options.store!.store.read(span.start, span.end);
    } catch (error) {
      this.log(
        `[cursor-cost] The event store could not be read (${messageOf(error)}); fetching ${spanText(span)}`,
      );
      return this.fetch(span);
    }
    const first = await this.page(span, 1);
    // `{}` is cursor.com's answer for an empty range: a short page without a count is complete by itself.
    const events = first.usageEventsDisplay.length;
    const reported = first.totalUsageEventsCount ?? (events < EVENTS_PAGE_SIZE ? events : undefined);
    if (reported === held.length) {
      this.log(`[cursor-cost] From the event store: ${spanText(span)}, ${held.length} events (verified)`);
      for (let i = 0; i < held.length; i++) this.add(held.get(i));
      return first.totalUsageEventsCount ?? null;
    }
    this.log(
      `[cursor-cost] The event store holds ${held.length} events for ${spanText(span)}, cursor.com ` +
        `${reported === undefined ? 'gave no count' : `reports ${reported}`}; fetching it again`,
    );
    return this.fetch(span, first);
  }

  /** Writes what this run fetched of settled time; a store that cannot be written only loses the saving. */
  writeStore(runAt: number): void {
    const use = this.options.store;
    if (!use || this.writes.length === 0) return;
    try {
      use.store.replace(this.writes, runAt);
      for (const piece of this.writes) {
        this.log(`[cursor-cost] Stored ${spanText(piece)} for the next run`);
      }
    } catch (error) {
      this.log(
        `[cursor-cost] The event store could not be written (${messageOf(error)}); nothing was stored`,
      );
    }
  }
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

function messageOf(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * Pages `get-filtered-usage-events` (docs/invariants.md, "No partial total"), fetching ahead concurrently
 * but deciding strictly in page order, so every run ends exactly as the sequential algorithm would (with
 * concurrency 1 it is the sequential algorithm).
 */

import { PaginationError } from '../errors.js';
import type { EventRows, EventRowsPage } from './events/rows.js';
import { rowsOverlap, rowsSignature } from './overlap.js';

export const PAGE_SIZE = 1000;
export const MAX_PAGES = 200;
const DEFAULT_CONCURRENCY = 6;

export interface PageProgress {
  /** The page just accepted, 1-based. */
  page: number;
  /** Rows on that page. */
  pageEvents: number;
  /** Pages holding events by the reported count (at least `page`), or null without a count. */
  pagesKnown: number | null;
  /** Raw rows received so far, before overlap removal. */
  eventsReceived: number;
  /** `totalUsageEventsCount`, once a page has carried it. */
  expected: number | null;
}

/** The walk over pages decoded as rows (src/cost/events/rows.ts), delivered a run at a time. */
export interface RowsPagerOptions {
  fetchPage: (page: number, signal: AbortSignal) => Promise<EventRowsPage>;
  /**
   * Rows `from` to `to` (exclusive) of `rows`: every de-duplicated event exactly once, in page order except
   * for held-back overlap rows.
   */
  onRows: (rows: EventRows, from: number, to: number) => void;
  concurrency?: number;
  onProgress?: (progress: PageProgress) => void;
  signal?: AbortSignal;
  /** The page cap (default 200, CodexBar's); that many full pages with no short one fail closed. */
  maxPages?: number;
  /** Rows in a full page (default 1000, what the endpoints answer); tests pass a few to reach the cap cheaply. */
  pageSize?: number;
}

export interface PagerResult {
  /** `totalUsageEventsCount`, or null when no page carried one. */
  expected: number | null;
  /** Rows received before overlap removal. */
  raw: number;
  /** Rows handed to `onRows`. */
  delivered: number;
  pages: number;
}

/** `[cursor-cost] page N: K events (T raw total)` for --verbose. */
export function verbosePageLine(progress: PageProgress): string {
  return `[cursor-cost] page ${progress.page}: ${progress.pageEvents} events (${progress.eventsReceived} raw total)`;
}

const incomplete = (expected: number, received: number) =>
  new PaginationError(
    'pagination_incomplete',
    `Cursor cost refresh was incomplete (received ${received} of ${expected} events).`,
  );
const safetyLimit = (received: number) =>
  new PaginationError(
    'pagination_safety_limit',
    `Cursor cost refresh reached its pagination safety limit after ${received} events.`,
  );
const inconsistent = (expected: number, received: number) =>
  new PaginationError(
    'pagination_inconsistent',
    `Cursor cost pagination was inconsistent (expected ${expected}, received ${received} events).`,
  );

const repeatedPage = (page: number, earlier: number) =>
  new PaginationError(
    'pagination_incomplete',
    `Cursor cost refresh was incomplete (page ${page} repeated page ${earlier}, twice).`,
  );

/** The last page the reported count implies: a short page, or the empty page after an exact multiple. */
function lastPageFor(expected: number, maxPages: number, pageSize: number): number {
  return Math.min(maxPages, Math.floor(expected / pageSize) + 1);
}

/**
 * Requests pages ahead of the in-order consumer: at most `concurrency` requests in flight, and at most twice
 * that many pages requested but not yet consumed, so a slow parse cannot pile pages up in memory. With
 * concurrency 1 nothing is requested before the previous page is consumed: the sequential algorithm.
 */
class PageFetcher<P> {
  private readonly pending = new Map<number, Promise<P>>();
  private nextToStart = 1;
  private inFlight = 0;
  private lastAllowed = 0;
  private readonly maxBuffered: number;

  constructor(
    private readonly fetchPage: (page: number, signal: AbortSignal) => Promise<P>,
    private readonly signal: AbortSignal,
    private readonly concurrency: number,
    private readonly maxPages: number,
  ) {
    this.maxBuffered = concurrency === 1 ? 1 : concurrency * 2;
  }

  /**
   * Makes sure `needed` is requested, and allows pages up to `plannedLast` (what the count implies, never
   * beyond the page cap) to be fetched ahead.
   */
  fill(needed: number, plannedLast: number): void {
    this.lastAllowed = Math.min(this.maxPages, Math.max(needed, plannedLast));
    while (this.nextToStart <= needed) this.start();
    this.pump();
  }

  take(page: number): Promise<P> {
    const promise = this.pending.get(page);
    if (!promise) throw new Error(`page ${page} was never requested`);
    this.pending.delete(page);
    this.pump();
    return promise;
  }

  private pump(): void {
    while (
      !this.signal.aborted &&
      this.nextToStart <= this.lastAllowed &&
      this.inFlight < this.concurrency &&
      this.pending.size < this.maxBuffered
    ) {
      this.start();
    }
  }

  /** Asks for a repeated page once more: a request like any other, so it counts against the concurrency. */
  again(page: number): Promise<P> {
    return this.request(page);
  }

  private start(): void {
    const page = this.nextToStart++;
    this.pending.set(page, this.request(page));
  }

  private request(page: number): Promise<P> {
    this.inFlight++;
    const promise = Promise.resolve().then(() => this.fetchPage(page, this.signal));
    // A page past the stopping point may fail after the run ended; that failure is not the run's.
    promise
      .catch(() => {})
      .finally(() => {
        this.inFlight--;
        this.pump();
      });
    return promise;
  }
}

/** Pages of rows: the dashboard's events endpoint (src/api/events-endpoint.ts) and the Admin API's. */
export async function pageEventRows(options: RowsPagerOptions): Promise<PagerResult> {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY));
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) onOuterAbort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const maxPages = options.maxPages ?? MAX_PAGES;
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const fetcher = new PageFetcher(options.fetchPage, controller.signal, concurrency, maxPages);
  const walk = new PageWalk(options, pageSize);
  try {
    let completed = false;
    for (let page = 1; page <= maxPages && !completed; page++) {
      fetcher.fill(page, walk.expected === null ? page : lastPageFor(walk.expected, maxPages, pageSize));
      let response = await fetcher.take(page);
      // A page that repeats an earlier one is asked for once more; a repeat that
      // persists means the pages cannot be trusted.
      const repeated = walk.repeatOf(response);
      if (repeated !== undefined) {
        response = await fetcher.again(page);
        const again = walk.repeatOf(response);
        if (again !== undefined) throw repeatedPage(page, again);
      }
      completed = walk.accept(page, response);
    }
    // docs/invariants.md, "No partial total": only a short or empty page proves the end, so 200 full pages
    // fail even when the count matches.
    if (!completed) throw safetyLimit(walk.raw);
    return walk.finish();
  } finally {
    options.signal?.removeEventListener('abort', onOuterAbort);
    // Pages fetched ahead of the stopping point (or after a failure) are no longer wanted.
    controller.abort(new Error('cost paging finished'));
  }
}

/** The in-order walk over the pages: count checks, overlap held back, events delivered once. */
class PageWalk {
  expected: number | null = null;
  raw = 0;
  private delivered = 0;
  private lastPageWithEvents = 0;
  private previous: EventRows | undefined;
  /** The signature of every page with events so far, and its page number. */
  private readonly signatures = new Map<string, number>();
  /** The rows repeatOf last looked at, and their signature and overlap, so accept does not work them out again. */
  private looked: { events: EventRows; signature: string; overlap: number } | undefined;
  /** Per page, its leading rows that equal the previous page's tail: overlap only if the count proves it. */
  private readonly held: { events: EventRows; count: number }[] = [];

  constructor(
    private readonly options: Pick<RowsPagerOptions, 'onRows' | 'onProgress'>,
    private readonly pageSize: number,
  ) {}

  /**
   * The earlier page that `response` repeats, if any: the same rows as a page already taken, or an overlap
   * with the previous page longer than a boundary shift can explain. Changes nothing.
   */
  repeatOf(response: EventRowsPage): number | undefined {
    const events = response.usageEventsDisplay;
    if (events.length === 0) return undefined;
    const { signature, overlap } = this.lookAt(events);
    const same = this.signatures.get(signature);
    if (same !== undefined) return same;
    // A boundary shift of more than half a page would take as many new events mid-run, which would also change
    // the count: a larger overlap with the previous page is a repeated page, not a shift.
    if (overlap > this.pageSize / 2) return this.lastPageWithEvents;
    return undefined;
  }

  /** The page's signature and its overlap with the previous page, worked out once per page. */
  private lookAt(events: EventRows): { signature: string; overlap: number } {
    if (this.looked?.events !== events) {
      const overlap = this.previous ? rowsOverlap(this.previous, events) : 0;
      this.looked = { events, signature: rowsSignature(events), overlap };
    }
    return this.looked;
  }

  /** Takes page `page`; true when it proves the walk complete (a short or empty page). */
  accept(page: number, response: EventRowsPage): boolean {
    this.checkCount(response.totalUsageEventsCount);
    const events = response.usageEventsDisplay;
    this.raw += events.length;
    if (events.length > 0) {
      const { signature, overlap } = this.lookAt(events);
      this.signatures.set(signature, page);
      this.lastPageWithEvents = page;
      if (overlap > 0) this.held.push({ events, count: overlap });
      this.deliver(events, overlap, events.length);
      this.previous = events;
    }
    this.options.onProgress?.({
      page,
      pageEvents: events.length,
      pagesKnown: this.expected === null ? null : Math.max(page, Math.ceil(this.expected / this.pageSize)),
      eventsReceived: this.raw,
      expected: this.expected,
    });
    return events.length < this.pageSize;
  }

  /** The count is compared before the empty-page test, so a changed count on an empty page throws. */
  private checkCount(count: number | undefined): void {
    if (count === undefined) return;
    if (this.expected !== null && this.expected !== count) throw inconsistent(this.expected, count);
    this.expected = count;
  }

  /**
   * After the last page: fewer rows than reported is incomplete; surplus rows must be exactly the held-back
   * boundary repeats, which are dropped; the rest of the held rows are real and delivered.
   */
  finish(): PagerResult {
    const { expected, raw } = this;
    if (expected !== null && raw < expected) throw incomplete(expected, raw);
    // Without a count nothing proves a repeat, and an exact count keeps identical rows.
    let remove = expected === null ? 0 : raw - expected;
    for (const { events, count } of this.held) {
      const dropped = Math.min(count, remove);
      remove -= dropped;
      this.deliver(events, dropped, count);
    }
    if (expected !== null && remove !== 0) throw inconsistent(expected, raw);
    return { expected, raw, delivered: this.delivered, pages: this.lastPageWithEvents };
  }

  private deliver(events: EventRows, from: number, to: number): void {
    if (from >= to) return;
    this.delivered += to - from;
    this.options.onRows(events, from, to);
  }
}

/**
 * The in-memory response cache of `serve`: fresh answers for the
 * refresh interval, stale-while-revalidate inside the stale window, one fetch per key at a time, a budget
 * per waiter, last-good replacement for rows with a stable key, and the cost cooldown.
 *
 * Rows are opaque here. A job says how to fetch them, which are errors, which may fall back to a last
 * good row, and what a timed-out fetch looks like.
 */
import { orAfter } from '../server/deadline.js';

export type CacheState = 'miss' | 'hit' | 'refreshing' | 'stale' | 'fallback' | 'bypass';

export interface KeyedRow<Row> {
  row: Row;
  error: boolean;
  /** A stable key: an error row with one may be replaced by the last good row under the same key. */
  fallbackKey?: string;
}

export interface FetchOutcome<Row> {
  rows: KeyedRow<Row>[];
  /** The fetch was refused in a way that pauses background refreshes (the cost cooldown). */
  cooldown?: boolean;
}

export interface CacheJob<Row> {
  /** Route, provider selection and config hash. */
  key: string;
  /** Must not reject: failures are error rows. */
  fetch(signal: AbortSignal): Promise<FetchOutcome<Row>>;
  /** The rows a waiter gets when the fetch outlives its budget. */
  timeoutRows(): KeyedRow<Row>[];
}

export interface Served<Row> {
  rows: Row[];
  state: CacheState;
  /** When the rows were fetched, on the cache's clock (ms). */
  fetchedAt: number;
}

export interface CacheOptions {
  /** 0 turns caching, stale serving and last-good fallback off. */
  refreshIntervalMs: number;
  staleWindowMs: number;
  /** How long background refreshes pause after a cooldown outcome. */
  cooldownMs?: number;
  maxLastGood?: number;
  now(): number;
}

const COOLDOWN_MS = 6 * 60 * 60 * 1000;
const MAX_LAST_GOOD = 64;

interface Entry<Row> {
  rows: Row[];
  fetchedAt: number;
  /** When a refresh last failed (or was refused) since these rows were fetched. */
  refreshFailedAt?: number;
}

interface Flight<Row> {
  promise: Promise<FetchOutcome<Row>>;
  controller: AbortController;
}

export class ResponseCache<Row> {
  private readonly entries = new Map<string, Entry<Row>>();
  private readonly flights = new Map<string, Flight<Row>>();
  private readonly lastGood = new Map<string, { row: Row; fetchedAt: number }>();
  private readonly cooldownUntil = new Map<string, number>();
  private closed = false;
  private waiters = 0;

  constructor(private readonly options: CacheOptions) {}

  private get caching(): boolean {
    return this.options.refreshIntervalMs > 0;
  }

  /**
   * The answer for `job.key`: cached when fresh, stale (with a background refresh) inside the stale
   * window, otherwise from the running or a new fetch, waiting at most `budgetMs` (undefined: no bound).
   */
  async serve(job: CacheJob<Row>, budgetMs?: number): Promise<Served<Row>> {
    const now = this.options.now();
    const entry = this.usableEntry(job.key, now);
    if (entry) {
      if (now - entry.fetchedAt < this.options.refreshIntervalMs) {
        return { rows: entry.rows, state: 'hit', fetchedAt: entry.fetchedAt };
      }
      const refreshing = this.refreshInBackground(job, entry, now);
      const state = refreshing && entry.refreshFailedAt === undefined ? 'refreshing' : 'stale';
      return { rows: entry.rows, state, fetchedAt: entry.fetchedAt };
    }
    const flight = this.flights.get(job.key) ?? this.start(job);
    this.waiters++;
    // Undefined: the fetch outlived the budget.
    const budgeted =
      budgetMs === undefined ? flight.promise : orAfter(flight.promise, budgetMs, () => undefined);
    const outcome = await budgeted.finally(() => {
      this.waiters--;
    });
    const keyed = outcome === undefined ? job.timeoutRows() : outcome.rows;
    return this.withFallback(keyed, this.options.now());
  }

  /** Stops every fetch and keeps nothing that finishes later. */
  close(): void {
    this.closed = true;
    for (const flight of this.flights.values()) flight.controller.abort();
  }

  /** Number of fetches running (for tests). */
  runningFetches(): number {
    return this.flights.size;
  }

  /** Number of requests waiting for a fetch (for tests: coalescing is shown with all of them waiting). */
  waitingRequests(): number {
    return this.waiters;
  }

  private usableEntry(key: string, now: number): Entry<Row> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now - entry.fetchedAt < this.options.staleWindowMs) return entry;
    this.entries.delete(key);
    return undefined;
  }

  /**
   * Starts a refresh unless one runs, the cooldown holds, or one failed less than an interval ago (so a
   * failing upstream is retried once per interval, not once per request); says whether one is running.
   */
  private refreshInBackground(job: CacheJob<Row>, entry: Entry<Row>, now: number): boolean {
    if (this.flights.has(job.key)) return true;
    const until = this.cooldownUntil.get(job.key);
    if (until !== undefined && now < until) return false;
    if (entry.refreshFailedAt !== undefined && now - entry.refreshFailedAt < this.options.refreshIntervalMs) {
      return false;
    }
    // Nobody waits for this one; a failure only marks the entry.
    this.start(job).promise.catch(() => {});
    return true;
  }

  private start(job: CacheJob<Row>): Flight<Row> {
    const controller = new AbortController();
    const promise = job
      .fetch(controller.signal)
      .then((outcome) => {
        this.settle(job.key, outcome);
        return outcome;
      })
      .finally(() => this.flights.delete(job.key));
    const flight = { promise, controller };
    this.flights.set(job.key, flight);
    return flight;
  }

  private settle(key: string, outcome: FetchOutcome<Row>): void {
    if (this.closed) return;
    const now = this.options.now();
    const ok = outcome.rows.every((keyed) => !keyed.error);
    if (ok) {
      this.cooldownUntil.delete(key);
      if (this.caching) {
        this.entries.set(key, { rows: plainRows(outcome.rows), fetchedAt: now });
      }
    } else {
      const entry = this.entries.get(key);
      if (entry) entry.refreshFailedAt = now;
      if (outcome.cooldown) this.cooldownUntil.set(key, now + (this.options.cooldownMs ?? COOLDOWN_MS));
    }
    if (this.caching) {
      for (const keyed of outcome.rows) {
        if (!keyed.error && keyed.fallbackKey !== undefined) this.remember(keyed.fallbackKey, keyed.row, now);
      }
    }
    this.prune(now);
  }

  private remember(key: string, row: Row, fetchedAt: number): void {
    this.lastGood.delete(key);
    this.lastGood.set(key, { row, fetchedAt });
    const max = this.options.maxLastGood ?? MAX_LAST_GOOD;
    while (this.lastGood.size > max) this.lastGood.delete(this.lastGood.keys().next().value!);
  }

  private prune(now: number): void {
    for (const [key, entry] of this.entries) {
      if (now - entry.fetchedAt >= this.options.staleWindowMs) this.entries.delete(key);
    }
    for (const [key, until] of this.cooldownUntil) if (now >= until) this.cooldownUntil.delete(key);
  }

  /** Error rows with a stable key become their last good row. */
  private withFallback(keyed: KeyedRow<Row>[], now: number): Served<Row> {
    const base: Served<Row> = {
      rows: plainRows(keyed),
      state: this.caching ? 'miss' : 'bypass',
      fetchedAt: now,
    };
    if (!this.caching) return base;
    let replacedAt: number | undefined;
    const rows = keyed.map((item) => {
      const good =
        item.error && item.fallbackKey !== undefined ? this.lastGood.get(item.fallbackKey) : undefined;
      if (!good) return item.row;
      replacedAt = Math.min(replacedAt ?? good.fetchedAt, good.fetchedAt);
      return good.row;
    });
    return replacedAt === undefined ? base : { rows, state: 'fallback', fetchedAt: replacedAt };
  }
}

/** `map`'s value for `key`, made by `make(key)` and kept the first time it is asked for. */
export function getOrInsert<K, V>(
  map: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  make: (key: K) => V,
): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make(key);
    map.set(key, value);
  }
  return value;
}

/**
 * The rows of a fetch as one array, the same for every request that waited for it and for the cache entry,
 * so the answer is encoded once (src/serve/app.ts keys encoded bodies by this array).
 */
const plainRowsOf = new WeakMap<readonly KeyedRow<unknown>[], unknown[]>();
const rowsOf = (keyed: readonly KeyedRow<unknown>[]): unknown[] => keyed.map((item) => item.row);

function plainRows<Row>(keyed: readonly KeyedRow<Row>[]): Row[] {
  return getOrInsert(plainRowsOf, keyed, rowsOf) as Row[];
}

/**
 * Collecting a window's events through an event store, for any events endpoint with the dashboard's page
 * shape: `cost` (cursor.com, keyed by the account) and `team cost` (the Admin API, keyed by the team), under
 * docs/invariants.md, "When a stored range may be trusted".
 *
 * - The window is planned into stored and fetched spans; a source whose requests cover at most `maxSpanMs`
 *   gets each span in consecutive pieces of that length.
 * - Every stored piece is verified before use: page 1 of it, whose count must equal the events held, and
 *   the source's totals of it, which must equal the sums of the events held. Otherwise (or without a
 *   count) the piece is fetched again in full and replaces what was stored. Without totals (a source that
 *   has none, or they are unavailable) a piece is checked by count only, and only while it was fetched less
 *   than a day ago.
 * - A store found damaged while it is read or written is set aside and a new one started.
 * - Fetched pieces are paged by the pager (src/cost/pager.ts); their settled part (older than 48 hours,
 *   proven complete, every event inside the span asked for) is written back at the end, in one
 *   transaction.
 */

import type { RangeTotals } from '../../api/schemas/aggregated-usage.js';
import { isoSeconds } from '../../lib/iso-date.js';
import type { EventRows, EventRowsPage } from '../events/rows.js';
import { PAGE_SIZE, type PageProgress, pageEventRows } from '../pager.js';
import type { StoredRangesCheck } from '../types.js';
import { heldTotals, sameTotals, totalsText } from './content-check.js';
import { type EventStore, type RangeEvents, type StoredRange, storeErrorText } from './event-store.js';
import { KeptEvents } from './kept-events.js';
import { type PlanStep, planWindow, settledPart, type TimeSpan } from './plan.js';

/** Events younger than this can still change, so they are always fetched again. */
const SETTLED_AFTER_MS = 48 * 3_600_000;
/**
 * How long a stored range checked by its count alone is trusted after it was fetched: a re-rating that
 * kept the count is invisible to that check, so such a range is fetched again once a day.
 */
const COUNT_ONLY_TRUST_MS = 24 * 3_600_000;

/** The store a run uses, and how. */
export interface CostStoreUse {
  store: EventStore;
  /** `--refresh`: nothing is read from the store; everything is fetched and then replaces what it held. */
  refresh: boolean;
  /** `--verbose` lines. */
  log: (line: string) => void;
}

/** One events endpoint, asked for a half-open span and a 1-based page. */
export interface EventsSource {
  /** The tag of `--verbose` lines: `[cursor-cost]` or `[cursor-team]`. */
  tag: string;
  /** Who answers, as `--verbose` names it: `cursor.com` or `the Admin API`. */
  server: string;
  /** One page of the events in `span` as rows, with the source's own retries. */
  fetchPage(span: TimeSpan, page: number, signal: AbortSignal | undefined): Promise<EventRowsPage>;
  /**
   * The source's own totals of `span`, when it has them; undefined when they are unavailable (the source
   * says why under `--verbose`). A source without it checks stored ranges by count only.
   */
  fetchTotals?(span: TimeSpan, signal: AbortSignal | undefined): Promise<RangeTotals | undefined>;
  /** Pages in flight at once (the pager's default when absent). */
  concurrency?: number;
  /** The pager's page cap per piece. */
  maxPages?: number;
  /** The longest span one request may cover; a longer span is asked for in consecutive pieces. */
  maxSpanMs?: number;
}

/** A piece of the window: 1-based, and how many the run has. */
export interface PieceIndex {
  piece: number;
  pieces: number;
}

export interface CollectRangesOptions {
  /** Half-open epoch ms. */
  window: TimeSpan;
  source: EventsSource;
  /** Without it, every event is fetched and nothing is kept. */
  store?: CostStoreUse;
  /** Receives every event of the window once, stored (verified) or fetched: rows `from` to `to` of `rows`. */
  addRows: (rows: EventRows, from: number, to: number) => void;
  /** The run's time, epoch ms: what is older than 48 hours before it is settled. */
  runAt: number;
  signal?: AbortSignal;
  onProgress?: (progress: PageProgress, piece: PieceIndex) => void;
}

export interface CollectedRanges {
  /** The sum of the counts the server reported for the pieces (null when any piece had none). */
  reported: number | null;
  /** Undefined when no stored range was used. */
  stored?: StoredRangesCheck;
}

/**
 * Collects every event of the window into `add`. Throws what the pager or a request throws: nothing
 * partial.
 */
export async function collectRanges(options: CollectRangesOptions): Promise<CollectedRanges> {
  const collector = new RangeCollector(options, options.runAt - SETTLED_AFTER_MS);
  const stored = options.store && !options.store.refresh ? collector.storedRanges() : [];
  const steps = planWindow({ window: options.window, stored, settledBefore: collector.settledBefore });
  const pieces = steps.flatMap((step) => splitStep(step, options.source.maxSpanMs));
  let reported: number | null = 0;
  for (const [index, step] of pieces.entries()) {
    const at = { piece: index + 1, pieces: pieces.length };
    const count =
      step.kind === 'stored' ? await collector.fromStore(step, at) : await collector.fetch(step, at);
    reported = reported === null || count === null ? null : reported + count;
  }
  await collector.writeStore(options.runAt);
  const { checked } = collector;
  return checked.used > 0 ? { reported, stored: checked } : { reported };
}

/** A step in pieces of at most `maxSpanMs`, each of the step's kind. */
function splitStep(step: PlanStep, maxSpanMs: number | undefined): PlanStep[] {
  if (maxSpanMs === undefined) return [step];
  const pieces: PlanStep[] = [];
  for (let start = step.start; start < step.end; start += maxSpanMs) {
    pieces.push({ ...step, start, end: Math.min(start + maxSpanMs, step.end) });
  }
  return pieces;
}

/** Whether every row `from` to `to` of `rows` lies in `span` (a row without a timestamp does not). */
function allInSpan(rows: EventRows, from: number, to: number, span: TimeSpan): boolean {
  for (let i = from; i < to; i++) {
    const t = rows.timestamp[i]!;
    if (!(t >= span.start && t < span.end)) return false;
  }
  return true;
}

/** Spans in messages, half-open as they are kept: `2026-09-01T00:00:00Z – 2026-11-28T14:00:00Z`. */
function spanText(span: TimeSpan): string {
  return `${isoSeconds(new Date(span.start))} – ${isoSeconds(new Date(span.end))}`;
}

/** One run's pieces: fetching spans, verifying stored ones, and what is written back to the store. */
class RangeCollector {
  /** Fetched spans whose settled part will be stored, with the events fetched for them. */
  private readonly writes: RangeEvents[] = [];
  readonly checked: StoredRangesCheck = { used: 0, countOnly: 0 };
  /** The source's totals failed once this run: they are not asked for again. */
  private totalsUnavailable = false;

  constructor(
    private readonly options: CollectRangesOptions,
    readonly settledBefore: number,
  ) {}

  private log(line: string): void {
    this.options.store?.log(`${this.options.source.tag} ${line}`);
  }

  /** The store's ranges; a store that cannot be read is not used this run (everything is fetched). */
  storedRanges(): StoredRange[] {
    try {
      return this.options.store!.store.ranges();
    } catch (error) {
      this.log(`The event store could not be read (${storeErrorText(error)}); fetching everything`);
      return [];
    }
  }

  private page(span: TimeSpan, page: number, signal?: AbortSignal): Promise<EventRowsPage> {
    return this.options.source.fetchPage(span, page, signal ?? this.options.signal);
  }

  /**
   * Fetches every event of `span` (page 1 may be given, already fetched) into `add`, and keeps them for
   * the store when part of the span is settled (the store takes only that part: src/cost/store/
   * event-store.ts `replace`). Returns the server's count for the span.
   */
  async fetch(span: TimeSpan, at: PieceIndex, firstPage?: EventRowsPage): Promise<number | null> {
    const { options } = this;
    const settled = options.store ? settledPart(span, this.settledBefore) : undefined;
    const keep = settled && { ...settled, events: new KeptEvents() };
    let placed = true;
    this.log(`Fetching ${spanText(span)}`);
    const result = await pageEventRows({
      concurrency: options.source.concurrency,
      maxPages: options.source.maxPages,
      onProgress: (progress) => options.onProgress?.(progress, at),
      signal: options.signal,
      onRows: (rows, from, to) => {
        options.addRows(rows, from, to);
        if (!keep) return;
        keep.events.appendRange(rows, from, to);
        if (!allInSpan(rows, from, to, span)) placed = false;
      },
      fetchPage: (page, signal) =>
        page === 1 && firstPage ? Promise.resolve(firstPage) : this.page(span, page, signal),
    });
    if (keep) {
      // A count proves a span complete, and so does a single short page; a longer answer without a count
      // is not stored, nor is one holding an event outside what was asked.
      const complete = result.expected !== null || result.raw < PAGE_SIZE;
      if (placed && complete) this.writes.push(keep);
      else
        this.log(
          `Not storing ${spanText(keep)}: ${options.source.server}'s answer did not prove it complete`,
        );
    }
    return result.expected;
  }

  /**
   * A stored span: read it, then ask the server for its count (page 1 of the span) and its totals. Equal
   * counts and totals: the stored events are used. Otherwise (no count, or no totals for a range fetched
   * a day ago or more) the span is fetched again in full and replaces what was stored.
   */
  async fromStore(step: TimeSpan & { fetchedAt: number }, at: PieceIndex): Promise<number | null> {
    const span = { start: step.start, end: step.end };
    let held: EventRows;
    try {
      held = this.options.store!.store.read(span.start, span.end);
    } catch (error) {
      this.log(`The event store could not be read (${storeErrorText(error)}); fetching ${spanText(span)}`);
      await this.startOverIfDamaged(error);
      return this.fetch(span, at);
    }
    const [first, totals] = await Promise.all([this.page(span, 1), this.totals(span)]);
    // `{}` is the answer for an empty range: a short page without a count is complete by itself.
    const events = first.usageEventsDisplay.length;
    const reported = first.totalUsageEventsCount ?? (events < PAGE_SIZE ? events : undefined);
    const { server } = this.options.source;
    if (reported !== held.length) {
      this.log(
        `The event store holds ${held.length} events for ${spanText(span)}, ${server} ` +
          `${reported === undefined ? 'gave no count' : `reports ${reported}`}; fetching it again`,
      );
      return this.fetch(span, at, first);
    }
    if (totals !== undefined) {
      const sums = heldTotals(held);
      if (!sameTotals(sums, totals)) {
        this.log(
          `The event store holds ${totalsText(sums)} for ${spanText(span)}, ${server} reports ` +
            `${totalsText(totals)}; fetching it again`,
        );
        return this.fetch(span, at, first);
      }
    } else if (Math.abs(this.options.runAt - step.fetchedAt) >= COUNT_ONLY_TRUST_MS) {
      // Both ways: a range dated a day ahead of this clock (set back since) is no fresher.
      this.log(
        `${spanText(span)} was stored a day or more from now and can only be checked by count; fetching it again`,
      );
      return this.fetch(span, at, first);
    }
    this.checked.used++;
    if (totals === undefined) this.checked.countOnly++;
    const by = totals === undefined ? 'count only' : 'count and totals';
    this.log(`From the event store: ${spanText(span)}, ${held.length} events (verified by ${by})`);
    this.options.addRows(held, 0, held.length);
    return first.totalUsageEventsCount ?? null;
  }

  /** The source's totals of `span`, or undefined: it has none, or they failed (once a run, then not asked). */
  private async totals(span: TimeSpan): Promise<RangeTotals | undefined> {
    const { fetchTotals } = this.options.source;
    if (fetchTotals === undefined || this.totalsUnavailable) return undefined;
    const totals = await fetchTotals(span, this.options.signal);
    if (totals === undefined) this.totalsUnavailable = true;
    return totals;
  }

  /** A damaged store is set aside for a new one; any other failure, or one setting it aside, only logs. */
  private async startOverIfDamaged(error: unknown): Promise<boolean> {
    try {
      return await this.options.store!.store.startOverIfDamaged(error);
    } catch (failure) {
      this.log(`The event store could not be replaced (${storeErrorText(failure)}); none is used`);
      return false;
    }
  }

  /**
   * Writes what this run fetched of settled time; a store that cannot be written only loses the saving. A
   * damaged one is set aside, and the write goes to the new store.
   */
  async writeStore(runAt: number): Promise<void> {
    const use = this.options.store;
    if (!use) return;
    const failed = this.tryWrite(use.store, runAt);
    if (failed && (await this.startOverIfDamaged(failed.error))) this.tryWrite(use.store, runAt);
  }

  /** One write of everything fetched: undefined, or the error it failed with (logged). */
  private tryWrite(store: EventStore, runAt: number): { error: unknown } | undefined {
    try {
      store.replace(this.writes, runAt);
    } catch (error) {
      this.log(`The event store could not be written (${storeErrorText(error)}); nothing was stored`);
      return { error };
    }
    for (const piece of this.writes) this.log(`Stored ${spanText(piece)} for the next run`);
    return undefined;
  }
}

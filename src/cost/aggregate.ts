/**
 * Incremental cost aggregation plus our additive figures: per-model totals
 * over the window, billing-kind buckets, request counts by price source and Cursor-metered USD per row.
 * Pure: events in, a CostReport out.
 *
 * Each token event is summed twice: into its day's model and into its billing kind's model. The window's
 * models are the kinds' models merged, and the window's metered sum the kinds' (src/cost/report-parts.ts).
 * The sums merge exactly (the money sums are exact, the token sums never see a negative count), so this gives
 * what summing every event into each of them directly gives, with less work per event, and few enough
 * merges that `finish` stays cheap.
 */

import { type TokenUsage, UNKNOWN_COUNT } from '../api/schemas/events.js';
import { civilDateAt, createDayKeyer, formatDayKey } from '../lib/time-zone.js';
import { checkedAdd, MeteredSum, type ModelAccumulator, modelIn, TOKEN_SUM_LIMIT } from './accumulators.js';
import { type EventRows, HAS_TOKENS, TOTAL_CENTS_INVALID } from './events/rows.js';
import { type EventCost, eventCost, type ListPricer } from './pricing.js';
import {
  coverageOf,
  dayEntry,
  kindTotals,
  mergeModels,
  modelRows,
  provenanceOf,
  windowTotals,
} from './report-parts.js';
import type {
  CostEvent,
  CostReport,
  CostWindow,
  KindTotals,
  PriceSource,
  StoredRangesCheck,
  UsageKindBucket,
} from './types.js';
import { USAGE_KIND_BUCKETS } from './types.js';
import { usageKindBucket } from './usage-kind.js';

export interface CostAggregatorOptions {
  /** IANA zone for day keys. */
  timeZone: string;
  /** List prices for events without totalCents; null prices nothing (CodexBar's behaviour). */
  pricing: ListPricer | null;
  /** "Now", for the Today figures. */
  today: Date;
  /**
   * A day keyer for `timeZone` to share between aggregators fed the same events (team cost's team and
   * per-member reports), so each local day's bounds are worked out once per run, not once per aggregator.
   */
  dayKeyOf?: (ms: number) => string;
}

export interface FinishMeta {
  generatedAt: Date;
  /** `totalUsageEventsCount` as cursor.com reported it, or null. */
  reportedEventCount: number | null;
  /** How the stored ranges the run used were checked; absent when it used none. */
  storedRanges?: StoredRangesCheck;
}

export interface CostAggregator {
  add(event: CostEvent): void;
  /** Rows `from` to `to` (exclusive) of `rows`: the same as `add` of each row's event. */
  addRows(rows: EventRows, from: number, to: number): void;
  finish(window: CostWindow, meta: FinishMeta): CostReport;
}

/** The latest instant a JavaScript Date can hold: a later "timestamp" is no time at all. */
const MAX_TIME_MS = 8.64e15;

/**
 * The event's token total, 0 without tokens, or NaN when a count is negative or the
 * four overflow: such an event cannot be counted honestly and is skipped like one without a valid time.
 * A count too large to hold exactly (UNKNOWN_COUNT) is no overflow: the total is unknown (+Infinity) and
 * the event counts, with its cents, its known counts and that count unknown in every sum it reaches.
 */
function eventTokenTotal(event: CostEvent): number {
  const usage = event.tokenUsage;
  if (!usage) return 0;
  const { inputTokens, outputTokens, cacheWriteTokens, cacheReadTokens } = usage;
  if (inputTokens < 0 || outputTokens < 0 || cacheWriteTokens < 0 || cacheReadTokens < 0) return Number.NaN;
  // The hot path of a 150,000-event month: with no negative term, the sum overflows exactly when it
  // ends past the limit, so no per-event checked sum is needed.
  const total = inputTokens + outputTokens + cacheWriteTokens + cacheReadTokens;
  return total > TOKEN_SUM_LIMIT && total !== UNKNOWN_COUNT ? Number.NaN : total;
}

function addToModel(
  acc: ModelAccumulator,
  usage: TokenUsage,
  source: PriceSource,
  cost: EventCost,
  chargedCents: number | undefined,
): void {
  acc.inputTokens = checkedAdd(acc.inputTokens, usage.inputTokens);
  acc.outputTokens = checkedAdd(acc.outputTokens, usage.outputTokens);
  acc.cacheReadTokens = checkedAdd(acc.cacheReadTokens, usage.cacheReadTokens);
  acc.cacheCreationTokens = checkedAdd(acc.cacheCreationTokens, usage.cacheWriteTokens);
  acc.requestCount++;
  acc.requestCounts[source]++;
  acc.metered.add(chargedCents);
  // docs/invariants.md, "No unknown price as zero": an invalid cost makes the model's total unknown for
  // good; unpriced events are skipped.
  if (cost.source === 'invalid') acc.cost.poison();
  else if (cost.source !== 'unpriced') acc.cost.addCents(cost.cents);
}

export function createCostAggregator(options: CostAggregatorOptions): CostAggregator {
  return new CostAggregation(options);
}

/** The running sums of one report: fed one event at a time, read once by `finish`. */
class CostAggregation implements CostAggregator {
  private readonly dayKeyOf: (ms: number) => string;
  private readonly todayKey: string;
  /** Per local day, its models. */
  private readonly days = new Map<string, Map<string, ModelAccumulator>>();
  /** The day of the last event, and its models: events come in time order, so most share it. */
  private lastDayKey: string | undefined;
  private lastDayModels: Map<string, ModelAccumulator> | undefined;
  /** Per billing kind (index in USAGE_KIND_BUCKETS), its models. */
  private readonly kindModels = USAGE_KIND_BUCKETS.map(() => new Map<string, ModelAccumulator>());
  /** The bucket (index in USAGE_KIND_BUCKETS) of each raw `kind` string, classified once. */
  private readonly bucketOf = new Map<string | undefined, number>();
  /** Per bucket: every request, and the metered sum of those without tokens (its models hold the others'). */
  private readonly kindRequests = USAGE_KIND_BUCKETS.map(() => 0);
  private readonly kindWithoutTokens = USAGE_KIND_BUCKETS.map(() => new MeteredSum());
  private eventCount = 0;
  private skippedEvents = 0;

  constructor(private readonly options: CostAggregatorOptions) {
    this.dayKeyOf = options.dayKeyOf ?? createDayKeyer(options.timeZone);
    this.todayKey = formatDayKey(civilDateAt(options.today.getTime(), options.timeZone));
  }

  /**
   * One event object reused for every row, filled from the columns: `add` only reads an event, so this adds
   * exactly what `add(rows.get(i))` would, without two objects per row.
   */
  private readonly row: CostEvent & { tokenUsage: TokenUsage | undefined } = {
    timestamp: undefined,
    model: undefined,
    kind: undefined,
    chargedCents: undefined,
    tokenUsage: undefined,
    owningUser: undefined,
  };
  private readonly rowUsage: TokenUsage = {
    inputTokens: 0,
    outputTokens: 0,
    cacheWriteTokens: 0,
    cacheReadTokens: 0,
    totalCents: undefined,
    totalCentsInvalid: false,
  };

  addRows(rows: EventRows, from: number, to: number): void {
    const event = this.row;
    const usage = this.rowUsage;
    for (let i = from; i < to; i++) {
      const timestamp = rows.timestamp[i]!;
      const charged = rows.chargedCents[i]!;
      event.timestamp = Number.isNaN(timestamp) ? undefined : timestamp;
      event.model = rows.model[i];
      event.kind = rows.kind[i];
      event.chargedCents = Number.isNaN(charged) ? undefined : charged;
      const flags = rows.flags[i]!;
      if (flags & HAS_TOKENS) {
        const cents = rows.totalCents[i]!;
        usage.inputTokens = rows.inputTokens[i]!;
        usage.outputTokens = rows.outputTokens[i]!;
        usage.cacheWriteTokens = rows.cacheWriteTokens[i]!;
        usage.cacheReadTokens = rows.cacheReadTokens[i]!;
        usage.totalCents = Number.isNaN(cents) ? undefined : cents;
        usage.totalCentsInvalid = (flags & TOTAL_CENTS_INVALID) !== 0;
        event.tokenUsage = usage;
      } else {
        event.tokenUsage = undefined;
      }
      this.add(event);
    }
  }

  add(event: CostEvent): void {
    const timestamp = event.timestamp;
    const tokens = eventTokenTotal(event);
    if (timestamp === undefined || !(timestamp > 0 && timestamp <= MAX_TIME_MS) || Number.isNaN(tokens)) {
      this.skippedEvents++;
      return;
    }
    // Every event with a time counts as a request of its billing kind, and for the metered sums.
    this.eventCount++;
    const bucket = this.bucket(event.kind);
    this.kindRequests[bucket]!++;
    const usage = event.tokenUsage;
    if (tokens <= 0 || !usage) {
      this.kindWithoutTokens[bucket]!.add(event.chargedCents);
      return;
    }
    const model = event.model ?? 'unknown';
    const cost = eventCost(usage, event.model, timestamp, this.options.pricing);
    const source = cost.source === 'invalid' ? 'unpriced' : cost.source;
    addToModel(modelIn(this.dayModels(timestamp), model), usage, source, cost, event.chargedCents);
    addToModel(modelIn(this.kindModels[bucket]!, model), usage, source, cost, event.chargedCents);
  }

  private bucket(kind: string | undefined): number {
    let bucket = this.bucketOf.get(kind);
    if (bucket === undefined) {
      bucket = USAGE_KIND_BUCKETS.indexOf(usageKindBucket(kind));
      this.bucketOf.set(kind, bucket);
    }
    return bucket;
  }

  /** The models of the day of `timestamp`. */
  private dayModels(timestamp: number): Map<string, ModelAccumulator> {
    const key = this.dayKeyOf(timestamp);
    let models = key === this.lastDayKey ? this.lastDayModels : this.days.get(key);
    if (models === undefined) {
      models = new Map();
      this.days.set(key, models);
    }
    this.lastDayKey = key;
    this.lastDayModels = models;
    return models;
  }

  finish(window: CostWindow, meta: FinishMeta): CostReport {
    const daily = [...this.days.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([date, models]) => dayEntry(date, models));
    // Today's entry, else 0; a stale latest day is never shown as Today.
    const todayEntry = daily.find((day) => day.date === this.todayKey);
    const byModel = mergeModels(this.kindModels);
    const byKind = USAGE_KIND_BUCKETS.map((_, bucket) =>
      kindTotals(this.kindRequests[bucket]!, this.kindModels[bucket]!, this.kindWithoutTokens[bucket]!),
    );
    const metered = new MeteredSum();
    for (const sum of this.kindWithoutTokens) metered.absorb(sum);
    const requestCounts = { reported: 0, estimated: 0, unpriced: 0 };
    for (const acc of byModel.values()) {
      metered.absorb(acc.metered);
      requestCounts.reported += acc.requestCounts.reported;
      requestCounts.estimated += acc.requestCounts.estimated;
      requestCounts.unpriced += acc.requestCounts.unpriced;
    }
    const meteredCostUSD = metered.usd;
    return {
      window,
      generatedAt: meta.generatedAt,
      daily,
      totals: windowTotals(daily),
      today: todayEntry
        ? { tokens: todayEntry.totalTokens, costUSD: todayEntry.costUSD }
        : { tokens: 0, costUSD: 0 },
      meteredCostUSD,
      provenance: provenanceOf(
        meteredCostUSD !== null,
        daily.some((day) => day.costUSD !== null),
      ),
      coverage: coverageOf(daily),
      byModel: modelRows(byModel),
      byKind: Object.fromEntries(
        USAGE_KIND_BUCKETS.map((bucket, index) => [bucket, byKind[index]!]),
      ) as Record<UsageKindBucket, KindTotals>,
      requestCounts,
      eventCount: this.eventCount,
      skippedEvents: this.skippedEvents,
      reportedEventCount: meta.reportedEventCount,
      ...(meta.storedRanges ? { storedRanges: meta.storedRanges } : {}),
    };
  }
}

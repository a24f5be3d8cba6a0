/**
 * Incremental cost aggregation (docs/behaviour.md §19) plus our additive figures: per-model totals
 * over the window, billing-kind buckets, request counts by price source and Cursor-metered USD per row.
 * Pure: events in, a CostReport out.
 */
import type { TokenUsage } from '../api/schemas/events.js';
import {
  checkedAdd,
  countRequest,
  emptyRequestCounts,
  MeteredSum,
  ModelAccumulator,
  TOKEN_SUM_LIMIT,
} from './accumulators.js';
import { type EventCost, eventCost, type ListPricer } from './pricing.js';
import { allKnown, compareModelRows, sumKnown, sumTokens } from './sums.js';
import { civilDateAt, createDayKeyer, formatDayKey } from './time-zone.js';
import type {
  CostDay,
  CostEvent,
  CostModelRow,
  CostReport,
  CostWindow,
  KindTotals,
  PriceSource,
  UsageKindBucket,
} from './types.js';
import { USAGE_KIND_BUCKETS } from './types.js';
import { usageKindBucket } from './usage-kind.js';

export interface CostAggregatorOptions {
  /** IANA zone for day keys. */
  timeZone: string;
  /** List prices for events without totalCents; null prices nothing (CodexBar's behaviour). */
  pricing: ListPricer | null;
  /** "Now" (or its YYYY-MM-DD local day key) for the Today figures. */
  today: Date | string;
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
}

export interface CostAggregator {
  add(event: CostEvent): void;
  finish(window: CostWindow, meta: FinishMeta): CostReport;
}

class KindAccumulator {
  requests = 0;
  totalTokens: number | null = 0;
  /** Per model, so one model's invalid cost drops only that model from the kind's sum, as for a day. */
  readonly models = new Map<string, ModelAccumulator>();
  readonly metered = new MeteredSum();

  toTotals(): KindTotals {
    const models = [...this.models.values()].map(modelRow).sort(compareModelRows);
    return {
      requests: this.requests,
      totalTokens: this.totalTokens,
      costUSD: sumKnown(models.map((model) => model.costUSD)),
      meteredUSD: this.metered.usd,
      models,
    };
  }
}

/** The latest instant a JavaScript Date can hold: a later "timestamp" is no time at all. */
const MAX_TIME_MS = 8.64e15;

/**
 * docs/behaviour.md §19.1: the event's token total, 0 without tokens, or NaN when a count is negative or the
 * four overflow: such an event cannot be counted honestly and is skipped like one without a valid time.
 */
function eventTokenTotal(event: CostEvent): number {
  const usage = event.tokenUsage;
  if (!usage) return 0;
  const { inputTokens, outputTokens, cacheWriteTokens, cacheReadTokens } = usage;
  if (inputTokens < 0 || outputTokens < 0 || cacheWriteTokens < 0 || cacheReadTokens < 0) return Number.NaN;
  // The hot path of a 150,000-event month: with no negative term, the sum overflows exactly when it
  // ends past the limit, so no per-event checked sum is needed.
  const total = inputTokens + outputTokens + cacheWriteTokens + cacheReadTokens;
  return total > TOKEN_SUM_LIMIT ? Number.NaN : total;
}

function modelRow(acc: ModelAccumulator): CostModelRow {
  return {
    modelName: acc.modelName,
    costUSD: acc.cost.usd,
    meteredUSD: acc.metered.usd,
    inputTokens: acc.inputTokens,
    outputTokens: acc.outputTokens,
    cacheReadTokens: acc.cacheReadTokens,
    cacheCreationTokens: acc.cacheCreationTokens,
    totalTokens: acc.totalTokens,
    requestCount: acc.requestCount,
    requestCounts: { ...acc.requestCounts },
    invalidReportedCost: acc.cost.poisoned,
  };
}

function dayEntry(date: string, models: Map<string, ModelAccumulator>): CostDay {
  const rows = [...models.values()].map(modelRow).sort(compareModelRows);
  return {
    date,
    ...sumTokens(rows),
    costUSD: sumKnown(rows.map((row) => row.costUSD)),
    meteredUSD: allKnown(rows.map((row) => row.meteredUSD)),
    requestCount: rows.reduce((sum, row) => sum + row.requestCount, 0),
    modelsUsed: rows.map((row) => row.modelName).sort(),
    models: rows,
  };
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
  countRequest(acc.requestCounts, source);
  acc.metered.add(chargedCents);
  // docs/behaviour.md §19.5: an invalid cost makes the model's total unknown for good; unpriced events are
  // skipped.
  if (cost.source === 'invalid') acc.cost.poison();
  else if (cost.source !== 'unpriced') acc.cost.addUSD(cost.cents / 100);
}

export function createCostAggregator(options: CostAggregatorOptions): CostAggregator {
  return new CostAggregation(options);
}

function mapEntry<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

/** The running sums of one report: fed one event at a time, read once by `finish`. */
class CostAggregation implements CostAggregator {
  private readonly dayKeyOf: (ms: number) => string;
  private readonly todayKey: string;
  private readonly days = new Map<string, Map<string, ModelAccumulator>>();
  private readonly byModel = new Map<string, ModelAccumulator>();
  private readonly kinds = new Map<UsageKindBucket, KindAccumulator>(
    USAGE_KIND_BUCKETS.map((bucket) => [bucket, new KindAccumulator()]),
  );
  /** The bucket of each raw `kind` string, so the hot path classifies each name once. */
  private readonly kindOf = new Map<string | undefined, KindAccumulator>();
  private readonly requestCounts = emptyRequestCounts();
  private readonly metered = new MeteredSum();
  private eventCount = 0;
  private skippedEvents = 0;

  constructor(private readonly options: CostAggregatorOptions) {
    this.dayKeyOf = options.dayKeyOf ?? createDayKeyer(options.timeZone);
    this.todayKey =
      typeof options.today === 'string'
        ? options.today
        : formatDayKey(civilDateAt(options.today.getTime(), options.timeZone));
  }

  add(event: CostEvent): void {
    const timestamp = event.timestamp;
    const tokens = eventTokenTotal(event);
    if (timestamp === undefined || !(timestamp > 0 && timestamp <= MAX_TIME_MS) || Number.isNaN(tokens)) {
      this.skippedEvents++;
      return;
    }
    const kind = this.countRequest(event);
    const usage = event.tokenUsage;
    if (tokens <= 0 || !usage) return;
    kind.totalTokens = checkedAdd(kind.totalTokens, tokens);
    this.addTokenEvent(event, usage, timestamp, kind);
  }

  /** Every event with a time counts as a request, for the metered sum and its billing kind. */
  private countRequest(event: CostEvent): KindAccumulator {
    this.eventCount++;
    this.metered.add(event.chargedCents);
    const kind = mapEntry(this.kindOf, event.kind, () => this.kinds.get(usageKindBucket(event.kind))!);
    kind.requests++;
    kind.metered.add(event.chargedCents);
    return kind;
  }

  /** An event with tokens: priced, then summed into its day's model, its model and its kind's model. */
  private addTokenEvent(event: CostEvent, usage: TokenUsage, timestamp: number, kind: KindAccumulator): void {
    const model = event.model ?? 'unknown';
    const cost = eventCost(usage, event.model, timestamp, this.options.pricing);
    const source = cost.source === 'invalid' ? 'unpriced' : cost.source;
    countRequest(this.requestCounts, source);
    const dayModels = mapEntry(
      this.days,
      this.dayKeyOf(timestamp),
      () => new Map<string, ModelAccumulator>(),
    );
    for (const models of [dayModels, this.byModel, kind.models]) {
      const acc = mapEntry(models, model, () => new ModelAccumulator(model));
      addToModel(acc, usage, source, cost, event.chargedCents);
    }
  }

  finish(window: CostWindow, meta: FinishMeta): CostReport {
    const daily = [...this.days.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([date, models]) => dayEntry(date, models));
    // docs/behaviour.md §19.8: today's entry, else 0; a stale latest day is never shown as Today.
    const todayEntry = daily.find((day) => day.date === this.todayKey);
    const meteredCostUSD = this.metered.usd;
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
      byModel: [...this.byModel.values()].map(modelRow).sort(compareModelRows),
      byKind: Object.fromEntries(
        USAGE_KIND_BUCKETS.map((bucket) => [bucket, this.kinds.get(bucket)!.toTotals()]),
      ) as Record<UsageKindBucket, KindTotals>,
      requestCounts: { ...this.requestCounts },
      eventCount: this.eventCount,
      skippedEvents: this.skippedEvents,
      reportedEventCount: meta.reportedEventCount,
    };
  }
}

/** docs/behaviour.md §19.7: checked token sums over the days; the cost is 0 with no days, else the known day costs or null. */
function windowTotals(daily: readonly CostDay[]): CostReport['totals'] {
  return {
    ...sumTokens(daily),
    costUSD: daily.length === 0 ? 0 : sumKnown(daily.map((day) => day.costUSD)),
  };
}

/** docs/behaviour.md §19.10: which of the two totals the report carries. */
function provenanceOf(metered: boolean, priced: boolean): CostReport['provenance'] {
  if (metered) return priced ? 'mixed' : 'vendorMetered';
  return priced ? 'listPriceEstimate' : 'unknown';
}

/**
 * docs/behaviour.md §19.11, a quirk kept for byte-faithful JSON: a day with a cost counts all its requests as priced, a day
 * without one counts nothing, and the other counters stay 0.
 */
function coverageOf(daily: readonly CostDay[]): CostReport['coverage'] {
  return {
    priced: daily.reduce((sum, day) => sum + (day.costUSD !== null ? day.requestCount : 0), 0),
    unpriced: 0,
    unmetered: 0,
    estimated: 0,
  };
}

/**
 * Incremental cost aggregation (codexbar-core.md §4.2–4.4) plus our additive figures: per-model totals
 * over the window, billing-kind buckets, request counts by price source and Cursor-metered USD per row.
 * Pure: events in, a CostReport out.
 */
import type { TokenUsage, UsageEvent } from '../api/schemas/events.js';
import {
  CostSum,
  checkedAdd,
  checkedSum,
  countRequest,
  emptyRequestCounts,
  MeteredSum,
  ModelAccumulator,
  TOKEN_SUM_LIMIT,
} from './accumulators.js';
import { type EventCost, eventCost, type ListPricer } from './pricing.js';
import { civilDateAt, createDayKeyer, formatDayKey } from './time-zone.js';
import type {
  CostDay,
  CostModelRow,
  CostReport,
  CostWindow,
  KindTotals,
  PriceSource,
  UsageKindBucket,
} from './types.js';
import { usageKindBucket } from './usage-kind.js';

export interface CostAggregatorOptions {
  /** IANA zone for day keys. */
  timeZone: string;
  /** List prices for events without totalCents; null prices nothing (CodexBar's behaviour). */
  pricing: ListPricer | null;
  /** "Now" (or its YYYY-MM-DD local day key) for the Today figures. */
  today: Date | string;
}

export interface FinishMeta {
  generatedAt: Date;
  /** `totalUsageEventsCount` as cursor.com reported it, or null. */
  reportedEventCount: number | null;
}

export interface CostAggregator {
  add(event: UsageEvent): void;
  finish(window: CostWindow, meta: FinishMeta): CostReport;
}

class KindAccumulator {
  requests = 0;
  totalTokens: number | null = 0;
  /** Per model, so one model's invalid cost drops only that model from the kind's sum, as for a day. */
  readonly costByModel = new Map<string, CostSum>();
  readonly metered = new MeteredSum();

  costFor(model: string): CostSum {
    let sum = this.costByModel.get(model);
    if (!sum) {
      sum = new CostSum();
      this.costByModel.set(model, sum);
    }
    return sum;
  }

  toTotals(): KindTotals {
    return {
      requests: this.requests,
      totalTokens: this.totalTokens,
      costUSD: sumKnown([...this.costByModel.values()].map((sum) => sum.usd)),
      meteredUSD: this.metered.usd,
    };
  }
}

const KIND_BUCKETS: readonly UsageKindBucket[] = ['included', 'onDemand', 'notCharged', 'byok', 'other'];

/** §4.2: skip unless the four counts are all ≥ 0 and sum, without overflow, to more than 0. */
function eventTokenTotal(event: UsageEvent): number {
  const usage = event.tokenUsage;
  if (!usage) return 0;
  const { inputTokens, outputTokens, cacheWriteTokens, cacheReadTokens } = usage;
  if (inputTokens < 0 || outputTokens < 0 || cacheWriteTokens < 0 || cacheReadTokens < 0) return 0;
  // The hot path of a 150,000-event month: with no negative term, the sum overflows exactly when it
  // ends past the limit, so no per-event checked sum is needed.
  const total = inputTokens + outputTokens + cacheWriteTokens + cacheReadTokens;
  return total > TOKEN_SUM_LIMIT ? 0 : total;
}

/** §4.2: cost desc (unknown = −1), then totalTokens desc, then name asc. */
function compareModelRows(a: CostModelRow, b: CostModelRow): number {
  const costA = a.costUSD ?? -1;
  const costB = b.costUSD ?? -1;
  if (costA !== costB) return costB - costA;
  const tokensA = a.totalTokens ?? -1;
  const tokensB = b.totalTokens ?? -1;
  if (tokensA !== tokensB) return tokensB - tokensA;
  return a.modelName < b.modelName ? -1 : a.modelName > b.modelName ? 1 : 0;
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

/** §4.2's day rule: the sum of the known values, or null when none is known. */
function sumKnown(values: readonly (number | null)[]): number | null {
  let sum: number | null = null;
  for (const value of values) if (value !== null) sum = (sum ?? 0) + value;
  return sum;
}

/** The sum when every value is known, else null (a metered total must not be partial). */
export function allKnown(values: readonly (number | null)[]): number | null {
  let sum = 0;
  for (const value of values) {
    if (value === null) return null;
    sum += value;
  }
  return sum;
}

function dayEntry(date: string, models: Map<string, ModelAccumulator>): CostDay {
  const rows = [...models.values()].map(modelRow).sort(compareModelRows);
  const field = (pick: (row: CostModelRow) => number | null) => checkedSum(rows.map(pick));
  const inputTokens = field((row) => row.inputTokens);
  const outputTokens = field((row) => row.outputTokens);
  const cacheReadTokens = field((row) => row.cacheReadTokens);
  const cacheCreationTokens = field((row) => row.cacheCreationTokens);
  return {
    date,
    inputTokens,
    outputTokens,
    cacheReadTokens,
    cacheCreationTokens,
    totalTokens: checkedSum([inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens]),
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
  // §4.2: an invalid cost makes the model's total unknown for good; unpriced events are skipped.
  if (cost.source === 'invalid') acc.cost.poison();
  else if (cost.source !== 'unpriced') acc.cost.addUSD(cost.cents / 100);
}

export function createCostAggregator(options: CostAggregatorOptions): CostAggregator {
  const dayKeyOf = createDayKeyer(options.timeZone);
  const todayKey =
    typeof options.today === 'string'
      ? options.today
      : formatDayKey(civilDateAt(options.today.getTime(), options.timeZone));
  const days = new Map<string, Map<string, ModelAccumulator>>();
  const byModel = new Map<string, ModelAccumulator>();
  const kinds = new Map<UsageKindBucket, KindAccumulator>(
    KIND_BUCKETS.map((b) => [b, new KindAccumulator()]),
  );
  const kindOf = new Map<string | undefined, KindAccumulator>();
  const requestCounts = emptyRequestCounts();
  const metered = new MeteredSum();
  let eventCount = 0;

  const accumulatorFor = (map: Map<string, ModelAccumulator>, model: string) => {
    let acc = map.get(model);
    if (!acc) {
      acc = new ModelAccumulator(model);
      map.set(model, acc);
    }
    return acc;
  };

  return {
    add(event) {
      const timestamp = event.timestamp;
      if (timestamp === undefined || timestamp <= 0) return;
      eventCount++;
      metered.add(event.chargedCents);
      let kind = kindOf.get(event.kind);
      if (!kind) {
        kind = kinds.get(usageKindBucket(event.kind))!;
        kindOf.set(event.kind, kind);
      }
      kind.requests++;
      kind.metered.add(event.chargedCents);

      const tokens = eventTokenTotal(event);
      const usage = event.tokenUsage;
      if (tokens <= 0 || !usage) return;
      kind.totalTokens = checkedAdd(kind.totalTokens, tokens);

      const model = event.model ?? 'unknown';
      const cost = eventCost(usage, event.model, timestamp, options.pricing);
      const source = cost.source === 'invalid' ? 'unpriced' : cost.source;
      countRequest(requestCounts, source);
      const kindCost = kind.costFor(model);
      if (cost.source === 'invalid') kindCost.poison();
      else if (cost.source !== 'unpriced') kindCost.addUSD(cost.cents / 100);

      const dayKey = dayKeyOf(timestamp);
      let dayModels = days.get(dayKey);
      if (!dayModels) {
        dayModels = new Map();
        days.set(dayKey, dayModels);
      }
      addToModel(accumulatorFor(dayModels, model), usage, source, cost, event.chargedCents);
      addToModel(accumulatorFor(byModel, model), usage, source, cost, event.chargedCents);
    },

    finish(window, meta) {
      const daily = [...days.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([date, models]) => dayEntry(date, models));
      const field = (pick: (day: CostDay) => number | null) => checkedSum(daily.map(pick));
      const inputTokens = field((day) => day.inputTokens);
      const outputTokens = field((day) => day.outputTokens);
      const cacheReadTokens = field((day) => day.cacheReadTokens);
      const cacheCreationTokens = field((day) => day.cacheCreationTokens);
      // §4.2: 0 with no entries; else the known day costs, or null when every day is unknown.
      const totalCost = daily.length === 0 ? 0 : sumKnown(daily.map((day) => day.costUSD));
      // §4.4: today's entry, else 0; a stale latest day is never shown as Today.
      const todayEntry = daily.find((day) => day.date === todayKey);
      const meteredCostUSD = metered.usd;
      const anyDayCost = daily.some((day) => day.costUSD !== null);
      return {
        window,
        generatedAt: meta.generatedAt,
        daily,
        totals: {
          inputTokens,
          outputTokens,
          cacheReadTokens,
          cacheCreationTokens,
          totalTokens: checkedSum([inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens]),
          costUSD: totalCost,
        },
        today: todayEntry
          ? { tokens: todayEntry.totalTokens, costUSD: todayEntry.costUSD }
          : { tokens: 0, costUSD: 0 },
        meteredCostUSD,
        provenance:
          meteredCostUSD !== null
            ? anyDayCost
              ? 'mixed'
              : 'vendorMetered'
            : anyDayCost
              ? 'listPriceEstimate'
              : 'unknown',
        // §4.4 quirk, kept for byte-faithful JSON: a day with a cost counts all its requests as priced,
        // a day without one counts nothing, and the other counters stay 0.
        coverage: {
          priced: daily.reduce((sum, day) => sum + (day.costUSD !== null ? day.requestCount : 0), 0),
          unpriced: 0,
          unmetered: 0,
          estimated: 0,
        },
        byModel: [...byModel.values()].map(modelRow).sort(compareModelRows),
        byKind: Object.fromEntries(KIND_BUCKETS.map((b) => [b, kinds.get(b)!.toTotals()])) as Record<
          UsageKindBucket,
          KindTotals
        >,
        requestCounts: { ...requestCounts },
        eventCount,
        reportedEventCount: meta.reportedEventCount,
      };
    },
  };
}

/**
 * The report's parts from the aggregator's per-model sums (src/cost/aggregate.ts): per day and per billing
 * kind; the window's models are the kinds' merged, exactly. Pure.
 */
import { checkedSum, MeteredSum, type ModelAccumulator, modelIn } from './accumulators.js';
import { allKnown, compareModelRows, sumKnown, sumTokens } from './sums.js';
import type { CostDay, CostModelRow, CostReport, KindTotals } from './types.js';

/** The models of several maps, each model's accumulators merged into one. */
export function mergeModels(maps: Iterable<Map<string, ModelAccumulator>>): Map<string, ModelAccumulator> {
  const merged = new Map<string, ModelAccumulator>();
  for (const models of maps) {
    for (const acc of models.values()) modelIn(merged, acc.modelName).absorb(acc);
  }
  return merged;
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

/** Rows of per-model accumulators, in a day's order. */
export function modelRows(models: Map<string, ModelAccumulator>): CostModelRow[] {
  return [...models.values()].map(modelRow).sort(compareModelRows);
}

export function dayEntry(date: string, models: Map<string, ModelAccumulator>): CostDay {
  const rows = modelRows(models);
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

/**
 * A billing kind: all its requests, its token events' models, the checked sum of their tokens (a kind's
 * events never have a negative count, so the sum of its models' sums overflows exactly when the sum of
 * its events would) and the metered sum of all its requests.
 */
export function kindTotals(
  requests: number,
  models: Map<string, ModelAccumulator>,
  withoutTokens: MeteredSum,
): KindTotals {
  const metered = new MeteredSum();
  metered.absorb(withoutTokens);
  const parts: (number | null)[] = [];
  for (const acc of models.values()) {
    metered.absorb(acc.metered);
    parts.push(acc.inputTokens, acc.outputTokens, acc.cacheReadTokens, acc.cacheCreationTokens);
  }
  const rows = modelRows(models);
  return {
    requests,
    totalTokens: checkedSum(parts),
    costUSD: sumKnown(rows.map((row) => row.costUSD)),
    meteredUSD: metered.usd,
    models: rows,
  };
}

/** Checked token sums over the days; the cost is 0 with no days, else the known day costs or null. */
export function windowTotals(daily: readonly CostDay[]): CostReport['totals'] {
  return {
    ...sumTokens(daily),
    costUSD: daily.length === 0 ? 0 : sumKnown(daily.map((day) => day.costUSD)),
  };
}

/** Which of the two totals the report carries. */
export function provenanceOf(metered: boolean, priced: boolean): CostReport['provenance'] {
  if (metered) return priced ? 'mixed' : 'vendorMetered';
  return priced ? 'listPriceEstimate' : 'unknown';
}

/**
 * CodexBar's quirk, kept for byte-faithful JSON: a day with a cost counts all its requests as priced, a day
 * without one counts nothing, and the other counters stay 0.
 */
export function coverageOf(daily: readonly CostDay[]): CostReport['coverage'] {
  return {
    priced: daily.reduce((sum, day) => sum + (day.costUSD !== null ? day.requestCount : 0), 0),
    unpriced: 0,
    unmetered: 0,
    estimated: 0,
  };
}

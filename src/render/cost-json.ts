/**
 * The `cost --json` row plus our additive fields (`window`, `apiRateCostUSD`, `byModel`, `byKind`,
 * `requestCounts`; docs/invariants.md, "CodexBar's JSON, only ever added to"). Objects are built in
 * CodexBar's field order; unknown values are omitted, never written as 0. `daily` and `projects` are
 * always present.
 */

import type { CostGroup, GroupBy, WeekStart } from '../cost/groups.js';
import type { CostDay, CostModelRow, CostReport, CostTotals, KindTotals } from '../cost/types.js';
import { USAGE_KIND_BUCKETS } from '../cost/types.js';
import { errorBody } from '../errors.js';

export type CostRow = Record<string, unknown>;

/** `--by`: how the report is grouped, and the groups. */
export interface CostGrouping {
  by: GroupBy;
  weekStart: WeekStart;
  groups: readonly CostGroup[];
}

/** `account`: the token-account label; `grouping`: `--by`. Both additive. */
export function costRow(
  report: CostReport,
  extras: { account?: string; grouping?: CostGrouping } = {},
): CostRow {
  const { account, grouping } = extras;
  const row: CostRow = {
    provider: 'cursor',
    account,
    source: 'web',
    updatedAt: report.generatedAt,
    currencyCode: 'USD',
    sessionTokens: known(report.today.tokens),
    sessionCostUSD: known(report.today.costUSD),
    historyDays: report.window.historyDays,
    historyCoverageIsEstablished: true,
    // The name is fixed, but the window is historyDays.
    last30DaysTokens: known(report.totals.totalTokens),
    last30DaysCostUSD: known(report.totals.costUSD),
    meteredCostUSD: known(report.meteredCostUSD),
    daily: report.daily.map(dailyEntry),
    projects: [],
    totals: totalsObject(report),
    provenance: report.provenance,
    coverage: coverageObject(report),
    window: { start: report.window.start, end: report.window.end, timeZone: report.window.timeZone },
    apiRateCostUSD: known(report.totals.costUSD),
    byModel: report.byModel.map(modelEntry),
    byKind: Object.fromEntries(
      USAGE_KIND_BUCKETS.map((bucket) => [bucket, kindEntry(report.byKind[bucket])]),
    ),
    requestCounts: { ...requestCountsObject(report.requestCounts), ...skippedField(report.skippedEvents) },
  };
  // Only a weaker check is worth a field: a run verified by count and totals prints what a cold run would.
  if (report.storedRanges && report.storedRanges.countOnly > 0) {
    const { used, countOnly } = report.storedRanges;
    row.storedRanges = { used, checkedByCountOnly: countOnly };
  }
  if (grouping) {
    row.groupBy = grouping.by;
    if (grouping.by === 'week') row.weekStart = grouping.weekStart;
    row.groups = grouping.groups.map(groupEntry);
  }
  return row;
}

/** An additive `groups[]` entry: the group's figures and its models (unknown values omitted). */
function groupEntry(group: CostGroup): Record<string, unknown> {
  return {
    key: group.key,
    firstDay: group.firstDay,
    lastDay: group.lastDay,
    ...tokenFields(group),
    apiRateCostUSD: known(group.costUSD),
    meteredCostUSD: known(group.meteredUSD),
    requests: group.requestCount,
    models: group.models.map((model) => ({
      modelName: model.modelName,
      ...tokenFields(model),
      apiRateCostUSD: known(model.costUSD),
      meteredCostUSD: known(model.meteredUSD),
      requests: model.requestCount,
    })),
  };
}

/** The error row carries `updatedAt` (the time of the error) and no `kind`; `source` is `byok` for the ledger. */
export function costErrorRow(
  error: unknown,
  at: Date,
  account?: string,
  source: 'web' | 'byok' = 'web',
): CostRow {
  return {
    provider: 'cursor',
    account,
    source,
    updatedAt: at,
    daily: [],
    projects: [],
    error: errorBody(error, false),
  };
}

function known(value: number | null): number | undefined {
  return value === null ? undefined : value;
}

/** For Cursor, cacheCreation = cache-write tokens and cost = the API-rate cost. */
function dailyEntry(day: CostDay): Record<string, unknown> {
  return {
    date: day.date,
    ...tokenFields(day),
    totalCost: known(day.costUSD),
    modelsUsed: day.modelsUsed.length > 0 ? day.modelsUsed : undefined,
    modelBreakdowns:
      day.models.length > 0
        ? day.models.map((model) => ({
            modelName: model.modelName,
            cost: known(model.costUSD),
            totalTokens: known(model.totalTokens),
          }))
        : undefined,
  };
}

function tokenFields(source: Omit<CostTotals, 'costUSD'>): Record<string, number | undefined> {
  return {
    inputTokens: known(source.inputTokens),
    outputTokens: known(source.outputTokens),
    cacheReadTokens: known(source.cacheReadTokens),
    cacheCreationTokens: known(source.cacheCreationTokens),
    totalTokens: known(source.totalTokens),
  };
}

/** Summed over `daily`; with no days CodexBar carries only totalTokens/totalCost. */
function totalsObject(report: CostReport): Record<string, unknown> {
  const { totals } = report;
  if (report.daily.length === 0) {
    return { totalTokens: known(totals.totalTokens), totalCost: known(totals.costUSD) };
  }
  return {
    ...tokenFields(totals),
    totalCost: known(totals.costUSD),
    provenance: report.provenance,
    coverage: coverageObject(report),
  };
}

function coverageObject(report: CostReport): Record<string, number> {
  const { priced, unpriced, unmetered, estimated } = report.coverage;
  return { priced, unpriced, unmetered, estimated };
}

function modelEntry(model: CostModelRow): Record<string, unknown> {
  return {
    modelName: model.modelName,
    apiRateCostUSD: known(model.costUSD),
    meteredCostUSD: known(model.meteredUSD),
    ...tokenFields(model),
    requests: model.requestCount,
    requestCounts: requestCountsObject(model.requestCounts),
  };
}

function kindEntry(kind: KindTotals): Record<string, unknown> {
  return {
    requests: kind.requests,
    totalTokens: known(kind.totalTokens),
    apiRateCostUSD: known(kind.costUSD),
    meteredCostUSD: known(kind.meteredUSD),
  };
}

/** Present only when events were skipped, so a clean report keeps its shape. */
function skippedField(skipped: number): { skipped?: number } {
  return skipped > 0 ? { skipped } : {};
}

function requestCountsObject(counts: CostReport['requestCounts']): Record<string, number> {
  return { reported: counts.reported, estimated: counts.estimated, unpriced: counts.unpriced };
}

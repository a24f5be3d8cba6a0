/**
 * Report shapes: the window's figures grouped by day, week, month, model or billing
 * kind, for `--by`. Pure: a CostReport in, groups out. Weeks and months are unions of the report's days, so
 * their sums follow the day rules and add up to the window total. `--by conversation` (BYOK only) groups
 * one report per conversation, each summed like the window.
 */

import { addCivilDays, type CivilDate, formatDayKey } from '../lib/time-zone.js';
import { allKnown, compareModelRows, type RankedRow, sumKnown, sumTokens } from './sums.js';
import type { CostModelRow, CostReport, TokenTotals } from './types.js';
import { USAGE_KIND_BUCKETS } from './types.js';

export const GROUP_BYS = ['day', 'week', 'month', 'model', 'kind', 'conversation'] as const;
export type GroupBy = (typeof GROUP_BYS)[number];
export const WEEK_STARTS = ['monday', 'sunday'] as const;
export type WeekStart = (typeof WEEK_STARTS)[number];
export const ORDERS = ['asc', 'desc'] as const;
export type Order = (typeof ORDERS)[number];

export interface CostGroup extends TokenTotals {
  /**
   * A day `2026-11-30`, a week's first day `2026-11-23`, a month `2026-11`, a model name, a kind bucket or a
   * conversation key.
   */
  key: string;
  /** For time groups: the first and last day of the window the group covers (a week can start before it). */
  firstDay?: string;
  lastDay?: string;
  costUSD: number | null;
  meteredUSD: number | null;
  /** Counted requests: a kind's include its events without tokens, the others are token events. */
  requestCount: number;
  /** Per model within the group, sorted like a day's models; a model group holds itself. */
  models: CostModelRow[];
}

export interface GroupOptions {
  by: GroupBy;
  weekStart: WeekStart;
  /** Default: time groups oldest first (asc), models and kinds most expensive first (desc). */
  order?: Order;
  /** `--by conversation`: a report per conversation key (src/cost/byok/report.ts). */
  conversations?: ReadonlyMap<string, CostReport>;
}

export function groupReport(report: CostReport, options: GroupOptions): CostGroup[] {
  const groups = rawGroups(report, options);
  const time = options.by === 'day' || options.by === 'week' || options.by === 'month';
  const order = options.order ?? (time ? 'asc' : 'desc');
  // Time groups by key; models and kinds by cost, like a day's models.
  const ascending = time
    ? groups.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    : groups.sort((a, b) => compareModelRows(asRow(b), asRow(a)));
  return order === 'asc' ? ascending : ascending.reverse();
}

function rawGroups(report: CostReport, options: GroupOptions): CostGroup[] {
  switch (options.by) {
    case 'day':
      return report.daily.map((day) => ({
        ...tokens(day),
        key: day.date,
        firstDay: day.date,
        lastDay: day.date,
        costUSD: day.costUSD,
        meteredUSD: day.meteredUSD,
        requestCount: day.requestCount,
        models: day.models,
      }));
    case 'week':
    case 'month':
      return timeGroups(report, options.by === 'week' ? weekKey(options.weekStart) : monthKey);
    case 'model':
      return report.byModel.map((model) => ({
        ...tokens(model),
        key: model.modelName,
        costUSD: model.costUSD,
        meteredUSD: model.meteredUSD,
        requestCount: model.requestCount,
        models: [model],
      }));
    case 'kind':
      return USAGE_KIND_BUCKETS.filter((bucket) => report.byKind[bucket].requests > 0).map((bucket) => {
        const kind = report.byKind[bucket];
        return {
          ...sumTokens(kind.models),
          key: bucket,
          costUSD: kind.costUSD,
          meteredUSD: kind.meteredUSD,
          requestCount: kind.requests,
          models: kind.models,
        };
      });
    case 'conversation':
      return conversationGroups(options.conversations ?? new Map());
  }
}

/** One group per conversation with token requests: its window figures, like a model group's. */
function conversationGroups(conversations: ReadonlyMap<string, CostReport>): CostGroup[] {
  return [...conversations]
    .filter(([, report]) => report.byModel.length > 0)
    .map(([key, report]) => ({
      ...tokens(report.totals),
      key,
      costUSD: report.totals.costUSD,
      meteredUSD: report.meteredCostUSD,
      requestCount: report.byModel.reduce((sum, model) => sum + model.requestCount, 0),
      models: report.byModel,
    }));
}

function tokens(source: TokenTotals): TokenTotals {
  const { inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens, totalTokens } = source;
  return { inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens, totalTokens };
}

/** Days grouped by `keyOf`, each group summed by the window-total rules. */
function timeGroups(report: CostReport, keyOf: (day: CivilDate) => string): CostGroup[] {
  const byKey = new Map<string, CostReport['daily']>();
  for (const day of report.daily) {
    const key = keyOf(civilDate(day.date));
    const days = byKey.get(key);
    if (days) days.push(day);
    else byKey.set(key, [day]);
  }
  return [...byKey].map(([key, days]) => ({
    ...sumTokens(days),
    key,
    firstDay: days[0]!.date,
    lastDay: days[days.length - 1]!.date,
    costUSD: sumKnown(days.map((day) => day.costUSD)),
    meteredUSD: allKnown(days.map((day) => day.meteredUSD)),
    requestCount: days.reduce((sum, day) => sum + day.requestCount, 0),
    models: mergeModels(days.flatMap((day) => day.models)),
  }));
}

/**
 * One row per model over several days. A cost an invalid value made unknown stays unknown for good; a day
 * with no known cost adds nothing; metered is known only when every day's is.
 */
function mergeModels(rows: readonly CostModelRow[]): CostModelRow[] {
  const byName = new Map<string, CostModelRow[]>();
  for (const row of rows) {
    const same = byName.get(row.modelName);
    if (same) same.push(row);
    else byName.set(row.modelName, [row]);
  }
  return [...byName]
    .map(([modelName, parts]): CostModelRow => {
      const invalid = parts.some((part) => part.invalidReportedCost);
      return {
        modelName,
        ...sumTokens(parts),
        costUSD: invalid ? null : sumKnown(parts.map((part) => part.costUSD)),
        meteredUSD: allKnown(parts.map((part) => part.meteredUSD)),
        requestCount: parts.reduce((sum, part) => sum + part.requestCount, 0),
        requestCounts: {
          reported: parts.reduce((sum, part) => sum + part.requestCounts.reported, 0),
          estimated: parts.reduce((sum, part) => sum + part.requestCounts.estimated, 0),
          unpriced: parts.reduce((sum, part) => sum + part.requestCounts.unpriced, 0),
        },
        invalidReportedCost: invalid,
      };
    })
    .sort(compareModelRows);
}

function civilDate(key: string): CivilDate {
  const [year, month, day] = key.split('-').map(Number) as [number, number, number];
  return { year, month, day };
}

/** The first day of the date's week: Monday (ISO) or Sunday. */
function weekKey(start: WeekStart): (date: CivilDate) => string {
  return (date) => {
    const weekday = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
    const back = start === 'sunday' ? weekday : (weekday + 6) % 7;
    return formatDayKey(addCivilDays(date, -back));
  };
}

function monthKey(date: CivilDate): string {
  return formatDayKey(date).slice(0, 7);
}

/** A group ranked as a model row is (cost, tokens, then its key as the name). */
function asRow(group: CostGroup): RankedRow {
  return { modelName: group.key, costUSD: group.costUSD, totalTokens: group.totalTokens };
}

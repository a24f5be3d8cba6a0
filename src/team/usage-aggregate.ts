/**
 * Daily usage rows summed per day and per member. Pure: rows in, a report
 * out. Rows are placed on Cursor's own day (`day`, else the UTC date of `date`); a counter that is
 * missing or malformed in any row makes every sum it enters unknown, never 0.
 */

import { DAILY_USAGE_ENDPOINT } from '../api/admin/endpoints.js';
import { DAILY_METRICS, type DailyMetric, type DailyUsageRow } from '../api/admin/schemas/daily-usage.js';
import type { CostWindow } from '../cost/types.js';
import { PaginationError, ParseError } from '../errors.js';
import { civilDateAt, formatDayKey } from '../lib/time-zone.js';

export type Metrics = Record<DailyMetric, number | null>;

export interface UsageRow {
  date: string;
  member: string;
  isActive: boolean;
  metrics: Metrics;
  mostUsedModel?: string;
  clientVersion?: string;
}

export interface DayUsage {
  date: string;
  /** Members with a row that day, and those of them marked active. */
  members: number;
  activeMembers: number;
  metrics: Metrics;
  /** Included + usage-based + API-key requests. */
  requests: number | null;
}

export interface MemberUsage {
  member: string;
  days: number;
  activeDays: number;
  metrics: Metrics;
  requests: number | null;
  /** The model most often named as the day's most used, over the member's active days. */
  mostUsedModel?: string;
}

export interface TeamUsageReport {
  window: CostWindow;
  generatedAt: Date;
  days: DayUsage[];
  members: MemberUsage[];
  totals: { activeMembers: number; metrics: Metrics; requests: number | null };
  /** The de-duplicated rows, sorted by day then member (CSV prints these). */
  rows: UsageRow[];
  requests: number;
}

const DAY_KEY = /^\d{4}-\d{2}-\d{2}$/;

function emptyMetrics(): Metrics {
  return Object.fromEntries(DAILY_METRICS.map((metric) => [metric, 0])) as Metrics;
}

function addMetrics(into: Metrics, from: Metrics): void {
  for (const metric of DAILY_METRICS) {
    const a = into[metric];
    const b = from[metric];
    into[metric] = a === null || b === null ? null : a + b;
  }
}

function requestsOf(metrics: Metrics): number | null {
  const { subscriptionIncludedReqs: a, usageBasedReqs: b, apiKeyReqs: c } = metrics;
  return a === null || b === null || c === null ? null : a + b + c;
}

function dayOf(row: DailyUsageRow): string {
  if (row.day !== undefined && DAY_KEY.test(row.day)) return row.day;
  if (row.date !== undefined) return new Date(row.date).toISOString().slice(0, 10);
  throw new ParseError(DAILY_USAGE_ENDPOINT, 'a row has neither day nor date');
}

function memberOf(row: DailyUsageRow): string {
  if (row.email) return row.email;
  if (row.userId !== undefined) return `user ${row.userId}`;
  return '(unknown member)';
}

function normaliseRow(row: DailyUsageRow): UsageRow {
  const metrics = {} as Metrics;
  for (const metric of DAILY_METRICS) {
    const value = row[metric];
    metrics[metric] = value === undefined || value < 0 ? null : value;
  }
  const normalised: UsageRow = {
    date: dayOf(row),
    member: memberOf(row),
    isActive: row.isActive === true,
    metrics,
  };
  if (row.mostUsedModel) normalised.mostUsedModel = row.mostUsedModel;
  if (row.clientVersion) normalised.clientVersion = row.clientVersion;
  return normalised;
}

function topModel(counts: Map<string, number>): string | undefined {
  let best: string | undefined;
  let bestCount = 0;
  for (const [model, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== undefined && model < best)) {
      best = model;
      bestCount = count;
    }
  }
  return best;
}

export interface AggregateUsageOptions {
  window: CostWindow;
  generatedAt: Date;
  /** `--member <email>`, compared without regard to case. */
  member?: string;
  requests: number;
}

/**
 * Rows outside the window's local days are dropped; a row repeated for the same day and member (two
 * pieces that both returned it) counts once, and two different rows for one day and member fail closed.
 */
export function aggregateDailyUsage(
  raw: readonly DailyUsageRow[],
  options: AggregateUsageOptions,
): TeamUsageReport {
  const { window } = options;
  const firstDay = formatDayKey(civilDateAt(window.start.getTime(), window.timeZone));
  const lastDay = formatDayKey(civilDateAt(window.end.getTime(), window.timeZone));
  const wanted = options.member?.trim().toLowerCase();
  const unique = new Map<string, { row: UsageRow; text: string }>();
  for (const source of raw) {
    const row = normaliseRow(source);
    if (row.date < firstDay || row.date > lastDay) continue;
    if (wanted !== undefined && row.member.toLowerCase() !== wanted) continue;
    const key = `${row.date}\u0000${row.member}`;
    const text = JSON.stringify(row);
    const earlier = unique.get(key);
    if (earlier && earlier.text !== text) {
      throw new PaginationError(
        'pagination_inconsistent',
        `Cursor daily usage sent two different rows for one member on ${row.date} (${DAILY_USAGE_ENDPOINT}).`,
      );
    }
    unique.set(key, { row, text });
  }
  const rows = [...unique.values()]
    .map((entry) => entry.row)
    .sort((a, b) => (a.date === b.date ? (a.member < b.member ? -1 : 1) : a.date < b.date ? -1 : 1));

  const days = new Map<string, DayUsage>();
  const members = new Map<string, MemberUsage & { models: Map<string, number> }>();
  const totals = emptyMetrics();
  const activeMembers = new Set<string>();
  for (const row of rows) {
    let day = days.get(row.date);
    if (!day) {
      day = { date: row.date, members: 0, activeMembers: 0, metrics: emptyMetrics(), requests: null };
      days.set(row.date, day);
    }
    day.members++;
    if (row.isActive) day.activeMembers++;
    addMetrics(day.metrics, row.metrics);

    let member = members.get(row.member);
    if (!member) {
      member = {
        member: row.member,
        days: 0,
        activeDays: 0,
        metrics: emptyMetrics(),
        requests: null,
        models: new Map(),
      };
      members.set(row.member, member);
    }
    member.days++;
    if (row.isActive) {
      member.activeDays++;
      activeMembers.add(row.member);
      if (row.mostUsedModel)
        member.models.set(row.mostUsedModel, (member.models.get(row.mostUsedModel) ?? 0) + 1);
    }
    addMetrics(member.metrics, row.metrics);
    addMetrics(totals, row.metrics);
  }

  const memberList: MemberUsage[] = [...members.values()].map(({ models, ...member }) => {
    const result: MemberUsage = { ...member, requests: requestsOf(member.metrics) };
    const model = topModel(models);
    if (model) result.mostUsedModel = model;
    return result;
  });
  memberList.sort((a, b) => (b.requests ?? -1) - (a.requests ?? -1) || (a.member < b.member ? -1 : 1));
  return {
    window,
    generatedAt: options.generatedAt,
    days: [...days.values()].map((day) => ({ ...day, requests: requestsOf(day.metrics) })),
    members: memberList,
    totals: { activeMembers: activeMembers.size, metrics: totals, requests: requestsOf(totals) },
    rows,
    requests: options.requests,
  };
}

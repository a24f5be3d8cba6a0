/**
 * `team usage` output: summary lines, a per-day and a per-member table; a JSON
 * row with the sums; or CSV with one line per member and day. Unknown sums print `—`, never 0.
 */
import { DAILY_METRICS } from '../api/admin/schemas/daily-usage.js';
import type { DayUsage, MemberUsage, Metrics, TeamUsageReport, UsageRow } from '../team/usage-aggregate.js';
import { palette } from './colour.js';
import { type CsvColumn, encodeCsvColumns } from './csv.js';
import { formatCount, UNKNOWN } from './format.js';
import { renderTeamTable, type TeamColumn } from './team-table.js';

interface Figures {
  metrics: Metrics;
  requests: number | null;
}

const FIGURE_COLUMNS: TeamColumn<Figures>[] = [
  { head: 'Requests', numeric: true, value: (f) => formatCount(f.requests) },
  { head: 'Included', numeric: true, value: (f) => formatCount(f.metrics.subscriptionIncludedReqs) },
  { head: 'Usage-based', numeric: true, value: (f) => formatCount(f.metrics.usageBasedReqs) },
  { head: 'API key', numeric: true, value: (f) => formatCount(f.metrics.apiKeyReqs) },
  { head: 'Lines accepted', numeric: true, value: (f) => formatCount(f.metrics.acceptedLinesAdded) },
  { head: 'Tabs accepted', numeric: true, value: (f) => formatCount(f.metrics.totalTabsAccepted) },
];

export function renderUsageText(report: TeamUsageReport, options: { colour: boolean }): string {
  const c = palette(options.colour);
  const { totals } = report;
  const m = totals.metrics;
  const summary = [
    c.bold.cyan(`Cursor Team Usage (${report.window.label})`),
    `Active members: ${formatCount(totals.activeMembers)} · requests: ${formatCount(totals.requests)} ` +
      `(${formatCount(m.subscriptionIncludedReqs)} included · ${formatCount(m.usageBasedReqs)} usage-based · ` +
      `${formatCount(m.apiKeyReqs)} API key)`,
    `Lines accepted: ${formatCount(m.acceptedLinesAdded)} · tabs accepted: ${formatCount(m.totalTabsAccepted)}`,
    "From the Admin API's daily usage, on Cursor's days (UTC).",
  ].join('\n');
  if (report.rows.length === 0) return `${summary}\n\nNo daily usage in this window.`;

  const dayTable = renderTeamTable<DayUsage>(
    [
      { head: 'Date', value: (d) => d.date },
      { head: 'Active', numeric: true, value: (d) => formatCount(d.activeMembers) },
      ...FIGURE_COLUMNS,
    ],
    report.days,
    {
      colour: options.colour,
      total: ['Total', formatCount(totals.activeMembers), ...FIGURE_COLUMNS.map((col) => col.value(totals))],
    },
  );
  const memberTable = renderTeamTable<MemberUsage>(
    [
      { head: 'Member', value: (u) => u.member },
      { head: 'Active days', numeric: true, value: (u) => formatCount(u.activeDays) },
      ...FIGURE_COLUMNS,
      { head: 'Top model', value: (u) => u.mostUsedModel ?? UNKNOWN },
    ],
    report.members,
    { colour: options.colour },
  );
  return [summary, `By day:\n${dayTable}`, `By member:\n${memberTable}`].join('\n\n');
}

function metricFields(metrics: Metrics): Record<string, number | undefined> {
  return Object.fromEntries(DAILY_METRICS.map((metric) => [metric, metrics[metric] ?? undefined]));
}

export function usageJsonRow(report: TeamUsageReport): Record<string, unknown> {
  const { window, totals } = report;
  return {
    provider: 'cursor',
    source: 'admin-api',
    updatedAt: report.generatedAt,
    window: { start: window.start, end: window.end, timeZone: window.timeZone },
    historyDays: window.historyDays,
    requestsSent: report.requests,
    totals: {
      activeMembers: totals.activeMembers,
      requests: totals.requests ?? undefined,
      ...metricFields(totals.metrics),
    },
    daily: report.days.map((day) => ({
      date: day.date,
      members: day.members,
      activeMembers: day.activeMembers,
      requests: day.requests ?? undefined,
      ...metricFields(day.metrics),
    })),
    members: report.members.map((member) => ({
      member: member.member,
      days: member.days,
      activeDays: member.activeDays,
      requests: member.requests ?? undefined,
      mostUsedModel: member.mostUsedModel,
      ...metricFields(member.metrics),
    })),
  };
}

const USAGE_CSV: CsvColumn<UsageRow>[] = [
  ['date', (row) => row.date],
  ['member', (row) => row.member],
  ['isActive', (row) => row.isActive],
  ...DAILY_METRICS.map((metric): CsvColumn<UsageRow> => [metric, (row) => row.metrics[metric]]),
  ['mostUsedModel', (row) => row.mostUsedModel],
  ['clientVersion', (row) => row.clientVersion],
];

export function renderUsageCsv(report: TeamUsageReport): string {
  return encodeCsvColumns(USAGE_CSV, report.rows);
}

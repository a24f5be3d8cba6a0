/**
 * `team cost` output: the team-wide report through `cost`'s own renderers
 * (summary lines, per-day table, kinds, notes, chart), then the token fee and a per-member table; the
 * `cost` JSON row plus `tokenFeeUSD` and `byMember`; or CSV with one line per day, member and model.
 */
import type { CostModelRow } from '../cost/types.js';
import type { MemberCost, TeamCostReport } from '../team/cost.js';
import { costRow } from './cost-json.js';
import { type CostTextOptions, renderCostText } from './cost-text.js';
import { type CsvColumn, encodeCsvColumns } from './csv.js';
import { formatCount, formatUSD } from './format.js';
import { renderTeamTable, type TeamColumn } from './team-table.js';

export type TeamCostTextOptions = Omit<CostTextOptions, 'heading' | 'account' | 'table'>;

const HEADING = {
  title: 'Cursor Team Cost (API-rate estimate)',
  hint: "From the Admin API's usage events at vendor token rates; may differ from your invoice.",
};

export function renderTeamCostText(report: TeamCostReport, options: TeamCostTextOptions): string {
  const blocks = [renderCostText(report.team, { ...options, heading: HEADING })];
  if (report.team.eventCount === 0) return blocks[0]!;
  if (report.tokenFeeUSD !== null) {
    blocks.push(`Cursor token fee: ${formatUSD(report.tokenFeeUSD)} (part of Cursor-metered)`);
  }
  const withFee = report.tokenFeeUSD !== null;
  const columns: TeamColumn<MemberCost>[] = [
    { head: 'Member', value: (m) => m.member },
    { head: 'Requests', numeric: true, value: (m) => formatCount(m.report.eventCount) },
    { head: 'Total tokens', numeric: true, value: (m) => formatCount(m.report.totals.totalTokens) },
    { head: 'API-rate $', numeric: true, value: (m) => formatUSD(m.report.totals.costUSD) },
    { head: 'Metered $', numeric: true, value: (m) => formatUSD(m.report.meteredCostUSD) },
  ];
  if (withFee) columns.push({ head: 'Token fee $', numeric: true, value: (m) => formatUSD(m.tokenFeeUSD) });
  const whole: MemberCost = { member: 'Total', report: report.team, tokenFeeUSD: report.tokenFeeUSD };
  const total = columns.map((column) => column.value(whole));
  blocks.push(`By member:\n${renderTeamTable(columns, report.members, { colour: options.colour, total })}`);
  return blocks.join('\n\n');
}

const MEMBER_FIELDS = ['apiRateCostUSD', 'meteredCostUSD', 'byModel', 'byKind', 'requestCounts'] as const;

function memberEntry(member: MemberCost): Record<string, unknown> {
  const row = costRow(member.report);
  const entry: Record<string, unknown> = {
    member: member.member,
    requests: member.report.eventCount,
    totalTokens: member.report.totals.totalTokens ?? undefined,
    tokenFeeUSD: member.tokenFeeUSD ?? undefined,
  };
  for (const field of MEMBER_FIELDS) entry[field] = row[field];
  return entry;
}

export function teamCostJsonRow(report: TeamCostReport): Record<string, unknown> {
  return {
    ...costRow(report.team),
    source: 'admin-api',
    tokenFeeUSD: report.tokenFeeUSD ?? undefined,
    byMember: report.members.map(memberEntry),
  };
}

type CsvLine = { date: string; member: string; model: CostModelRow };

const TEAM_COST_CSV: CsvColumn<CsvLine>[] = [
  ['date', (line) => line.date],
  ['member', (line) => line.member],
  ['model', (line) => line.model.modelName],
  ['requests', (line) => line.model.requestCount],
  ['inputTokens', (line) => line.model.inputTokens],
  ['outputTokens', (line) => line.model.outputTokens],
  ['cacheWriteTokens', (line) => line.model.cacheCreationTokens],
  ['cacheReadTokens', (line) => line.model.cacheReadTokens],
  ['totalTokens', (line) => line.model.totalTokens],
  ['apiRateCostUSD', (line) => line.model.costUSD],
  ['meteredCostUSD', (line) => line.model.meteredUSD],
];

export function renderTeamCostCsv(report: TeamCostReport): string {
  const lines: CsvLine[] = [];
  for (const member of report.members) {
    for (const day of member.report.daily) {
      for (const model of day.models) lines.push({ date: day.date, member: member.member, model });
    }
  }
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  lines.sort(
    (a, b) =>
      order(a.date, b.date) || order(a.member, b.member) || order(a.model.modelName, b.model.modelName),
  );
  return encodeCsvColumns(TEAM_COST_CSV, lines);
}

/**
 * `team spend` output: a table sorted as asked, CodexBar-style JSON row, or CSV.
 * Unknown figures print `—` in text and are left out of JSON and CSV, never shown as 0.
 */

import { errorBody } from '../errors.js';
import { civilDateAt, formatDayKey } from '../lib/time-zone.js';
import type { MemberSpend, SelectedSpend, SpendReport } from '../team/spend.js';
import { palette } from './colour.js';
import { type CsvColumn, encodeCsvColumns } from './csv.js';
import { formatCount, formatFixed, formatUSD, UNKNOWN } from './format.js';
import { renderTeamTable, type TeamColumn } from './team-table.js';

export interface SpendView {
  report: SpendReport;
  selected: SelectedSpend;
  over?: number;
}

export function renderSpendText(view: SpendView, options: { colour: boolean; timeZone: string }): string {
  const c = palette(options.colour);
  const { report, selected, over } = view;
  const cycle =
    report.cycleStart === null
      ? 'this cycle'
      : `cycle since ${formatDayKey(civilDateAt(report.cycleStart.getTime(), options.timeZone))}`;
  const lines = [
    c.bold.cyan(`Cursor Team Spend (${cycle})`),
    `Spend: ${formatUSD(report.spendUSD)} on-demand · ${formatUSD(report.totalUSD)} in total · ` +
      `${formatCount(report.totalMembers)} member${report.totalMembers === 1 ? '' : 's'}`,
    'Spend is on-demand spend, measured against each limit; Total adds what the plan includes.',
  ];
  if (over !== undefined) {
    const count = selected.overCount;
    lines.push(
      count === 0
        ? `No member is over ${formatFixed(over, 0)}% of their limit.`
        : c.yellow(
            `${formatCount(count)} member${count === 1 ? ' is' : 's are'} over ${formatFixed(over, 0)}% of their limit.`,
          ),
    );
  }
  if (selected.members.length === 0) return lines.join('\n');
  const percentCell = ({ percentOfLimit: percent }: MemberSpend) => {
    if (percent === null) return UNKNOWN;
    const text = `${formatFixed(percent, 1)}%`;
    return percent >= 100 ? c.red(text) : percent >= 80 ? c.yellow(text) : text;
  };
  const columns: TeamColumn<MemberSpend>[] = [
    { head: 'Name', value: (m) => m.name ?? UNKNOWN },
    { head: 'Email', value: (m) => m.email ?? UNKNOWN },
    { head: 'Role', value: (m) => m.role ?? UNKNOWN },
    { head: 'Spend', numeric: true, value: (m) => formatUSD(m.spendUSD) },
    { head: 'Total', numeric: true, value: (m) => formatUSD(m.totalUSD) },
    { head: 'Limit', numeric: true, value: (m) => (m.limitUSD === null ? 'none' : formatUSD(m.limitUSD)) },
    { head: '% of limit', numeric: true, value: percentCell },
  ];
  const shown = selected.members.length;
  const table = renderTeamTable(columns, selected.members, { colour: options.colour });
  const more = shown < (over === undefined ? report.totalMembers : selected.overCount);
  return [...lines, '', table, ...(more ? [`Showing ${formatCount(shown)} (--limit).`] : [])].join('\n');
}

const known = (value: number | null): number | undefined => (value === null ? undefined : value);

function memberEntry(member: MemberSpend): Record<string, unknown> {
  return {
    name: member.name,
    email: member.email,
    role: member.role,
    spendUSD: known(member.spendUSD),
    totalSpendUSD: known(member.totalUSD),
    limitUSD: known(member.limitUSD),
    percentOfLimit: known(member.percentOfLimit),
    fastPremiumRequests: member.fastPremiumRequests,
  };
}

export function spendJsonRow(view: SpendView): Record<string, unknown> {
  const { report, selected, over } = view;
  return {
    provider: 'cursor',
    source: 'admin-api',
    updatedAt: report.generatedAt,
    subscriptionCycleStart: report.cycleStart ?? undefined,
    totalMembers: report.totalMembers,
    spendUSD: known(report.spendUSD),
    totalSpendUSD: known(report.totalUSD),
    over: over === undefined ? undefined : { percent: over, count: selected.overCount },
    members: selected.members.map(memberEntry),
  };
}

const SPEND_CSV: CsvColumn<MemberSpend>[] = [
  ['name', (m) => m.name],
  ['email', (m) => m.email],
  ['role', (m) => m.role],
  ['spendUSD', (m) => m.spendUSD],
  ['totalSpendUSD', (m) => m.totalUSD],
  ['limitUSD', (m) => m.limitUSD],
  ['percentOfLimit', (m) => m.percentOfLimit],
  ['fastPremiumRequests', (m) => m.fastPremiumRequests],
];

export function renderSpendCsv(view: SpendView): string {
  return encodeCsvColumns(SPEND_CSV, view.selected.members);
}

/** The JSON error row of every `team` subcommand. */
export function teamErrorRow(error: unknown, at: Date): Record<string, unknown> {
  return { provider: 'cursor', source: 'admin-api', updatedAt: at, error: errorBody(error) };
}

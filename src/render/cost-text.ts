/**
 * `cost` text: CodexBar's summary lines, then the per-day (or `--by`) table, our additive
 * totals (by kind, request counts) with notes on estimated or unpriced requests, and — on a TTY — a
 * daily-spend chart. Returns the text without a trailing newline.
 */

import type { ChalkInstance } from 'chalk';
import { groupReport } from '../cost/groups.js';
import { type CostReport, type KindTotals, USAGE_KIND_BUCKETS } from '../cost/types.js';
import { renderDailyChart } from './chart.js';
import { palette } from './colour.js';
import { type CostTableOptions, KIND_LABELS, renderCostTable, type TableGroups } from './cost-table.js';
import { formatCount, formatTokens, formatUSD } from './format.js';
import { displayName, safeText } from './safe-text.js';

export interface CostTextOptions extends CostTableOptions {
  /** Whether stdout is a TTY; the chart is only drawn for terminals. */
  isTTY: boolean;
  /** The first line and the source hint, for reports that do not come from the dashboard (`team cost`). */
  heading?: SummaryHeading;
  /** The token account the report belongs to, shown under the header. */
  account?: string;
  /** The table's rows: the groups `--by` asked for; default the days. */
  table?: TableGroups;
  /**
   * Who reported the costs the aggregator counts as `reported`: Cursor (default), or for the BYOK ledger the
   * provider (`provider-reported`; no By kind lines, every request being BYOK).
   */
  reportedBy?: 'cursor' | 'provider';
  /** Appended to the window's total line: what the total leaves out. */
  totalNote?: string;
  /** Lines after the notes, also under an empty window (the BYOK counts and cross-check). */
  extraLines?: readonly string[];
  /** Instead of "No usage events in this window." */
  emptyText?: string;
}

export interface SummaryHeading {
  title: string;
  hint: string;
}

const DASHBOARD_HEADING: SummaryHeading = {
  title: 'Cursor Cost (API-rate estimate)',
  hint: "From Cursor's usage dashboard at vendor token rates; may differ from your invoice.",
};

const COMPACT_NOTE = 'Compact view: widen the terminal for the input, output and cache columns.';

export function renderCostText(report: CostReport, options: CostTextOptions): string {
  const c = palette(options.colour);
  const blocks = [costSummaryLines(report, c, options).join('\n')];
  const extra = options.extraLines ?? [];
  if (report.daily.length === 0) {
    blocks.push(options.emptyText ?? 'No usage events in this window.');
    if (extra.length > 0) blocks.push(extra.join('\n'));
    return blocks.join('\n\n');
  }
  const rows = options.table ?? {
    by: 'day',
    groups: groupReport(report, { by: 'day', weekStart: 'monday' }),
  };
  const table = renderCostTable(report, rows, options);
  // Like ccusage, say why columns went missing when the terminal, not --compact, chose the layout.
  const widthNote = table.compact && !options.compact ? `\n${COMPACT_NOTE}` : '';
  blocks.push(table.text + widthNote);
  const provider = options.reportedBy === 'provider';
  blocks.push(
    [
      ...(provider ? [] : kindLines(report)),
      requestLine(report, provider),
      ...noteLines(report, provider),
      ...extra,
    ].join('\n'),
  );
  const chart = options.isTTY ? renderDailyChart(report.daily, options) : undefined;
  if (chart) blocks.push(chart);
  return blocks.join('\n\n');
}

/** Header, Today, the window, Cursor-metered (when known) and the hint. */
function costSummaryLines(report: CostReport, c: ChalkInstance, options: CostTextOptions): string[] {
  const heading = options.heading ?? DASHBOARD_HEADING;
  const { account } = options;
  const { label } = report.window;
  const lines = [
    c.bold.cyan(heading.title),
    ...(account === undefined ? [] : [`Account: ${safeText(account)}`]),
    `Today: ${amountWithTokens(report.today.costUSD, report.today.tokens)}`,
    `${label}: ${amountWithTokens(report.totals.costUSD, report.totals.totalTokens)}${options.totalNote ?? ''}`,
  ];
  if (report.meteredCostUSD !== null) {
    lines.push(`Cursor-metered: ${formatUSD(report.meteredCostUSD)} (${label.toLowerCase()})`);
  }
  lines.push(...wrapWords(heading.hint, options.columns));
  return lines;
}

/** A line wider than the terminal breaks between words, not where the terminal cuts. */
function wrapWords(text: string, columns: number): string[] {
  if (text.length <= columns) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > columns) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  lines.push(line);
  return lines;
}

/** `$3.42 · 1.2M tokens`; an unknown cost is `—` and unknown tokens drop the second part. */
function amountWithTokens(costUSD: number | null, tokens: number | null): string {
  const amount = formatUSD(costUSD);
  return tokens === null ? amount : `${amount} · ${formatTokens(tokens)} tokens`;
}

/** Our additive split of the window by how Cursor billed each request; empty buckets are skipped. */
function kindLines(report: CostReport): string[] {
  const lines = USAGE_KIND_BUCKETS.filter((bucket) => report.byKind[bucket].requests > 0).map(
    (bucket) => `  ${KIND_LABELS[bucket]}: ${kindSummary(report.byKind[bucket])}`,
  );
  return lines.length > 0 ? ['By kind:', ...lines] : [];
}

function kindSummary(kind: KindTotals): string {
  const parts = [formatUSD(kind.costUSD)];
  if (kind.totalTokens !== null) parts.push(`${formatTokens(kind.totalTokens)} tokens`);
  parts.push(plural(kind.requests, 'request'));
  if (kind.meteredUSD !== null) parts.push(`${formatUSD(kind.meteredUSD)} metered`);
  return parts.join(' · ');
}

/** `Requests: 1,234 reported · 12 estimated at list price · 3 unpriced` (zero extras left out). */
function requestLine(report: CostReport, provider: boolean): string {
  const { reported, estimated, unpriced } = report.requestCounts;
  const parts = [`${formatCount(reported)} ${provider ? 'provider-reported' : 'reported'}`];
  if (estimated > 0) parts.push(`${formatCount(estimated)} estimated at list price`);
  if (unpriced > 0) parts.push(`${formatCount(unpriced)} unpriced`);
  return `Requests: ${parts.join(' · ')}`;
}

function noteLines(report: CostReport, provider: boolean): string[] {
  const { estimated, unpriced } = report.requestCounts;
  const who = provider ? 'the provider' : 'Cursor';
  const notes: string[] = [];
  const countOnly = report.storedRanges?.countOnly ?? 0;
  if (countOnly > 0) {
    const of = countOnly === report.storedRanges!.used ? '' : ` of ${formatCount(report.storedRanges!.used)}`;
    notes.push(
      `Note: ${formatCount(countOnly)}${of} stored range${countOnly === 1 && of === '' ? ' was' : 's were'} ` +
        'checked by event count only, which cannot see a settled event re-rated in place; ' +
        '--refresh fetches everything again.',
    );
  }
  // The ledger's skipped rows are said by its own line (extraLines).
  if (report.skippedEvents > 0 && !provider) {
    notes.push(
      `Note: ${plural(report.skippedEvents, 'event')} skipped: invalid timestamp or token counts; ` +
        `${report.skippedEvents === 1 ? 'it is' : 'they are'} left out of every figure above.`,
    );
  }
  if (estimated > 0) {
    notes.push(
      `Note: ${plural(estimated, 'request')} had no cost from ${who} and ${estimated === 1 ? 'was' : 'were'} ` +
        `estimated at list price; an estimate is not what ${who} charged.`,
    );
  }
  const invalid = report.byModel.filter((model) => model.invalidReportedCost);
  if (invalid.length > 0) {
    const names = invalid.map((model) => displayName(model.modelName, 60)).join(', ');
    notes.push(
      `Note: ${provider ? 'The provider' : 'Cursor'} reported an invalid cost for ${names}; ${invalid.length === 1 ? 'that model is' : 'those models are'} ` +
        'left out of the API-rate totals rather than counted as partial.',
    );
  }
  const unknown = report.byModel.filter(
    (model) => !model.invalidReportedCost && model.requestCounts.unpriced > 0,
  );
  const unknownRequests = unknown.reduce((sum, model) => sum + model.requestCounts.unpriced, 0);
  if (unknownRequests > 0 && unpriced > 0) {
    notes.push(
      `Note: ${plural(unknownRequests, 'request')} had no known price (${unknown.map((m) => displayName(m.modelName, 60)).join(', ')}); ` +
        `${unknownRequests === 1 ? 'its' : 'their'} cost is left out of the API-rate totals.`,
    );
  }
  return notes;
}

export function plural(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}

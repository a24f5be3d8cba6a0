/**
 * The cost table under CodexBar's cost lines: one row per group (a day by
 * default, or what `--by` asked for), optional `└─ model` breakdown rows, and a Total row. Unknown values
 * print `—`, never 0.
 *
 * Readable at any width: a group takes one line, its most expensive model plus `+N more`, and a model name
 * is never broken. The widest layout that fits is used: all columns with full model names, then with short
 * labels (src/render/model-label.ts), then the compact columns (Tokens instead of the four token kinds).
 */

import type { CostGroup, GroupBy } from '../cost/groups.js';
import type { CostReport, TokenTotals, UsageKindBucket } from '../cost/types.js';
import { palette } from './colour.js';
import { formatCount, formatTokens, formatUSD } from './format.js';
import { fullModelLabel, shortModelLabel } from './model-label.js';
import { displayName } from './safe-text.js';
import { type Alignment, displayWidth, renderTextTable } from './text-table.js';

export interface CostTableOptions {
  colour: boolean;
  /** Terminal width: the caller passes `COLUMNS` or `process.stdout.columns`. */
  columns: number;
  /** `--compact`. */
  compact: boolean;
  /** `--breakdown`: per-model rows under each group. */
  breakdown: boolean;
}

export interface TableGroups {
  by: GroupBy;
  groups: readonly CostGroup[];
}

/** Like ccusage, the compact columns below 100 terminal columns. */
const COMPACT_BELOW_COLUMNS = 100;

export interface RenderedCostTable {
  text: string;
  /** The compact layout was used. */
  compact: boolean;
}

/** The figures one table row shows; groups, models and the Total row all reduce to this. */
type RowFigures = TokenTotals & Pick<CostGroup, 'costUSD' | 'meteredUSD'>;

interface Column {
  head: string;
  value: (figures: RowFigures) => string;
}

const FULL_COLUMNS: Column[] = [
  { head: 'Input', value: (f) => formatCount(f.inputTokens) },
  { head: 'Output', value: (f) => formatCount(f.outputTokens) },
  { head: 'Cache write', value: (f) => formatCount(f.cacheCreationTokens) },
  { head: 'Cache read', value: (f) => formatCount(f.cacheReadTokens) },
  { head: 'Total tokens', value: (f) => formatCount(f.totalTokens) },
  { head: 'API-rate $', value: (f) => formatUSD(f.costUSD) },
];

const COMPACT_COLUMNS: Column[] = [
  { head: 'Tokens', value: (f) => (f.totalTokens === null ? '—' : formatTokens(f.totalTokens)) },
  { head: 'API-rate $', value: (f) => formatUSD(f.costUSD) },
];

const METERED_COLUMN: Column = { head: 'Metered $', value: (f) => formatUSD(f.meteredUSD) };

const KEY_HEADS: Record<GroupBy, string> = {
  day: 'Date',
  week: 'Week of',
  month: 'Month',
  model: 'Model',
  kind: 'Kind',
  conversation: 'Conversation',
};

/** How a billing kind is named in text (the table's Kind column and the By kind lines). */
export const KIND_LABELS: Record<UsageKindBucket, string> = {
  included: 'Included',
  onDemand: 'On-demand',
  notCharged: 'Not charged',
  byok: 'BYOK',
  other: 'Other',
};

const BRANCH = '└─ ';
const CONVERSATION_KEY_COLUMNS = 13;

/** How the Models cell says there are more models than its first. */
type More = 'words' | 'count' | 'own line';

interface Layout {
  compact: boolean;
  label: (name: string) => string;
  more: More;
}

const LAYOUTS: Layout[] = [
  { compact: false, label: fullModelLabel, more: 'words' },
  { compact: false, label: shortModelLabel, more: 'words' },
  { compact: true, label: shortModelLabel, more: 'words' },
  { compact: true, label: shortModelLabel, more: 'count' },
  { compact: true, label: shortModelLabel, more: 'own line' },
];

/** The widest layout that fits the terminal; the last one when none does (the terminal then wraps). */
export function renderCostTable(
  report: CostReport,
  table: TableGroups,
  options: CostTableOptions,
): RenderedCostTable {
  const forcedCompact = options.compact || options.columns < COMPACT_BELOW_COLUMNS;
  const layouts = LAYOUTS.filter((layout) => layout.compact || !forcedCompact);
  let text = '';
  for (const layout of layouts) {
    text = buildTable(report, table, options, layout);
    if (widestLine(text) <= options.columns) return { text, compact: layout.compact };
  }
  return { text, compact: true };
}

function keyText(by: GroupBy, group: CostGroup, layout: Layout): string {
  if (by === 'model') return layout.label(group.key);
  if (by === 'kind') return KIND_LABELS[group.key as UsageKindBucket] ?? group.key;
  // A conversation key is 32 hex digits from a file: its first 12 name it in a table (JSON and CSV keep it
  // whole), made safe like any text from a file.
  if (by === 'conversation') return displayName(group.key, CONVERSATION_KEY_COLUMNS);
  return group.key;
}

/** One line: the most expensive model, and how many more there are. */
function modelsCell(group: CostGroup, layout: Layout): string {
  const [top] = group.models;
  if (top === undefined) return '';
  const others = group.models.length - 1;
  const label = layout.label(top.modelName);
  if (others === 0) return label;
  if (layout.more === 'count') return `${label} +${others}`;
  return `${label}${layout.more === 'own line' ? '\n' : ' '}+${others} more`;
}

function buildTable(
  report: CostReport,
  table: TableGroups,
  options: CostTableOptions,
  layout: Layout,
): string {
  const c = palette(options.colour);
  const figureColumns = [...(layout.compact ? COMPACT_COLUMNS : FULL_COLUMNS)];
  // The metered column appears only when the report's metered total is known.
  if (report.meteredCostUSD !== null) figureColumns.push(METERED_COLUMN);
  const withModels = table.by !== 'model';
  const cells = (figures: RowFigures) => figureColumns.map((column) => column.value(figures));

  const rows: string[][] = [];
  for (const group of table.groups) {
    const key = keyText(table.by, group, layout);
    rows.push([key, ...(withModels ? [modelsCell(group, layout)] : []), ...cells(group)]);
    if (!options.breakdown || !withModels) continue;
    for (const model of group.models) {
      rows.push(
        ['', `${BRANCH}${layout.label(model.modelName)}`, ...cells(model)].map((cell) => c.gray(cell)),
      );
    }
  }
  const totals: RowFigures = { ...report.totals, meteredUSD: report.meteredCostUSD };
  rows.push(['Total', ...(withModels ? [''] : []), ...cells(totals)].map((cell) => c.yellow(cell)));
  const head = [
    KEY_HEADS[table.by],
    ...(withModels ? ['Models'] : []),
    ...figureColumns.map((column) => column.head),
  ];
  // Colours come from chalk only, so `colour: false` output carries no escape codes at all.
  return renderTextTable({
    head: head.map((text) => c.cyan(text)),
    rows,
    // One line per group; a rule only under the head and above the Total row.
    rules: { before: 'last', n: 1 },
    aligns: head.map(
      (_, index): Alignment => (index < head.length - figureColumns.length ? 'left' : 'right'),
    ),
  });
}

function widestLine(text: string): number {
  let widest = 0;
  for (const line of text.split('\n')) widest = Math.max(widest, displayWidth(line));
  return widest;
}

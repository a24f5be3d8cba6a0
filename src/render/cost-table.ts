/**
 * The per-day cost table under CodexBar's cost lines, laid out like ccusage's (docs/behaviour.md §21.3):
 * full columns at ≥100 terminal columns, a compact subset below that or with `--compact`, optional
 * `└─ model` breakdown rows, and a Total row. Unknown values print `—`, never 0.
 */

import type { ChalkInstance } from 'chalk';
import type { CostReport } from '../cost/types.js';
import { palette } from './colour.js';
import { formatCount, formatUSD } from './format.js';
import { displayName } from './safe-text.js';
import { type Alignment, displayWidth, renderTextTable } from './text-table.js';

export interface CostTableOptions {
  colour: boolean;
  /** Terminal width: the caller passes `COLUMNS` or `process.stdout.columns`. */
  columns: number;
  /** `--compact`. */
  compact: boolean;
  /** `--breakdown`: per-model rows under each day. */
  breakdown: boolean;
}

/** docs/behaviour.md §21.3: like ccusage, switch to the compact head below 100 columns. */
const COMPACT_BELOW_COLUMNS = 100;

export interface RenderedCostTable {
  text: string;
  /** The compact layout was used. */
  compact: boolean;
}

/** The figures one table row shows; days, models and the Total row all reduce to this. */
interface RowFigures {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheCreationTokens: number | null;
  cacheReadTokens: number | null;
  totalTokens: number | null;
  costUSD: number | null;
  meteredUSD: number | null;
}

interface Column {
  head: string;
  numeric: boolean;
  value: (figures: RowFigures) => string;
  /** Only in the full layout. */
  fullOnly?: boolean;
}

const FIGURE_COLUMNS: Column[] = [
  { head: 'Input', numeric: true, value: (f) => formatCount(f.inputTokens) },
  { head: 'Output', numeric: true, value: (f) => formatCount(f.outputTokens) },
  { head: 'Cache write', numeric: true, value: (f) => formatCount(f.cacheCreationTokens), fullOnly: true },
  { head: 'Cache read', numeric: true, value: (f) => formatCount(f.cacheReadTokens), fullOnly: true },
  { head: 'Total tokens', numeric: true, value: (f) => formatCount(f.totalTokens), fullOnly: true },
  { head: 'API-rate $', numeric: true, value: (f) => formatUSD(f.costUSD) },
];

const METERED_COLUMN: Column = { head: 'Metered $', numeric: true, value: (f) => formatUSD(f.meteredUSD) };

/**
 * Full columns when the terminal has room; the compact subset with `--compact`, below 100 columns, or
 * when the full table would still be too wide. Before giving up columns, the Models column wraps down
 * to a minimum width, as ccusage's responsive table does (docs/behaviour.md §21.3), instead of truncating.
 */
export function renderCostTable(report: CostReport, options: CostTableOptions): RenderedCostTable {
  const forcedCompact = options.compact || options.columns < COMPACT_BELOW_COLUMNS;
  const layouts = forcedCompact ? [true] : [false, true];
  let text = '';
  for (const compact of layouts) {
    text = buildTable(report, options, compact);
    const overflow = widestLine(text) - options.columns;
    if (overflow <= 0) return { text, compact };
    const modelsWidth = modelsColumnWidth(report, options.breakdown) - overflow;
    if (modelsWidth >= MIN_MODELS_WIDTH) {
      return { text: buildTable(report, options, compact, modelsWidth), compact };
    }
  }
  return { text, compact: true };
}

/** docs/behaviour.md §21.3: like ccusage, the Models column stays at least 12 wide. */
const MIN_MODELS_WIDTH = 12;

function modelsColumnWidth(report: CostReport, breakdown: boolean): number {
  let width = 'Models'.length;
  for (const day of report.daily) {
    for (const model of day.modelsUsed) width = Math.max(width, BULLET.length + modelLabel(model).length);
    if (!breakdown) continue;
    for (const model of day.models)
      width = Math.max(width, BRANCH.length + modelLabel(model.modelName).length);
  }
  return width;
}

/** docs/behaviour.md §21.3: a model name in the table is made safe and cut to 60 columns; JSON keeps it whole. */
const MODEL_LABEL_MAX = 60;

function modelLabel(name: string): string {
  return displayName(name, MODEL_LABEL_MAX);
}

const BULLET = '- ';
const BRANCH = '└─ ';

/**
 * `prefix + name`, wrapped to `width` when given: breaks after `-` or `.` where it can, hard otherwise,
 * with continuation lines indented under the name.
 */
function modelCell(prefix: string, model: string, width: number | undefined): string {
  const name = modelLabel(model);
  if (width === undefined || prefix.length + name.length <= width) return prefix + name;
  const room = Math.max(1, width - prefix.length);
  const lines: string[] = [];
  let rest = name;
  while (rest.length > room) {
    const head = rest.slice(0, room);
    const soft = Math.max(head.lastIndexOf('-'), head.lastIndexOf('.')) + 1;
    const cut = soft > 0 ? soft : room;
    lines.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  lines.push(rest);
  const indent = ' '.repeat(prefix.length);
  return lines.map((line, index) => (index === 0 ? prefix : indent) + line).join('\n');
}

function buildTable(
  report: CostReport,
  options: CostTableOptions,
  compact: boolean,
  modelsWidth?: number,
): string {
  const c = palette(options.colour);
  const figureColumns = FIGURE_COLUMNS.filter((column) => !(compact && column.fullOnly));
  // The metered column appears only when the report's metered total is known (docs/behaviour.md §19.9,
  // §21.3).
  if (report.meteredCostUSD !== null) figureColumns.push(METERED_COLUMN);

  const cells = (figures: RowFigures) => figureColumns.map((column) => column.value(figures));
  const rows: string[][] = [];
  for (const day of report.daily) {
    const models = day.modelsUsed.map((model) => modelCell(BULLET, model, modelsWidth));
    rows.push([day.date, models.join('\n'), ...cells(day)]);
    if (!options.breakdown) continue;
    for (const model of day.models) {
      const row = ['', modelCell(BRANCH, model.modelName, modelsWidth), ...cells(model)];
      rows.push(row.map((cell) => c.gray(cell)));
    }
  }
  rows.push(totalRow(c, report, cells));
  // Colours come from chalk only, so `colour: false` output carries no escape codes at all.
  return renderTextTable({
    head: ['Date', 'Models', ...figureColumns.map((column) => column.head)].map((head) => c.cyan(head)),
    rows,
    aligns: [
      'left',
      'left',
      ...figureColumns.map((column): Alignment => (column.numeric ? 'right' : 'left')),
    ],
  });
}

function widestLine(text: string): number {
  let widest = 0;
  for (const line of text.split('\n')) widest = Math.max(widest, displayWidth(line));
  return widest;
}

function totalRow(c: ChalkInstance, report: CostReport, cells: (figures: RowFigures) => string[]): string[] {
  const figures: RowFigures = { ...report.totals, meteredUSD: report.meteredCostUSD };
  return ['Total', '', ...cells(figures)].map((cell) => c.yellow(cell));
}

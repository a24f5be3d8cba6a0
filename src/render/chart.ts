/**
 * A small daily-spend bar chart for terminals: one line per day, unicode block bars scaled to the
 * most expensive day. The caller shows it only when stdout is a TTY; pipes get the table alone.
 */

import type { CostDay } from '../cost/types.js';
import { palette } from './colour.js';
import { formatUSD } from './format.js';

export interface ChartOptions {
  colour: boolean;
  columns: number;
}

// Partial blocks in eighths, so a bar's length is exact to 1/8 of a cell.
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
const FULL_BLOCK = '█';
const MIN_BAR_WIDTH = 10;
const MAX_BAR_WIDTH = 40;

/** The chart lines, or undefined when no day has a known cost above zero. */
export function renderDailyChart(days: CostDay[], options: ChartOptions): string | undefined {
  const max = Math.max(0, ...days.map((day) => day.costUSD ?? 0));
  if (days.length === 0 || max <= 0) return undefined;
  const c = palette(options.colour);
  const dateWidth = Math.max(...days.map((day) => day.date.length));
  const amounts = days.map((day) => formatUSD(day.costUSD));
  const amountWidth = Math.max(...amounts.map((amount) => amount.length));
  const barWidth = Math.min(
    MAX_BAR_WIDTH,
    Math.max(MIN_BAR_WIDTH, options.columns - dateWidth - amountWidth - 4),
  );

  const lines = [c.bold('Daily API-rate spend')];
  days.forEach((day, index) => {
    const bar = barFor(day.costUSD ?? 0, max, barWidth);
    const padding = ' '.repeat(barWidth - [...bar].length);
    lines.push(
      `${day.date.padEnd(dateWidth)}  ${c.cyan(bar)}${padding}  ${amounts[index]!.padStart(amountWidth)}`,
    );
  });
  return lines.join('\n');
}

/** A bar `cost/max` of `width` cells long; any spend above zero shows at least one eighth. */
export function barFor(cost: number, max: number, width: number): string {
  if (cost <= 0 || max <= 0) return '';
  const eighths = Math.max(1, Math.round((Math.min(cost, max) / max) * width * 8));
  return FULL_BLOCK.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8];
}

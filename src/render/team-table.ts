/**
 * The plain tables of `team spend|usage|cost`: cli-table3 with colours from chalk only (so `colour: false`
 * output has no escape codes), text columns left and figure columns right.
 */
import Table from 'cli-table3';
import { palette } from './colour.js';

export interface TeamColumn<T> {
  head: string;
  numeric?: boolean;
  value: (row: T) => string;
}

export function renderTeamTable<T>(
  columns: readonly TeamColumn<T>[],
  rows: readonly T[],
  options: { colour: boolean; total?: string[] },
): string {
  const c = palette(options.colour);
  const table = new Table({
    head: columns.map((column) => c.cyan(column.head)),
    colAligns: columns.map((column) => (column.numeric ? 'right' : 'left')),
    style: { head: [], border: [] },
  });
  for (const row of rows) table.push(columns.map((column) => column.value(row)));
  if (options.total) table.push(options.total.map((cell) => c.yellow(cell)));
  return table.toString();
}

/**
 * The plain tables of `team spend|usage|cost`: the box layout of the cost table, colours from chalk only (so
 * `colour: false` output has no escape codes), text columns left and figure columns right.
 */
import { palette } from './colour.js';
import { LABEL_MAX } from './model-label.js';
import { displayName, safeText } from './safe-text.js';
import { renderTextTable } from './text-table.js';

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
  // Names and emails come from the Admin API: made safe for a terminal, and cut to the cost tables' 60
  // columns, so one long name cannot widen the table past the screen.
  const body = rows.map((row) =>
    columns.map((column) =>
      column.numeric ? safeText(column.value(row)) : displayName(column.value(row), LABEL_MAX),
    ),
  );
  if (options.total) body.push(options.total.map((cell) => c.yellow(cell)));
  return renderTextTable({
    head: columns.map((column) => c.cyan(column.head)),
    rows: body,
    aligns: columns.map((column) => (column.numeric ? 'right' : 'left')),
  });
}

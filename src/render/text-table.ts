/**
 * A box-drawn text table in the layout ccusage and cli-table3 print: a rule under
 * the head and between rows, one space of padding, cells of several lines. It is linear in the number of
 * cells and lines: cli-table3 measured every line of a multi-line cell again for each of its lines and
 * built a fresh regular expression for each measure, so 10,000 models took minutes.
 */
import { stripVTControlCharacters } from 'node:util';

export type Alignment = 'left' | 'right';

export interface TextTable {
  head: string[];
  rows: string[][];
  aligns: Alignment[];
  /**
   * Rules between body rows: between every two (the default), or only above the last `n` rows (a Total
   * row), so a long table takes one line per row.
   */
  rules?: { before: 'every-row' } | { before: 'last'; n: number };
}

export function renderTextTable(table: TextTable): string {
  const head = splitCells(table.head);
  const rows = table.rows.map(splitCells);
  const widths = table.head.map((_, column) => {
    let width = 0;
    for (const row of [head, ...rows]) {
      for (const line of row[column] ?? []) width = Math.max(width, displayWidth(line));
    }
    return width;
  });
  const rule = (left: string, middle: string, right: string) =>
    left + widths.map((width) => '─'.repeat(width + 2)).join(middle) + right;
  const out = [rule('┌', '┬', '┐'), ...rowLines(head, widths, table.aligns)];
  const rules = table.rules ?? { before: 'every-row' };
  rows.forEach((row, index) => {
    const ruled = index === 0 || rules.before === 'every-row' || index === rows.length - rules.n;
    if (ruled) out.push(rule('├', '┼', '┤'));
    out.push(...rowLines(row, widths, table.aligns));
  });
  out.push(rule('└', '┴', '┘'));
  return out.join('\n');
}

function splitCells(cells: string[]): string[][] {
  return cells.map((cell) => cell.split('\n'));
}

function rowLines(cells: string[][], widths: number[], aligns: Alignment[]): string[] {
  const height = Math.max(1, ...cells.map((lines) => lines.length));
  const lines: string[] = [];
  for (let line = 0; line < height; line++) {
    const parts = widths.map((width, column) => pad(cells[column]?.[line] ?? '', width, aligns[column]));
    lines.push(`│ ${parts.join(' │ ')} │`);
  }
  return lines;
}

function pad(text: string, width: number, align: Alignment = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

/** Terminal columns a string takes: escape codes take none, East Asian wide characters two. */
export function displayWidth(text: string): number {
  const plain = text.includes('\u001b') ? stripVTControlCharacters(text) : text;
  let width = 0;
  for (const character of plain) {
    const code = character.codePointAt(0)!;
    width += isWide(code) ? 2 : code >= 0x300 && code <= 0x36f ? 0 : 1;
  }
  return width;
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

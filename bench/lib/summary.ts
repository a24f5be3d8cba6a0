/** The closing "figure | value | target | met" table both benchmarks print. */

export interface TargetRow {
  figure: string;
  value: string;
  target: string;
  /** undefined: informational, no target; 'noisy': the run-to-run spread hides the answer. */
  met?: boolean | 'noisy';
}

function metText(met: TargetRow['met']): string {
  if (met === undefined) return '-';
  if (met === 'noisy') return 'too noisy to tell';
  return met ? 'yes' : 'NO';
}

export function printSummary(title: string, rows: readonly TargetRow[]): void {
  const header: TargetRow = { figure: 'figure', value: 'measured', target: 'target' };
  const cells = [header, ...rows].map((row, i) => [
    row.figure,
    row.value,
    row.target,
    i === 0 ? 'met' : metText(row.met),
  ]);
  const widths = [0, 1, 2, 3].map((col) => Math.max(...cells.map((line) => line[col]!.length)));
  const format = (line: string[]) => line.map((cell, col) => cell.padEnd(widths[col]!)).join(' | ');
  console.log(`\n== ${title} ==`);
  console.log(format(cells[0]!));
  console.log(widths.map((width) => '-'.repeat(width)).join('-|-'));
  for (const line of cells.slice(1)) console.log(format(line));
}

/**
 * A small RFC 4180 writer: a header row, then one row per record, CRLF line ends (the last line too),
 * fields quoted only when they hold a comma or a quote, quotes doubled. Numbers are plain (no
 * grouping, no currency): integers exactly, fractions to 15 significant digits, which drops binary noise
 * such as 0.36850200000000005 from sums of cents without losing any decimal a source sent. Null and
 * undefined are empty fields, and so is a non-finite number.
 *
 * Text shows its control characters as visible `\xNN` escapes, as all text output does: CSV goes to a
 * terminal as often as to a file (docs/invariants.md, "Control characters never reach a terminal"). So a
 * field never holds a CR or LF, and a record is always one line.
 *
 * Text that a spreadsheet would run as a formula (starting with =, +, - or @) gets a leading apostrophe, so
 * a member's name cannot smuggle a formula into an admin's spreadsheet (a leading tab or CR is already an
 * escape). Numbers are never touched, so a negative number stays a number.
 */

import { safeText } from './safe-text.js';

export type CsvValue = string | number | boolean | null | undefined;

export interface CsvOptions {
  /** Default true; false leaves formulas as they are. */
  neutraliseFormulas?: boolean;
}

const NEEDS_QUOTES = /[",]/;
const FORMULA_START = /^[=+\-@]/;

export function csvField(value: CsvValue, options: CsvOptions = {}): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '';
    return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(15)));
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const safe = safeText(value);
  const text = options.neutraliseFormulas !== false && FORMULA_START.test(safe) ? `'${safe}` : safe;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A column: its header, and how a record fills it. */
export type CsvColumn<T> = readonly [header: string, value: (record: T) => CsvValue];

/** One row per record, the header and each field read off the same column list. */
export function encodeCsvColumns<T>(columns: readonly CsvColumn<T>[], records: readonly T[]): string {
  const header = columns.map(([name]) => name);
  const rows = records.map((record) => columns.map(([, value]) => value(record)));
  return encodeCsv(header, rows);
}

export function encodeCsv(
  header: readonly string[],
  rows: Iterable<readonly CsvValue[]>,
  options: CsvOptions = {},
): string {
  const lines = [header.map((name) => csvField(name, options)).join(',')];
  for (const row of rows) {
    if (row.length !== header.length) {
      throw new Error(`CSV row has ${row.length} fields, the header ${header.length}`);
    }
    lines.push(row.map((value) => csvField(value, options)).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

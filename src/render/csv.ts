/**
 * A small RFC 4180 writer: a header row, then one row per record, CRLF line ends (the last line too),
 * fields quoted only when they hold a comma, a quote, CR or LF, quotes doubled. Numbers are written as
 * JavaScript prints them (no grouping, no currency, no rounding); null and undefined are empty fields.
 *
 * Text that a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) gets a leading
 * apostrophe, so a member's name cannot smuggle a formula into an admin's spreadsheet. Numbers are never
 * touched, so a negative number stays a number.
 */

export type CsvValue = string | number | boolean | null | undefined;

export interface CsvOptions {
  /** Default true; false writes text exactly as given. */
  neutraliseFormulas?: boolean;
}

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: CsvValue, options: CsvOptions = {}): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = options.neutraliseFormulas !== false && FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
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

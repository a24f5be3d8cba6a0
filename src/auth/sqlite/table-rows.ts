/**
 * Every row of one table, straight from the file, for a browser's cookie database when there is no SQLite
 * engine (docs/invariants.md, "SQLite engines"): the same page reader as state.vscdb's, so the live database
 * and its `-wal` are only ever opened read-only. A cookie table is small (one row per cookie), and the
 * caller keeps only cursor.com's rows.
 */
import { unreadable } from './format-error.js';
import { decodeText } from './header.js';
import { scanTable } from './lookup.js';
import type { Pager } from './pager.js';
import { decodeRecord } from './record.js';
import { readSchemaRows, sameName } from './schema.js';
import { parseCreateTable } from './schema-sql.js';

/** A value as the SQLite engines give it with safe integers on: TEXT a string, BLOB a Buffer, INTEGER a bigint. */
export type CellValue = string | Buffer | bigint | number | null;

export interface TableRows {
  /** The table's columns, as declared. */
  columns: string[];
  rows: Array<Record<string, CellValue>>;
}

/** The rows of `name`, or undefined when the database has no such table. */
export function readTableRows(pager: Pager, name: string): TableRows | undefined {
  const table = readSchemaRows(pager).find((row) => row.type === 'table' && sameName(row.name, name));
  if (table === undefined) return undefined;
  if (table.sql === undefined) unreadable(`${name} has no CREATE TABLE statement`);
  const definition = parseCreateTable(table.sql);
  if (definition.withoutRowid) unreadable(`${name} is a WITHOUT ROWID table, which is not supported`);
  const columns = definition.columns.map((column) => column.name);
  const encoding = pager.header.textEncoding;
  const rows: TableRows['rows'] = [];
  scanTable(pager, table.rootPage, (cell) => {
    const record = decodeRecord(cell.payload, columns.length);
    const row: Record<string, CellValue> = {};
    definition.columns.forEach((column, index) => {
      // An INTEGER PRIMARY KEY is the rowid, stored as NULL in the record.
      if (column.integerPrimaryKey) {
        row[column.name] = cell.rowid;
        return;
      }
      // A record shorter than the table (a row older than an ADD COLUMN) holds NULL for the rest.
      const value = record[index] ?? { type: 'null' };
      row[column.name] =
        value.type === 'null'
          ? null
          : value.type === 'text'
            ? decodeText(value.bytes, encoding)
            : value.type === 'blob'
              ? Buffer.from(value.bytes)
              : value.value;
    });
    rows.push(row);
    return false;
  });
  return { columns, rows };
}

/**
 * Finds ItemTable in sqlite_schema (the table b-tree rooted at page 1): its root page, where its
 * `key` and `value` columns sit in a record, and the root of a unique BINARY index on `key` if any.
 */
import { corrupt, unreadable } from './format-error.js';
import { decodeText, type TextEncoding } from './header.js';
import { scanTable } from './lookup.js';
import type { Pager } from './pager.js';
import { decodeRecord, type SqlValue } from './record.js';
import { type ColumnDef, parseCreateIndex, parseCreateTable, uniqueConstraints } from './schema-sql.js';

export interface ItemTableLayout {
  tableRoot: number;
  keyColumn: number;
  valueColumn: number;
  /** Root page of a unique index whose only column is `key` with BINARY collation. */
  keyIndexRoot: number | undefined;
}

export interface SchemaRow {
  type: string;
  name: string;
  tableName: string;
  rootPage: number;
  sql: string | undefined;
}

function text(value: SqlValue | undefined, encoding: TextEncoding): string | undefined {
  return value?.type === 'text' ? decodeText(value.bytes, encoding) : undefined;
}

export function readSchemaRows(pager: Pager): SchemaRow[] {
  const encoding = pager.header.textEncoding;
  const rows: SchemaRow[] = [];
  scanTable(pager, 1, (cell) => {
    const [type, name, tableName, rootPage, sql] = decodeRecord(cell.payload, 5);
    rows.push({
      type: text(type, encoding) ?? '',
      name: text(name, encoding) ?? '',
      tableName: text(tableName, encoding) ?? '',
      rootPage: rootPage?.type === 'integer' ? Number(rootPage.value) : 0,
      sql: text(sql, encoding),
    });
    return false;
  });
  return rows;
}

/** SQLite compares identifiers case-insensitively for ASCII letters only. */
export function sameName(a: string, b: string): boolean {
  return (
    a.length === b.length &&
    a.replace(/[A-Z]/g, (c) => c.toLowerCase()) === b.replace(/[A-Z]/g, (c) => c.toLowerCase())
  );
}

export function findItemTable(pager: Pager, tableName: string): ItemTableLayout {
  const rows = readSchemaRows(pager);
  const table = rows.find((row) => row.type === 'table' && sameName(row.name, tableName));
  if (table === undefined || table.sql === undefined) unreadable(`no such table: ${tableName}`);
  const definition = parseCreateTable(table.sql);
  if (definition.withoutRowid) unreadable(`${tableName} is a WITHOUT ROWID table, which is not supported`);
  const keyColumn = definition.columns.findIndex((c) => sameName(c.name, 'key'));
  const valueColumn = definition.columns.findIndex((c) => sameName(c.name, 'value'));
  const key = definition.columns[keyColumn];
  if (key === undefined || valueColumn < 0) unreadable(`${tableName} has no key/value columns`);
  if (key.collation !== undefined && !sameName(key.collation, 'BINARY')) {
    unreadable(`${tableName}.key uses collation ${key.collation}, which is not supported`);
  }
  if (key.integerPrimaryKey || definition.columns[valueColumn]?.integerPrimaryKey) {
    unreadable(`${tableName} stores key or value as the rowid, which is not supported`);
  }
  if (table.rootPage < 1) corrupt(`${tableName} has an invalid root page`);

  const indexes = rows.filter((row) => row.type === 'index' && sameName(row.tableName, table.name));
  return {
    tableRoot: table.rootPage,
    keyColumn,
    valueColumn,
    keyIndexRoot: findKeyIndex(indexes, table.name, definition.columns, definition.constraints),
  };
}

function findKeyIndex(
  indexes: SchemaRow[],
  tableName: string,
  columns: ColumnDef[],
  tableConstraints: string[][],
): number | undefined {
  const isKeyOnly = (cols: string[] | undefined) => cols?.length === 1 && sameName(cols[0]!, 'key');
  const autoindexes = indexes.filter((index) => index.sql === undefined);
  // Autoindexes are numbered in the order their UNIQUE / PRIMARY KEY constraints appear. SQLite drops
  // duplicate constraints, which shifts the numbers; when the counts disagree, scan instead of guessing.
  const autoColumns = uniqueConstraints(columns, tableConstraints);
  const autoNumbersTrusted = autoColumns.length === autoindexes.length;
  for (const index of indexes) {
    if (index.rootPage < 1) continue;
    if (index.sql === undefined) {
      const match = /^sqlite_autoindex_(.+)_(\d+)$/.exec(index.name);
      if (!autoNumbersTrusted || match === null || !sameName(match[1]!, tableName)) continue;
      if (isKeyOnly(autoColumns[Number(match[2]) - 1])) return index.rootPage;
      continue;
    }
    const parsed = parseCreateIndex(index.sql);
    if (parsed?.unique && !parsed.partial && isKeyOnly(parsed.columns)) return index.rootPage;
  }
  return undefined;
}

/**
 * Reads `ItemTable` values straight from a state.vscdb file without SQLite: opens only `dbPath` (and
 * `walPath` when given) with flag 'r', reads the few pages a lookup needs, and so creates, changes and leaves
 * nothing, however large the file is (docs/invariants.md, "Read-only on Cursor's and browsers' files").
 */
import { corrupt } from './format-error.js';
import { encodeText, type TextEncoding } from './header.js';
import { scanTable, seekIndexRowid, seekTableRow } from './lookup.js';
import { Pager } from './pager.js';
import { compareTextKey, decodeRecord, type SqlValue } from './record.js';
import { findItemTable, type ItemTableLayout } from './schema.js';

const ITEM_TABLE = 'ItemTable';

export interface ItemTableReader {
  readonly textEncoding: TextEncoding;
  /** Whether lookups use the key index (false: a full scan, for databases without one). */
  readonly indexed: boolean;
  /** The `value` of the row whose `key` equals `key`, or undefined when there is no such row. */
  get(key: string): SqlValue | undefined;
  close(): void;
}

export function openItemTable(dbPath: string, walPath?: string): ItemTableReader {
  const pager = Pager.open(dbPath, walPath);
  try {
    const layout = findItemTable(pager, ITEM_TABLE);
    const encoding = pager.header.textEncoding;
    return {
      textEncoding: encoding,
      indexed: layout.keyIndexRoot !== undefined,
      get: (key) => lookup(pager, layout, encodeText(key, encoding)),
      close: () => pager.close(),
    };
  } catch (error) {
    pager.close();
    throw error;
  }
}

function lookup(pager: Pager, layout: ItemTableLayout, key: Uint8Array): SqlValue | undefined {
  const columns = Math.max(layout.keyColumn, layout.valueColumn) + 1;
  if (layout.keyIndexRoot === undefined) {
    const row = scanTable(pager, layout.tableRoot, (cell) => {
      return compareTextKey(key, decodeRecord(cell.payload, columns)[layout.keyColumn]) === 0;
    });
    return row === undefined ? undefined : valueColumnOf(row.payload, layout, columns);
  }
  const rowid = seekIndexRowid(pager, layout.keyIndexRoot, key);
  if (rowid === undefined) return undefined;
  const row = seekTableRow(pager, layout.tableRoot, rowid);
  if (row === undefined) corrupt(`index entry points at missing row ${rowid}`);
  return valueColumnOf(row.payload, layout, columns);
}

/** A record shorter than the table (rows older than an ADD COLUMN) holds NULL for the rest. */
function valueColumnOf(payload: Uint8Array, layout: ItemTableLayout, columns: number): SqlValue {
  return decodeRecord(payload, columns)[layout.valueColumn] ?? { type: 'null' };
}

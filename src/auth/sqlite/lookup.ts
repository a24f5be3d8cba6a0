/**
 * Searches over b-trees: an index seek by a TEXT key (BINARY collation), a table seek by rowid, and
 * an in-order scan of a table for when no usable index exists.
 */
import {
  type BtreePage,
  childPage,
  indexCellPayload,
  interiorTableKey,
  type LeafTableCell,
  leafTableCell,
  MAX_TREE_DEPTH,
  readBtreePage,
} from './btree.js';
import { corrupt } from './format-error.js';
import type { Pager } from './pager.js';
import { compareTextKey, decodeRecord } from './record.js';

function readExpected(pager: Pager, pgno: number, table: boolean, depth: number): BtreePage {
  if (depth >= MAX_TREE_DEPTH) corrupt('b-tree is too deep (cycle?)');
  const page = readBtreePage(pager, pgno);
  if (page.isTable !== table) corrupt(`page ${pgno} is not a ${table ? 'table' : 'index'} b-tree page`);
  return page;
}

/**
 * Finds the index entry whose first column equals `key` and returns its rowid (the record's last
 * column). Each page is binary searched; an interior cell is itself an entry, so it can match.
 */
export function seekIndexRowid(pager: Pager, root: number, key: Uint8Array): bigint | undefined {
  let pgno = root;
  for (let depth = 0; ; depth++) {
    const page = readExpected(pager, pgno, false, depth);
    let low = 0;
    let high = page.cellCount;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const record = decodeRecord(indexCellPayload(pager, page, mid));
      const order = compareTextKey(key, record[0]);
      if (order === 0) return rowidOf(record.at(-1));
      if (order < 0) high = mid;
      else low = mid + 1;
    }
    if (page.isLeaf) return undefined;
    pgno = childPage(page, low, pager.usableSize);
  }
}

function rowidOf(value: ReturnType<typeof decodeRecord>[number] | undefined): bigint {
  if (value?.type !== 'integer') corrupt('index entry without an integer rowid');
  return value.value;
}

/** Finds the row with `rowid`: interior keys K send rowids <= K to the left child (fileformat2 §1.6). */
export function seekTableRow(pager: Pager, root: number, rowid: bigint): LeafTableCell | undefined {
  let pgno = root;
  for (let depth = 0; ; depth++) {
    const page = readExpected(pager, pgno, true, depth);
    let low = 0;
    let high = page.cellCount;
    if (page.isLeaf) {
      while (low < high) {
        const mid = (low + high) >>> 1;
        const cell = leafTableCell(pager, page, mid);
        if (cell.rowid === rowid) return cell;
        if (cell.rowid < rowid) low = mid + 1;
        else high = mid;
      }
      return undefined;
    }
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (interiorTableKey(page, mid, pager.usableSize) < rowid) low = mid + 1;
      else high = mid;
    }
    pgno = childPage(page, low, pager.usableSize);
  }
}

/** Visits every row of a table in rowid order until `visit` returns true; returns that row. */
export function scanTable(
  pager: Pager,
  root: number,
  visit: (cell: LeafTableCell) => boolean,
): LeafTableCell | undefined {
  const seen = new Set<number>();
  const walk = (pgno: number, depth: number): LeafTableCell | undefined => {
    if (seen.has(pgno)) corrupt(`page ${pgno} appears twice in one b-tree`);
    seen.add(pgno);
    const page = readExpected(pager, pgno, true, depth);
    if (page.isLeaf) {
      for (let i = 0; i < page.cellCount; i++) {
        const cell = leafTableCell(pager, page, i);
        if (visit(cell)) return cell;
      }
      return undefined;
    }
    for (let i = 0; i <= page.cellCount; i++) {
      const found = walk(childPage(page, i, pager.usableSize), depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(root, 0);
}

/**
 * B-tree pages and cells (https://www.sqlite.org/fileformat2.html §1.6), including payloads that
 * spill onto overflow pages.
 */
import { corrupt } from './format-error.js';
import { DATABASE_HEADER_SIZE } from './header.js';
import type { Pager } from './pager.js';
import { readVarint, readVarint64 } from './record.js';

const PageType = {
  interiorIndex: 2,
  interiorTable: 5,
  leafIndex: 10,
  leafTable: 13,
} as const;

/** SQLite refuses trees deeper than this (BTCURSOR_MAX_DEPTH); so do we, which also stops cycles. */
export const MAX_TREE_DEPTH = 20;

export interface BtreePage {
  pgno: number;
  data: Buffer;
  type: number;
  isLeaf: boolean;
  isTable: boolean;
  cellCount: number;
  /** Interior pages only: the child holding everything after the last cell. */
  rightChild: number;
  cellPointerOffset: number;
}

export function readBtreePage(pager: Pager, pgno: number): BtreePage {
  const data = pager.readPage(pgno);
  const start = pgno === 1 ? DATABASE_HEADER_SIZE : 0;
  const type = data[start]!;
  if (type !== 2 && type !== 5 && type !== 10 && type !== 13) corrupt(`page ${pgno} is not a b-tree page`);
  const isLeaf = type === PageType.leafIndex || type === PageType.leafTable;
  const headerSize = isLeaf ? 8 : 12;
  const cellCount = data.readUInt16BE(start + 3);
  const cellPointerOffset = start + headerSize;
  if (cellPointerOffset + cellCount * 2 > pager.usableSize) corrupt(`page ${pgno}: too many cells`);
  return {
    pgno,
    data,
    type,
    isLeaf,
    isTable: type === PageType.interiorTable || type === PageType.leafTable,
    cellCount,
    rightChild: isLeaf ? 0 : data.readUInt32BE(start + 8),
    cellPointerOffset,
  };
}

function cellOffset(page: BtreePage, index: number, usableSize: number): number {
  const offset = page.data.readUInt16BE(page.cellPointerOffset + index * 2);
  if (offset < page.cellPointerOffset + page.cellCount * 2 || offset >= usableSize) {
    corrupt(`page ${page.pgno}: cell ${index} offset out of range`);
  }
  return offset;
}

export function childPage(page: BtreePage, index: number, usableSize: number): number {
  if (index === page.cellCount) return page.rightChild;
  return page.data.readUInt32BE(cellOffset(page, index, usableSize));
}

/** The integer key of a cell of an interior table page. */
export function interiorTableKey(page: BtreePage, index: number, usableSize: number): bigint {
  const offset = cellOffset(page, index, usableSize);
  return readVarint64(page.data, offset + 4, usableSize).value;
}

export interface LeafTableCell {
  rowid: bigint;
  payload: Buffer;
}

export function leafTableCell(pager: Pager, page: BtreePage, index: number): LeafTableCell {
  const usable = pager.usableSize;
  let offset = cellOffset(page, index, usable);
  const size = readVarint(page.data, offset, usable);
  offset += size.length;
  const rowid = readVarint64(page.data, offset, usable);
  offset += rowid.length;
  return { rowid: rowid.value, payload: readPayload(pager, page, offset, size.value, usable - 35) };
}

/** The record of an index cell; interior index cells carry full records too. */
export function indexCellPayload(pager: Pager, page: BtreePage, index: number): Buffer {
  const usable = pager.usableSize;
  let offset = cellOffset(page, index, usable);
  if (!page.isLeaf) offset += 4;
  const size = readVarint(page.data, offset, usable);
  offset += size.length;
  const maxLocal = Math.floor(((usable - 12) * 64) / 255) - 23;
  return readPayload(pager, page, offset, size.value, maxLocal);
}

/** SQLite's length limit (SQLITE_MAX_LENGTH is at most 2^31-1); larger sizes mean corruption. */
const MAX_PAYLOAD = 0x7fff_ffff;

/**
 * The full payload of a cell: the local part, then the overflow chain (fileformat2 §1.6, "cell payload
 * overflow"). `maxLocal` is X in the format's formula: U-35 for table leaves, ((U-12)*64/255)-23
 * for index cells.
 */
function readPayload(pager: Pager, page: BtreePage, offset: number, size: number, maxLocal: number): Buffer {
  const usable = pager.usableSize;
  if (size > MAX_PAYLOAD || size > pager.pageCount * usable) corrupt(`page ${page.pgno}: payload too large`);
  const local = localPayloadSize(size, usable, maxLocal);
  if (local === size) {
    if (offset + size > usable) corrupt(`page ${page.pgno}: cell runs past the page`);
    return page.data.subarray(offset, offset + size);
  }
  if (offset + local + 4 > usable) corrupt(`page ${page.pgno}: cell runs past the page`);
  const payload = Buffer.allocUnsafe(size);
  page.data.copy(payload, 0, offset, offset + local);
  let filled = local;
  let next = page.data.readUInt32BE(offset + local);
  while (filled < size) {
    if (next === 0) corrupt(`page ${page.pgno}: overflow chain ends early`);
    const overflow = pager.readPage(next);
    const take = Math.min(size - filled, usable - 4);
    overflow.copy(payload, filled, 4, 4 + take);
    filled += take;
    next = overflow.readUInt32BE(0);
  }
  return payload;
}

function localPayloadSize(size: number, usable: number, maxLocal: number): number {
  if (size <= maxLocal) return size;
  const minLocal = Math.floor(((usable - 12) * 32) / 255) - 23;
  const surplus = minLocal + ((size - minLocal) % (usable - 4));
  return surplus <= maxLocal ? surplus : minLocal;
}

/**
 * Varints and the record format of https://www.sqlite.org/fileformat2.html §2.1 ("Record Format").
 */
import { corrupt } from './format-error.js';

export type SqlValue =
  | { type: 'null' }
  | { type: 'integer'; value: bigint }
  | { type: 'real'; value: number }
  | { type: 'text'; bytes: Uint8Array }
  | { type: 'blob'; bytes: Uint8Array };

export interface Varint<T> {
  value: T;
  length: number;
}

/** A varint that must fit a JS number (sizes, serial types); bigger values mean a corrupt file. */
export function readVarint(buf: Uint8Array, offset: number, end = buf.length): Varint<number> {
  let value = 0;
  for (let i = 0; i < 9; i++) {
    if (offset + i >= end) corrupt('varint runs past the end of its page');
    const byte = buf[offset + i]!;
    if (i === 8) {
      value = value * 256 + byte;
    } else {
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) return checkedVarint(value, i + 1);
    }
  }
  return checkedVarint(value, 9);
}

function checkedVarint(value: number, length: number): Varint<number> {
  if (!Number.isSafeInteger(value)) corrupt('varint too large');
  return { value, length };
}

/** A 64-bit signed varint (rowids). */
export function readVarint64(buf: Uint8Array, offset: number, end = buf.length): Varint<bigint> {
  let value = 0n;
  for (let i = 0; i < 9; i++) {
    if (offset + i >= end) corrupt('varint runs past the end of its page');
    const byte = BigInt(buf[offset + i]!);
    if (i === 8) {
      value = (value << 8n) | byte;
    } else {
      value = (value << 7n) | (byte & 0x7fn);
      if ((byte & 0x80n) === 0n) return { value: BigInt.asIntN(64, value), length: i + 1 };
    }
  }
  return { value: BigInt.asIntN(64, value), length: 9 };
}

const INTEGER_WIDTHS = [0, 1, 2, 3, 4, 6, 8] as const;

function bodyLength(serialType: number): number {
  if (serialType >= 12) return Math.floor((serialType - 12) / 2);
  if (serialType === 10 || serialType === 11) corrupt('reserved serial type in record');
  if (serialType === 7) return 8;
  if (serialType >= 8) return 0;
  return INTEGER_WIDTHS[serialType]!;
}

function readSignedBigEndian(buf: Uint8Array, offset: number, width: number): bigint {
  let value = 0n;
  for (let i = 0; i < width; i++) value = (value << 8n) | BigInt(buf[offset + i]!);
  return BigInt.asIntN(width * 8, value);
}

function decodeColumn(payload: Uint8Array, serialType: number, offset: number, length: number): SqlValue {
  if (serialType === 0) return { type: 'null' };
  if (serialType === 8) return { type: 'integer', value: 0n };
  if (serialType === 9) return { type: 'integer', value: 1n };
  if (serialType === 7) {
    const view = new DataView(payload.buffer, payload.byteOffset + offset, 8);
    return { type: 'real', value: view.getFloat64(0, false) };
  }
  if (serialType < 7) return { type: 'integer', value: readSignedBigEndian(payload, offset, length) };
  const bytes = payload.subarray(offset, offset + length);
  return serialType % 2 === 0 ? { type: 'blob', bytes } : { type: 'text', bytes };
}

/**
 * Decodes the first `maxColumns` columns of a record. Columns missing from a short record (rows
 * written before an ALTER TABLE ADD COLUMN) are not returned; callers treat them as NULL.
 */
export function decodeRecord(payload: Uint8Array, maxColumns = Number.POSITIVE_INFINITY): SqlValue[] {
  const headerSize = readVarint(payload, 0);
  if (headerSize.value < headerSize.length || headerSize.value > payload.length) {
    corrupt('record header size out of range');
  }
  const values: SqlValue[] = [];
  let headerOffset = headerSize.length;
  let bodyOffset = headerSize.value;
  while (headerOffset < headerSize.value && values.length < maxColumns) {
    const serial = readVarint(payload, headerOffset, headerSize.value);
    headerOffset += serial.length;
    const length = bodyLength(serial.value);
    if (bodyOffset + length > payload.length) corrupt('record body runs past its payload');
    values.push(decodeColumn(payload, serial.value, bodyOffset, length));
    bodyOffset += length;
  }
  return values;
}

/**
 * How a stored value orders against a TEXT key under the BINARY collation (memcmp, then length):
 * NULL and numbers sort before any text, blobs after it (https://www.sqlite.org/datatype3.html §4.1).
 * Returns <0 when `key` sorts first, 0 when equal, >0 when `value` sorts first.
 */
export function compareTextKey(key: Uint8Array, value: SqlValue | undefined): number {
  if (value === undefined || value.type === 'null' || value.type === 'integer' || value.type === 'real') {
    return 1;
  }
  if (value.type === 'blob') return -1;
  return Buffer.compare(key, value.bytes);
}

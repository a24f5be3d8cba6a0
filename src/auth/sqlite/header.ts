/**
 * The 100-byte database header (https://www.sqlite.org/fileformat2.html §1.3).
 */
import { corrupt, unreadable } from './format-error.js';

export const DATABASE_HEADER_SIZE = 100;
const MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

export interface DatabaseHeader {
  pageSize: number;
  /** Page size minus the reserved bytes at the end of each page. */
  usableSize: number;
  /** Header bytes 18/19 == 2: the database is in WAL mode. */
  walMode: boolean;
  textEncoding: TextEncoding;
  /** The in-header page count, or undefined when SQLite would not trust it (fileformat2 §1.3.7). */
  pageCount: number | undefined;
}

/** Reads just the page size, which must be known before the first page can be read. */
export function readPageSize(header: Uint8Array): number {
  if (header.length < DATABASE_HEADER_SIZE) unreadable('file is not a database (too short)');
  if (!MAGIC.equals(header.subarray(0, 16))) unreadable('file is not a database (bad header magic)');
  const raw = (header[16]! << 8) | header[17]!;
  // fileformat2 §1.3.2: the value 1 means 65536, which does not fit the two-byte field.
  const pageSize = raw === 1 ? 65_536 : raw;
  if (pageSize < 512 || pageSize > 65_536 || (pageSize & (pageSize - 1)) !== 0) {
    corrupt(`invalid page size ${raw}`);
  }
  return pageSize;
}

function readUint32(buf: Uint8Array, offset: number): number {
  return ((buf[offset]! << 24) | (buf[offset + 1]! << 16) | (buf[offset + 2]! << 8) | buf[offset + 3]!) >>> 0;
}

const ENCODINGS: Record<number, TextEncoding> = {
  // 0 means "not set yet" (no schema); SQLite then uses UTF-8.
  0: 'utf-8',
  1: 'utf-8',
  2: 'utf-16le',
  3: 'utf-16be',
};

export function parseDatabaseHeader(header: Uint8Array): DatabaseHeader {
  const pageSize = readPageSize(header);
  const writeVersion = header[18]!;
  const readVersion = header[19]!;
  // fileformat2 §1.3.3: a read version above 2 means a format this reader (like SQLite) must not read.
  if (readVersion < 1 || readVersion > 2) unreadable(`unsupported file format (read version ${readVersion})`);
  const usableSize = pageSize - header[20]!;
  if (usableSize < 480) corrupt('reserved space leaves a usable page size below 480');
  if (header[21] !== 64 || header[22] !== 32 || header[23] !== 32) corrupt('invalid payload fractions');
  const encoding = ENCODINGS[readUint32(header, 56)];
  if (encoding === undefined) corrupt('invalid text encoding');
  const changeCounter = readUint32(header, 24);
  const inHeaderPages = readUint32(header, 28);
  const versionValidFor = readUint32(header, 92);
  return {
    pageSize,
    usableSize,
    walMode: writeVersion === 2 || readVersion === 2,
    textEncoding: encoding,
    pageCount: inHeaderPages !== 0 && changeCounter === versionValidFor ? inHeaderPages : undefined,
  };
}

export function encodeText(text: string, encoding: TextEncoding): Buffer {
  if (encoding === 'utf-8') return Buffer.from(text, 'utf8');
  const bytes = Buffer.from(text, 'utf16le');
  return encoding === 'utf-16le' ? bytes : bytes.swap16();
}

/** Lenient decoding, for names and schema SQL (and TEXT values, which SQLite never validates). */
export function decodeText(bytes: Uint8Array, encoding: TextEncoding): string {
  if (encoding === 'utf-16be') {
    const swapped = Buffer.from(bytes.subarray(0, bytes.length & ~1));
    return new TextDecoder('utf-16le').decode(swapped.swap16());
  }
  return new TextDecoder(encoding, { ignoreBOM: true }).decode(bytes);
}

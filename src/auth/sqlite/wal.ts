/**
 * Recovers the committed content of a `-wal` file the way SQLite does when no `-shm` index exists
 * (https://www.sqlite.org/fileformat2.html §4.1–4.4): valid header, then frames whose salts match and
 * whose cumulative checksums verify, up to the last commit frame. Everything after is ignored.
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { openRegularFile } from './pager.js';

const WAL_HEADER_SIZE = 32;
const FRAME_HEADER_SIZE = 24;
const WAL_FORMAT_VERSION = 3_007_000;
const READ_CHUNK_BYTES = 4 * 1024 * 1024;

export interface WalSnapshot {
  pageSize: number;
  /** Database size in pages after the last valid commit. */
  pageCount: number;
  /** Page number → file offset of that page's newest committed image. */
  pageOffsets: Map<number, number>;
}

type Checksum = [number, number];

/** The WAL checksum: pairs of 32-bit words in the byte order the magic number names (fileformat2 §4.1). */
function addChecksum(view: DataView, start: number, end: number, bigEndian: boolean, sum: Checksum): void {
  let [s1, s2] = sum;
  const littleEndian = !bigEndian;
  for (let i = start; i < end; i += 8) {
    s1 = (s1 + view.getUint32(i, littleEndian) + s2) >>> 0;
    s2 = (s2 + view.getUint32(i + 4, littleEndian) + s1) >>> 0;
  }
  sum[0] = s1;
  sum[1] = s2;
}

/** `length` bytes at `position`, or undefined when the file ends first. */
export function readExactly(fd: number, length: number, position: number): Buffer | undefined {
  const buf = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buf, done, length - done, position + done);
    if (n === 0) return undefined;
    done += n;
  }
  return buf;
}

interface WalHeader {
  bigEndianChecksum: boolean;
  pageSize: number;
  salt1: number;
  salt2: number;
  checksum: Checksum;
}

function parseWalHeader(buf: Buffer): WalHeader | undefined {
  const magic = buf.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return undefined;
  if (buf.readUInt32BE(4) !== WAL_FORMAT_VERSION) return undefined;
  const pageSize = buf.readUInt32BE(8);
  if (pageSize < 512 || pageSize > 65_536 || (pageSize & (pageSize - 1)) !== 0) return undefined;
  const bigEndianChecksum = (magic & 1) === 1;
  const checksum: Checksum = [0, 0];
  const view = new DataView(buf.buffer, buf.byteOffset, WAL_HEADER_SIZE);
  addChecksum(view, 0, 24, bigEndianChecksum, checksum);
  if (checksum[0] !== buf.readUInt32BE(24) || checksum[1] !== buf.readUInt32BE(28)) return undefined;
  return { bigEndianChecksum, pageSize, salt1: buf.readUInt32BE(16), salt2: buf.readUInt32BE(20), checksum };
}

/**
 * The `-wal` header as it is now ('' when there is none): SQLite rewrites it, with new salts, whenever it
 * restarts the log, so a changed stamp means frames read earlier may have been overwritten.
 */
export function walStamp(walPath: string): string {
  const fd = openRegularFile(walPath);
  if (fd === undefined) return '';
  try {
    return readExactly(fd, WAL_HEADER_SIZE, 0)?.toString('hex') ?? '';
  } finally {
    closeSync(fd);
  }
}

/**
 * Returns the committed WAL content, or undefined when the WAL holds no valid commit (SQLite then
 * reads the main file alone). Never throws for a damaged WAL: SQLite treats it as ending early.
 */
export function readWalSnapshot(fd: number): WalSnapshot | undefined {
  const headerBytes = readExactly(fd, WAL_HEADER_SIZE, 0);
  if (headerBytes === undefined) return undefined;
  const header = parseWalHeader(headerBytes);
  if (header === undefined) return undefined;

  const frameSize = FRAME_HEADER_SIZE + header.pageSize;
  const framesPerChunk = Math.max(1, Math.floor(READ_CHUNK_BYTES / frameSize));
  const sum: Checksum = [header.checksum[0], header.checksum[1]];
  const committed = new Map<number, number>();
  const pending = new Map<number, number>();
  let pageCount = 0;
  let position = WAL_HEADER_SIZE;
  const walFrames = Math.floor((fstatSync(fd).size - WAL_HEADER_SIZE) / frameSize);
  const chunk = Buffer.allocUnsafe(Math.max(1, Math.min(framesPerChunk, walFrames)) * frameSize);

  for (;;) {
    const got = readSync(fd, chunk, 0, chunk.length, position);
    const frames = Math.floor(got / frameSize);
    const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.length);
    for (let i = 0; i < frames; i++) {
      const base = i * frameSize;
      const pgno = chunk.readUInt32BE(base);
      const commitSize = chunk.readUInt32BE(base + 4);
      if (pgno === 0) return snapshot(header, committed, pageCount);
      if (chunk.readUInt32BE(base + 8) !== header.salt1 || chunk.readUInt32BE(base + 12) !== header.salt2) {
        return snapshot(header, committed, pageCount);
      }
      addChecksum(view, base, base + 8, header.bigEndianChecksum, sum);
      addChecksum(view, base + FRAME_HEADER_SIZE, base + frameSize, header.bigEndianChecksum, sum);
      if (sum[0] !== chunk.readUInt32BE(base + 16) || sum[1] !== chunk.readUInt32BE(base + 20)) {
        return snapshot(header, committed, pageCount);
      }
      pending.set(pgno, position + base + FRAME_HEADER_SIZE);
      if (commitSize !== 0) {
        for (const [page, offset] of pending) committed.set(page, offset);
        pending.clear();
        pageCount = commitSize;
      }
    }
    if (got < chunk.length) return snapshot(header, committed, pageCount);
    position += frames * frameSize;
  }
}

function snapshot(header: WalHeader, pageOffsets: Map<number, number>, pageCount: number) {
  if (pageCount === 0) return undefined;
  return { pageSize: header.pageSize, pageCount, pageOffsets } satisfies WalSnapshot;
}

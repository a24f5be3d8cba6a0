/**
 * Pages of one database file, read on demand with readSync from a single fd opened 'r' (never
 * the whole file), with an optional overlay of the committed pages of its `-wal` file.
 * Nothing is ever opened for writing, so nothing in the directory can change.
 */
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { corrupt, unreadable } from './format-error.js';
import { DATABASE_HEADER_SIZE, type DatabaseHeader, parseDatabaseHeader, readPageSize } from './header.js';
import { readExactly, readWalSnapshot, type WalSnapshot } from './wal.js';

/** The page holding byte offset 2^30 is reserved for locks and never part of a b-tree (§1.3.1 of the format). */
const LOCK_BYTE_OFFSET = 0x4000_0000;

/**
 * Pages kept once read, up to this many bytes, and then no more: a lookup walks from the root each time, so
 * the root and the interior pages (read first) are what every later lookup reads again. A scan of a large
 * file keeps only its first 2 MiB, so memory stays bounded whatever the file's size.
 */
const CACHE_BYTES = 2 * 1024 * 1024;

export class Pager {
  readonly header: DatabaseHeader;
  readonly pageCount: number;
  private readonly lockBytePage: number;
  /** Read pages by number (callers only read them: a page's bytes never change while it is open). */
  private readonly cache = new Map<number, Buffer>();
  private cachedBytes = 0;

  private constructor(
    private readonly fd: number,
    private readonly fileSize: number,
    private readonly walFd: number | undefined,
    private readonly wal: WalSnapshot | undefined,
  ) {
    const pageSize = wal?.pageSize ?? readPageSize(this.readMainBytes(0, DATABASE_HEADER_SIZE));
    this.lockBytePage = Math.floor(LOCK_BYTE_OFFSET / pageSize) + 1;
    // Page 1 may itself live in the WAL; its header is then the current one.
    this.header = parseDatabaseHeader(this.readPageImage(1, pageSize).subarray(0, DATABASE_HEADER_SIZE));
    if (this.header.pageSize !== pageSize) corrupt('WAL page size does not match the database');
    const available = wal?.pageCount ?? Math.floor(fileSize / pageSize);
    this.pageCount = this.header.pageCount ?? available;
  }

  /**
   * Opens `dbPath` read-only. With `walPath`, its committed frames are preferred over the main file.
   * An empty main file is an empty database, and SQLite then discards any WAL, so we ignore it too.
   */
  static open(dbPath: string, walPath?: string): Pager {
    const fd = openRegularFile(dbPath);
    if (fd === undefined) unreadable('unable to open database file (it does not exist)');
    let walFd: number | undefined;
    try {
      const fileSize = fstatSync(fd).size;
      if (fileSize === 0) unreadable('no such table: ItemTable (the database is empty)');
      let wal: WalSnapshot | undefined;
      if (walPath !== undefined) {
        walFd = openRegularFile(walPath);
        wal = walFd === undefined ? undefined : readWalSnapshot(walFd);
      }
      return new Pager(fd, fileSize, walFd, wal);
    } catch (error) {
      closeSync(fd);
      if (walFd !== undefined) closeSync(walFd);
      throw error;
    }
  }

  get usableSize(): number {
    return this.header.usableSize;
  }

  readPage(pgno: number): Buffer {
    if (!Number.isInteger(pgno) || pgno < 1 || pgno > this.pageCount) {
      corrupt(`page number ${pgno} out of range (database has ${this.pageCount} pages)`);
    }
    if (pgno === this.lockBytePage) corrupt(`page ${pgno} is the lock-byte page`);
    const cached = this.cache.get(pgno);
    if (cached !== undefined) return cached;
    const page = this.readPageImage(pgno, this.header.pageSize);
    if (this.cachedBytes + page.length <= CACHE_BYTES) {
      this.cache.set(pgno, page);
      this.cachedBytes += page.length;
    }
    return page;
  }

  close(): void {
    closeSync(this.fd);
    if (this.walFd !== undefined) closeSync(this.walFd);
  }

  private readPageImage(pgno: number, pageSize: number): Buffer {
    const walOffset = this.wal?.pageOffsets.get(pgno);
    if (walOffset !== undefined && this.walFd !== undefined) {
      return readFully(this.walFd, walOffset, pageSize, `WAL frame for page ${pgno} is truncated`);
    }
    const offset = (pgno - 1) * pageSize;
    if (offset + pageSize > this.fileSize) corrupt(`page ${pgno} lies past the end of the file`);
    return this.readMainBytes(offset, pageSize);
  }

  private readMainBytes(offset: number, length: number): Buffer {
    return readFully(this.fd, offset, length, 'file is shorter than its first page');
  }
}

/**
 * Opens a file for reading only, without blocking, and only when it is a regular file: a named pipe or a
 * device in place of the database or its `-wal` is refused at once instead of hanging the run
 * (docs/invariants.md, "Regular files only, never a blocking read"). Undefined when the file does not exist.
 */
export function openRegularFile(path: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    unreadable(`${path.endsWith('-wal') ? 'the -wal' : 'the database'} is not a regular file`);
  }
  return fd;
}

function readFully(fd: number, position: number, length: number, shortReadMessage: string): Buffer {
  return readExactly(fd, length, position) ?? corrupt(shortReadMessage);
}

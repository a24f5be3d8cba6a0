import { constants } from 'node:fs';
import { lstat, mkdtemp, open, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileFingerprint, fingerprintOf, MISSING } from '../../../local/fingerprint.js';
import { errorCode } from '../../../local/read-file.js';
import { type SqliteDatabase, sqliteState } from '../../../local/sqlite.js';
import { Pager } from '../../sqlite/pager.js';
import { readConsistently } from '../../sqlite/stable-read.js';
import { readTableRows, type TableRows } from '../../sqlite/table-rows.js';
import { walStamp } from '../../sqlite/wal.js';
import { guardCopy } from './copy-cleanup.js';
import { type Outcome, ok, skip } from './outcome.js';

export type { SqliteDatabase };

/**
 * The largest cookie database copied. Firefox's holds every site's cookies, and a copy is made in full
 * before one row is read: one of several GB would fill the temp directory for a single cookie.
 */
export const COPY_LIMIT_BYTES = 256 * 1024 * 1024;

/** What was read from a copy, and the fingerprints of the database and its `-wal` taken before copying. */
export interface Copied<T> {
  data: T;
  files: Record<string, string>;
  /** Set when no SQLite engine read it (src/local/sqlite.ts): why, said once under `--verbose`. */
  degraded?: string;
}

/** How a browser's cookies are read: with SQL from the private copy, or from the live file's pages. */
export interface CookieReaders<T> {
  sql(db: SqliteDatabase): Outcome<T>;
  pages(tables: { rows(table: string): TableRows | undefined }): Outcome<T>;
}

/**
 * A running browser keeps its cookie database locked and journalled, and nothing may be opened for writing in
 * its directory (docs/invariants.md, "Read-only on Cursor's and browsers' files"). So the database and its
 * `-wal` (when there is one) are copied into a fresh 0700 directory under the system temp dir (only regular
 * files, of at most COPY_LIMIT_BYTES), the copy is opened read-only, and the directory is removed afterwards
 * whatever happens, a stop signal included (copy-cleanup.ts); copies killed runs left behind are swept first.
 */
export async function readPrivateCopy<T>(
  dbPath: string,
  shown: string,
  read: CookieReaders<T>,
): Promise<Outcome<Copied<T>>> {
  // Decided on first use so no engine is loaded at start-up for every other credential source.
  const state = await sqliteState();
  if (state.kind === 'none') return readLive(dbPath, shown, read.pages);
  const { engine } = state;
  await sweepOnce(os.tmpdir());
  // mkdtemp creates the directory with mode 0700, owned by us, with a name nobody can guess.
  let dir: string;
  try {
    dir = await mkdtemp(path.join(os.tmpdir(), COPY_PREFIX));
  } catch (error) {
    return skip(
      'unreadable',
      `cannot make a private copy of ${shown}: no temp directory at ${os.tmpdir()} (${errorCode(error) ?? 'mkdtemp failed'})`,
    );
  }
  const release = guardCopy(dir);
  try {
    const copy = path.join(dir, 'cookies.db');
    const files: Record<string, string> = {};
    try {
      files[dbPath] = await copyRegularFile(dbPath, copy, COPY_LIMIT_BYTES);
      if (files[dbPath] === MISSING) {
        return skip('unreadable', `${shown} disappeared while it was being read`);
      }
      files[`${dbPath}-wal`] = await copyRegularFile(`${dbPath}-wal`, `${copy}-wal`, COPY_LIMIT_BYTES);
    } catch (error) {
      return copyFailure(error, shown);
    }
    let db: SqliteDatabase | undefined;
    try {
      db = engine.open(copy, { readonly: true, fileMustExist: true });
      const data = read.sql(db);
      return data.ok ? ok({ data: data.value, files }) : data;
    } catch (error) {
      return sqliteFailure(error, shown);
    } finally {
      db?.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
    // Only once it is gone: a copy rm could not remove stays guarded until the process exits.
    release();
  }
}

/**
 * No SQLite engine (docs/invariants.md, "SQLite engines"): the live database and its `-wal` read through the
 * page reader, with read-only handles and no copy, as state.vscdb is. A browser may write while it is read:
 * a read during which the database or the `-wal` changed is done again, and one that never held still is
 * skipped with the reason, never half-read.
 */
export function readLive<T>(
  dbPath: string,
  shown: string,
  pages: CookieReaders<T>['pages'],
): Outcome<Copied<T>> {
  const wal = `${dbPath}-wal`;
  const stamp = () => `${fileFingerprint(dbPath)}|${fileFingerprint(wal)}|${walStamp(wal)}`;
  try {
    return readConsistently(
      stamp,
      () => {
        const files = { [dbPath]: fileFingerprint(dbPath), [wal]: fileFingerprint(wal) };
        const pager = Pager.open(dbPath, wal);
        try {
          const data = pages({ rows: (table) => readTableRows(pager, table) });
          return data.ok ? ok({ data: data.value, files, degraded: NO_ENGINE }) : data;
        } finally {
          pager.close();
        }
      },
      shown,
    );
  } catch (error) {
    const code = errorCode(error);
    if (code !== undefined) return copyFailure(error, shown);
    // The page reader's messages name the structure that is damaged, never a value from the file.
    return skip('corrupt', `${shown} is not a readable SQLite database (${(error as Error).message})`);
  }
}

const NO_ENGINE =
  "no SQLite engine, so read with codexbar's own page reader (`codexbar doctor` says why and the fix)";

const COPY_PREFIX = 'codexbar-cookies-';
/** The temp dirs swept by this process: a browser with many profiles makes a copy per profile. */
const swept = new Map<string, Promise<void>>();

function sweepOnce(tmp: string): Promise<void> {
  let sweep = swept.get(tmp);
  if (sweep === undefined) {
    sweep = sweepAbandonedCopies(tmp, Date.now());
    swept.set(tmp, sweep);
  }
  return sweep;
}
/** A copy is read within seconds: an older one was left by a run that was killed while it read. */
const ABANDONED_COPY_MS = 60 * 60_000;

/**
 * Removes the private copies killed runs left in `tmp`: they hold a session cookie (in a real Firefox, every
 * site's). Only our own directories, by their prefix, owner and age, never one a concurrent run is reading.
 */
async function sweepAbandonedCopies(tmp: string, nowMs: number): Promise<void> {
  let names: string[];
  try {
    names = (await readdir(tmp)).filter((name) => name.startsWith(COPY_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const dir = path.join(tmp, name);
    try {
      const info = await lstat(dir);
      const ours = typeof process.getuid !== 'function' || info.uid === process.getuid();
      if (info.isDirectory() && ours && nowMs - info.mtimeMs > ABANDONED_COPY_MS) {
        await rm(dir, { recursive: true, force: true });
      }
    } catch {
      // Gone meanwhile, or not ours to touch.
    }
  }
}

/** Why a file was not copied, before a byte of it was read. */
class CopyRefusedError extends Error {}

/**
 * Copies `from` to a new file `to` (0600, never through a link) and answers the fingerprint `from` had before
 * a byte was read, or MISSING. The source is opened without blocking and copied only when it is a regular
 * file of at most `limit` bytes (docs/invariants.md, "Regular files only, never a blocking read"): copyFile
 * would open a named pipe and wait for a writer forever. A directory is EISDIR, as copying one would be.
 */
export async function copyRegularFile(from: string, to: string, limit: number): Promise<string> {
  let source: Awaited<ReturnType<typeof open>>;
  try {
    source = await open(from, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return MISSING;
    throw error;
  }
  // Once streaming, each stream closes its own handle (FileHandle.close would wait on the streams forever).
  let streaming = false;
  try {
    const info = await source.stat({ bigint: true });
    if (info.isDirectory()) throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
    if (!info.isFile()) throw new CopyRefusedError('not a regular file');
    if (info.size > BigInt(limit)) {
      const mib = limit / (1024 * 1024);
      throw new CopyRefusedError(`larger than ${Number.isInteger(mib) ? `${mib} MiB` : `${limit} bytes`}`);
    }
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
    const target = await open(to, flags, 0o600);
    streaming = true;
    // No further than the limit, even if the file grows while it is copied.
    const reading = source.createReadStream({ start: 0, end: Math.max(0, limit - 1) });
    await pipeline(reading, target.createWriteStream());
    return fingerprintOf(info);
  } finally {
    if (!streaming) await source.close();
  }
}

function copyFailure(error: unknown, shown: string): Outcome<never> {
  if (error instanceof CopyRefusedError) return skip('unreadable', `cannot read ${shown} (${error.message})`);
  switch (errorCode(error)) {
    case 'EACCES':
    case 'EPERM':
      return skip('unreadable', `cannot read ${shown} (permission denied)`);
    case 'EBUSY':
      // Windows: the browser opened the file without read sharing.
      return skip('locked', `${shown} is locked by the running browser (close it and try again)`);
    case 'ENOENT':
      return skip('unreadable', `${shown} disappeared while it was being read`);
    default:
      return skip('unreadable', `cannot read ${shown} (${errorCode(error) ?? 'copy failed'})`);
  }
}

/** SQLite's codes only: its messages are not needed and a reason must never carry data from the file. */
function sqliteFailure(error: unknown, shown: string): Outcome<never> {
  const code = errorCode(error) ?? 'SQLITE_ERROR';
  if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_LOCKED')) {
    return skip('locked', `${shown} is locked (close the browser and try again)`);
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return skip('corrupt', `${shown} is not a readable SQLite database (${code})`);
  }
  if (code === 'SQLITE_ERROR') {
    return skip('corrupt', `${shown} does not have the cookie table this browser should have`);
  }
  return skip('corrupt', `cannot read ${shown} (${code})`);
}

import { constants } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { errorCode } from '../../../local/read-file.js';
import { loadSqlite } from '../../../local/sqlite.js';
import { type Outcome, skip } from './outcome.js';

export type SqliteDatabase = import('better-sqlite3').Database;

/**
 * A running browser keeps its cookie database locked and journalled, and nothing may be opened for writing in
 * its directory (docs/invariants.md, "Read-only on Cursor's and browsers' files"). So the database and its
 * `-wal` (when there is one) are copied into a fresh 0700 directory under the system temp dir, the copy is
 * opened read-only, and the directory is removed afterwards whatever happens.
 */
export async function readPrivateCopy<T>(
  dbPath: string,
  shown: string,
  read: (db: SqliteDatabase) => Outcome<T>,
): Promise<Outcome<T>> {
  // Loaded on first use so the native addon stays out of start-up for every other credential source.
  const Database = await loadSqlite().catch(() => undefined);
  if (Database === undefined) return skip('unreadable', `cannot read ${shown} (SQLite is not available)`);
  // mkdtemp creates the directory with mode 0700, owned by us, with a name nobody can guess.
  let dir: string;
  try {
    dir = await mkdtemp(path.join(os.tmpdir(), 'codexbar-cookies-'));
  } catch (error) {
    return skip(
      'unreadable',
      `cannot make a private copy of ${shown}: no temp directory at ${os.tmpdir()} (${errorCode(error) ?? 'mkdtemp failed'})`,
    );
  }
  try {
    const copy = path.join(dir, 'cookies.db');
    try {
      await copyFile(dbPath, copy, constants.COPYFILE_EXCL);
      await copyIfPresent(`${dbPath}-wal`, `${copy}-wal`);
    } catch (error) {
      return copyFailure(error, shown);
    }
    let db: SqliteDatabase | undefined;
    try {
      db = new Database(copy, { readonly: true, fileMustExist: true });
      return read(db);
    } catch (error) {
      return sqliteFailure(error, shown);
    } finally {
      db?.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function copyIfPresent(from: string, to: string): Promise<void> {
  try {
    await copyFile(from, to, constants.COPYFILE_EXCL);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

function copyFailure(error: unknown, shown: string): Outcome<never> {
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

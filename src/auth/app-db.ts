/**
 * Reads Cursor.app's access token from `state.vscdb` (docs/behaviour.md §9).
 *
 * Nothing in Cursor's directory may be created, changed or left behind (docs/behaviour.md §1.1). Why not
 * always SQLite (docs/behaviour.md §9.2): better-sqlite3 can open `file:…?immutable=1` when the environment
 * variable SQLITE_USE_URI=1 is set before it loads, but immutable mode ignores a `-wal` left by a crash, so
 * a token Cursor committed only to that WAL would be missed and a stale one read. A plain read-only open
 * creates `-wal`/`-shm` next to an idle WAL database, and a missing `-shm` next to a lone `-wal`. Neither
 * open reads a lone `-wal` correctly without creating files; the page reader (sqlite/) exists to do that.
 * - Both sidecars present (Cursor running, or crashed with both open): SQLite reads, read-only, honouring
 *   the live WAL; opening creates nothing because both files already exist.
 * - Otherwise: the page reader, which applies a lone `-wal` the way SQLite's recovery would. It must never
 *   write, create, truncate, rename, lock or chmod anything, and never read the whole file
 *   (docs/behaviour.md §9.3).
 */
import fs from 'node:fs';
import type { TextEncoding } from './sqlite/header.js';
import { ITEM_TABLE, openItemTable } from './sqlite/item-table.js';
import type { SqlValue } from './sqlite/record.js';
import { decodeTokenValue, type StoredValue } from './sqlite/token-value.js';

export type AppTokenRead =
  | { kind: 'absent' }
  | { kind: 'token'; token: string }
  | { kind: 'malformed'; reason: string }
  | { kind: 'error'; message: string };

const ACCESS_TOKEN_KEY = 'cursorAuth/accessToken';
/** docs/behaviour.md §9.1: busy timeout for the SQLite read. */
const BUSY_TIMEOUT_MS = 250;

function exists(path: string): boolean {
  try {
    fs.statSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

export async function readAppAccessToken(dbPath: string): Promise<AppTokenRead> {
  try {
    // docs/behaviour.md §9.1: a missing file is no session, with no SQLite call.
    if (!exists(dbPath)) return { kind: 'absent' };
    const walPath = `${dbPath}-wal`;
    const live = exists(walPath) && exists(`${dbPath}-shm`);
    const sqlite = live ? await loadSqlite() : undefined;
    const stored = sqlite ? readWithSqlite(sqlite, dbPath) : readWithFileReader(dbPath, walPath);
    return decodeTokenValue(stored);
  } catch (error) {
    return { kind: 'error', message: `SQLite error reading Cursor app auth: ${describe(error)}` };
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function readWithFileReader(dbPath: string, walPath: string): StoredValue | undefined {
  const table = openItemTable(dbPath, walPath);
  try {
    return toStored(table.get(ACCESS_TOKEN_KEY), table.textEncoding);
  } finally {
    table.close();
  }
}

function toStored(value: SqlValue | undefined, encoding: TextEncoding): StoredValue | undefined {
  if (value === undefined) return undefined;
  if (value.type === 'text') return { type: 'text', bytes: value.bytes, encoding };
  if (value.type === 'blob') return { type: 'blob', bytes: value.bytes };
  return { type: value.type };
}

const SQLITE_ENCODINGS: Record<string, TextEncoding> = {
  'UTF-8': 'utf-8',
  'UTF-16le': 'utf-16le',
  'UTF-16be': 'utf-16be',
};

interface ValueRow {
  t: 'null' | 'integer' | 'real' | 'text' | 'blob';
  v: Buffer | null;
}

type SqliteConstructor = typeof import('better-sqlite3');

/**
 * Loaded on demand, not at the top: the native addon stays out of the start-up path. If the addon
 * cannot load on this machine, the file reader (which applies the `-wal` itself) is the better answer
 * than no token at all.
 */
async function loadSqlite(): Promise<SqliteConstructor | undefined> {
  try {
    return (await import('better-sqlite3')).default;
  } catch {
    return undefined;
  }
}

function readWithSqlite(Database: SqliteConstructor, dbPath: string): StoredValue | undefined {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    // CAST(… AS BLOB) hands back a TEXT value's own bytes (in the database encoding), so an embedded
    // NUL or an invalid sequence is decoded by the same rules as the file reader's.
    const row = db
      .prepare<[string], ValueRow>(
        `SELECT typeof(value) AS t, CAST(value AS BLOB) AS v FROM ${ITEM_TABLE} WHERE key = ? LIMIT 1`,
      )
      .get(ACCESS_TOKEN_KEY);
    if (row === undefined) return undefined;
    const bytes = row.v ?? Buffer.alloc(0);
    if (row.t === 'text') {
      const encoding = SQLITE_ENCODINGS[String(db.pragma('encoding', { simple: true }))] ?? 'utf-8';
      return { type: 'text', bytes, encoding };
    }
    if (row.t === 'blob') return { type: 'blob', bytes };
    return { type: row.t };
  } finally {
    db.close();
  }
}

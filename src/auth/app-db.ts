/**
 * Reads Cursor.app's access token from `state.vscdb`.
 *
 * Nothing in Cursor's directory may be created, changed or left behind, which is why SQLite itself never
 * opens the file (docs/invariants.md, "Read-only on Cursor's and browsers' files"): better-sqlite3 can open
 * `file:…?immutable=1` when SQLITE_USE_URI=1 is set before it loads, but immutable mode ignores a `-wal` left
 * by a crash, so a token committed only to that WAL would be missed; a plain read-only open creates
 * `-wal`/`-shm` next to an idle WAL database; and while Cursor runs, every SQLite reader writes its read
 * marks into Cursor's `-shm`. The page reader (sqlite/) reads the main file and the committed frames of the
 * `-wal` with read-only file handles, like SQLite's own recovery, whether or not Cursor is running. It must
 * never write, create, truncate, rename, lock or chmod anything, and never read the whole file.
 */
import { statSync } from 'node:fs';
import { openItemTable } from './sqlite/item-table.js';
import { readConsistently } from './sqlite/stable-read.js';
import { type DecodedToken, decodeTokenValue } from './sqlite/token-value.js';
import { walStamp } from './sqlite/wal.js';

export type AppTokenRead = DecodedToken | { kind: 'error'; message: string };

const ACCESS_TOKEN_KEY = 'cursorAuth/accessToken';
/** Read only for the opt-in refresh (docs/api2.md, "Token refresh (opt-in)"); never written back. */
const REFRESH_TOKEN_KEY = 'cursorAuth/refreshToken';

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

export function readAppAccessToken(dbPath: string): Promise<AppTokenRead> {
  return readAppToken(dbPath, ACCESS_TOKEN_KEY);
}

/** The app's refresh token (`cursorAuth/refreshToken`), read the same way as the access token. */
export function readAppRefreshToken(dbPath: string): Promise<AppTokenRead> {
  return readAppToken(dbPath, REFRESH_TOKEN_KEY);
}

async function readAppToken(dbPath: string, key: string): Promise<AppTokenRead> {
  try {
    // A missing file is no session.
    if (!exists(dbPath)) return { kind: 'absent' };
    return readStable(dbPath, `${dbPath}-wal`, key);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'error', message: `SQLite error reading Cursor app auth: ${message}` };
  }
}

/**
 * A running Cursor may append to its WAL, checkpoint it or restart it while we read. A read whose WAL header
 * (salts, checksum) changed underneath it is not trusted and is done again.
 */
function readStable(dbPath: string, walPath: string, key: string): DecodedToken {
  return readConsistently(
    () => walStamp(walPath),
    () => readToken(dbPath, walPath, key),
    'the -wal',
  );
}

function readToken(dbPath: string, walPath: string, key: string): DecodedToken {
  const table = openItemTable(dbPath, walPath);
  try {
    return decodeTokenValue(table.get(key), table.textEncoding);
  } finally {
    table.close();
  }
}

/**
 * The file is not a SQLite database this reader can read: corrupt, truncated, or a layout we refuse to
 * guess at. app-db.ts turns it into `{ kind: 'error' }`, so a bad file is skipped, never a crash.
 * Messages describe structure only; they never quote stored values.
 */
export class SqliteFormatError extends Error {
  override readonly name = 'SqliteFormatError';
}

/** A damaged structure, worded like SQLite's SQLITE_CORRUPT message plus where it was found. */
export function corrupt(detail: string): never {
  throw new SqliteFormatError(`database disk image is malformed (${detail})`);
}

/** A file that is not a database, or one without what we need (e.g. `no such table: ItemTable`). */
export function unreadable(message: string): never {
  throw new SqliteFormatError(message);
}

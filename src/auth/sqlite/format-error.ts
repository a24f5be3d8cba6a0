/**
 * The file is not a SQLite database this reader can read: corrupt, truncated, or a layout we refuse to
 * guess at. app-db.ts turns it into `{ kind: 'error' }`, so a bad file is skipped, never a crash.
 * Messages describe structure only; they never quote stored values.
 */
export class SqliteFormatError extends Error {
  override readonly name = 'SqliteFormatError';
}

export function corrupt(detail: string): never {
  throw new SqliteFormatError(detail);
}

/**
 * Reads the BYOK ledger `codexbar proxy` writes (`<data dir>/codexbar/byok.sqlite`, src/proxy/ledger.ts) for
 * `cost --source byok`, without creating or changing a file.
 *
 * Every SQLite open of a WAL database makes `-wal` and `-shm` beside it, read-only or not. So:
 * - with no `-wal` beside it, nobody has the ledger open (the proxy keeps its `-wal` while it runs): the file
 *   is read into memory once, through the one non-blocking regular-file open, and that copy is opened with
 *   its header marked as a rollback-journal database (bytes 18 and 19; SQLite cannot open an in-memory copy
 *   in WAL mode). Nothing is created, locked or written.
 * - with a `-wal`, the proxy is running (or stopped without a checkpoint): the committed rows are in that
 *   `-wal`, so the file is opened read-only in place; its `-wal` and `-shm` are already there, and a reader
 *   only adds its read mark to the `-shm`.
 * Either way the file must be ours first (`foreignFileReason`: no link, a regular file, owner-only), like
 * every store codexbar opens (docs/invariants.md, "Regular files only, never a blocking read").
 */
import { closeSync, constants, existsSync, readSync } from 'node:fs';
import { CodexbarError } from '../../errors.js';
import { openRegularFileSync } from '../../local/read-file-sync.js';
import { type SqliteDatabase as Database, loadSqlite } from '../../local/sqlite.js';
import { foreignFileReason } from '../store/store-files.js';

const FORMAT_VERSION = 1;
/** The in-memory copy's cap: about ten million requests; a larger ledger is read in place. */
const MEMORY_COPY_LIMIT = 1024 * 1024 * 1024;
const SQLITE_MAGIC = 'SQLite format 3\u0000';

const MISSING_HINT = "Run `codexbar proxy` to record BYOK requests (see the README's BYOK section).";

/** The ledger cannot be read: missing, not ours, or not a ledger. Exit 1, like every failed read. */
class LedgerReadError extends CodexbarError {
  readonly code: 'ledger_missing' | 'ledger_refused' | 'ledger_format';
  override readonly kind = 'runtime' as const;
  constructor(code: LedgerReadError['code'], message: string, hint?: string) {
    super(message, hint);
    this.code = code;
  }
}

/** One ledger row as stored, each value whatever SQLite holds (checked by src/cost/byok/report.ts). */
export interface LedgerReadRow {
  startedAt: unknown;
  model: unknown;
  completed: unknown;
  promptTokens: unknown;
  cachedTokens: unknown;
  cacheWriteTokens: unknown;
  completionTokens: unknown;
  providerCostUSD: unknown;
  conversation: unknown;
}

/** The columns a format-1 ledger has that this reader needs. */
const COLUMNS = [
  'started_at',
  'model',
  'completed',
  'prompt_tokens',
  'cached_tokens',
  'cache_write_tokens',
  'completion_tokens',
  'provider_cost_usd',
  'conversation',
];

/**
 * Integers come back as BigInt (`safeIntegers`), so a count past 2^53 − 1 is seen as such instead of
 * rounded (docs/invariants.md, "No unknown price as zero").
 */
const SELECT = `SELECT started_at AS startedAt, model, completed, prompt_tokens AS promptTokens,
  cached_tokens AS cachedTokens, cache_write_tokens AS cacheWriteTokens,
  completion_tokens AS completionTokens, provider_cost_usd AS providerCostUSD, conversation
  FROM requests WHERE started_at >= ? AND started_at < ? ORDER BY started_at, id`;

/**
 * Calls `each` with every row whose `started_at` is in `[startMs, endMs)`, oldest first. `shown` is the path
 * as messages name it (home shortened).
 */
export async function readLedgerRows(
  file: string,
  shown: string,
  span: { startMs: number; endMs: number },
  each: (row: LedgerReadRow) => void,
): Promise<void> {
  const foreign = await foreignFileReason(file);
  if (foreign) {
    throw new LedgerReadError(
      'ledger_refused',
      `The BYOK ledger ${shown} cannot be read: ${foreign}.`,
      'codexbar reads only its own owner-only ledger; move the file away and run `codexbar proxy` again.',
    );
  }
  const db = await openLedger(file, shown);
  try {
    checkFormat(db, shown);
    const statement = db.prepare(SELECT).safeIntegers(true);
    for (const row of statement.iterate(span.startMs, span.endMs) as Iterable<LedgerReadRow>) each(row);
  } finally {
    db.close();
  }
}

async function openLedger(file: string, shown: string): Promise<Database> {
  const engine = await loadSqlite();
  const notLedger = (why: string) =>
    new LedgerReadError('ledger_format', `The BYOK ledger ${shown} is not a ledger: ${why}.`);
  if (!existsSync(file)) throw missingLedger(shown);
  try {
    // An engine that cannot open an image (node:sqlite before Node 24) reads the file itself, as with a -wal.
    if (existsSync(`${file}-wal`) || !engine.opensImages) {
      return engine.open(file, { readonly: true, fileMustExist: true });
    }
    const copy = readCopy(file, shown);
    if (copy.subarray(0, 16).toString('latin1') !== SQLITE_MAGIC) throw notLedger('not an SQLite database');
    // WAL (2) to rollback journal (1): the write and read versions of the copy only.
    if (copy[18] === 2) copy[18] = 1;
    if (copy[19] === 2) copy[19] = 1;
    return engine.open(copy, { readonly: true });
  } catch (error) {
    if (error instanceof LedgerReadError) throw error;
    throw notLedger(sqliteReason(error));
  }
}

/** The whole file, through the one regular-file open (no link followed, never blocking). */
function readCopy(file: string, shown: string): Buffer {
  const opened = openRegularFileSync(file, constants.O_NOFOLLOW ?? 0);
  if (opened.kind === 'missing') throw missingLedger(shown);
  if (opened.kind === 'unreadable') {
    throw new LedgerReadError('ledger_refused', `The BYOK ledger ${shown} cannot be read: ${opened.reason}.`);
  }
  const { fd, stat } = opened;
  try {
    if (stat.size > MEMORY_COPY_LIMIT) {
      throw new LedgerReadError(
        'ledger_refused',
        `The BYOK ledger ${shown} is larger than 1 GiB, too large to copy into memory.`,
        'Start `codexbar proxy`, which keeps the ledger open: it is then read in place.',
      );
    }
    const buffer = Buffer.alloc(stat.size);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, length);
      if (read === 0) break;
      length += read;
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

function missingLedger(shown: string): LedgerReadError {
  return new LedgerReadError('ledger_missing', `No BYOK ledger at ${shown}.`, MISSING_HINT);
}

function checkFormat(db: Database, shown: string): void {
  const version = Number(db.pragma('user_version', { simple: true }));
  if (version !== FORMAT_VERSION) {
    throw new LedgerReadError(
      'ledger_format',
      `The BYOK ledger ${shown} is format ${version}, not ${FORMAT_VERSION}.`,
      'A newer or older codexbar wrote it; read it with that version, or move it away.',
    );
  }
  const columns = new Set(
    (db.prepare("SELECT name FROM pragma_table_info('requests')").all() as { name: string }[]).map(
      (column) => column.name,
    ),
  );
  const missing = COLUMNS.filter((column) => !columns.has(column));
  if (missing.length > 0) {
    throw new LedgerReadError(
      'ledger_format',
      columns.size === 0
        ? `The BYOK ledger ${shown} has no requests table.`
        : `The BYOK ledger ${shown} lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}.`,
    );
  }
}

/** SQLite's code, never its message (it could quote the file). */
function sqliteReason(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : 'it cannot be opened';
}

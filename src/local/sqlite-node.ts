/**
 * Node's built-in `node:sqlite` behind the interface codexbar uses of better-sqlite3 (src/local/sqlite.ts),
 * for when the addon cannot load (docs/invariants.md, "SQLite engines"). What differs is made the same here:
 * BLOBs come back as Buffers, rows as plain objects, errors carry better-sqlite3's `SQLITE_…` codes, and
 * `transaction` and `pragma` exist.
 */
import type { SqliteDatabase, SqliteEngine, SqliteOpenOptions, SqliteStatement } from './sqlite.js';

interface NodeStatement {
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: unknown[]): Record<string, unknown> | undefined;
  all(...params: unknown[]): Record<string, unknown>[];
  iterate(...params: unknown[]): IterableIterator<Record<string, unknown>>;
  setReadBigInts(on: boolean): void;
}

interface NodeDatabase {
  prepare(source: string): NodeStatement;
  exec(source: string): void;
  close(): void;
  deserialize?(image: Uint8Array): void;
}

interface NodeSqliteModule {
  DatabaseSync: new (file: string, options?: { readOnly?: boolean }) => NodeDatabase;
}

/** SQLite's primary result codes (https://www.sqlite.org/rescode.html), as better-sqlite3 names them. */
const CODES = [
  'OK',
  'ERROR',
  'INTERNAL',
  'PERM',
  'ABORT',
  'BUSY',
  'LOCKED',
  'NOMEM',
  'READONLY',
  'INTERRUPT',
  'IOERR',
  'CORRUPT',
  'NOTFOUND',
  'FULL',
  'CANTOPEN',
  'PROTOCOL',
  'EMPTY',
  'SCHEMA',
  'TOOBIG',
  'CONSTRAINT',
  'MISMATCH',
  'MISUSE',
  'NOLFS',
  'AUTH',
  'FORMAT',
  'RANGE',
  'NOTADB',
];

class NodeSqliteError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'SqliteError';
  }
}

function translated(error: unknown): unknown {
  const errcode = (error as { errcode?: unknown })?.errcode;
  if (typeof errcode !== 'number') return error;
  const name = CODES[errcode & 0xff] ?? 'ERROR';
  return new NodeSqliteError(error instanceof Error ? error.message : String(error), `SQLITE_${name}`);
}

function guarded<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    throw translated(error);
  }
}

/** A plain object with BLOBs as Buffers, as better-sqlite3 returns rows. */
function row<R>(value: Record<string, unknown> | undefined): R | undefined {
  if (value === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, cell] of Object.entries(value)) {
    out[key] =
      cell instanceof Uint8Array && !Buffer.isBuffer(cell)
        ? Buffer.from(cell.buffer, cell.byteOffset, cell.byteLength)
        : cell;
  }
  return out as R;
}

function statement<P extends unknown[] | object, R>(native: NodeStatement): SqliteStatement<P, R> {
  const adapted: SqliteStatement<P, R> = {
    run: (...params) => guarded(() => native.run(...params)),
    get: (...params) => guarded(() => row<R>(native.get(...params))),
    all: (...params) => guarded(() => native.all(...params).map((found) => row<R>(found) as R)),
    iterate: (...params) => {
      const rows = guarded(() => native.iterate(...params));
      return (function* () {
        for (;;) {
          const next = guarded(() => rows.next());
          if (next.done) return;
          yield row<R>(next.value) as R;
        }
      })();
    },
    safeIntegers: (on = true) => {
      native.setReadBigInts(on);
      return adapted;
    },
  };
  return adapted;
}

function database(native: NodeDatabase): SqliteDatabase {
  let depth = 0;
  const db: SqliteDatabase = {
    prepare: <P extends unknown[] | object, R>(source: string) =>
      statement<P, R>(guarded(() => native.prepare(source))),
    exec: (source) => guarded(() => native.exec(source)),
    pragma: (source, options) => {
      const rows = db.prepare<[], Record<string, unknown>>(`PRAGMA ${source}`).all();
      return options?.simple ? (rows[0] === undefined ? undefined : Object.values(rows[0])[0]) : rows;
    },
    // better-sqlite3's semantics: BEGIN … COMMIT, ROLLBACK on a throw, a savepoint when nested.
    transaction: (fn) => {
      const run =
        (begin: string) =>
        (...args: Parameters<typeof fn>) => {
          const savepoint = `codexbar_${depth}`;
          db.exec(depth > 0 ? `SAVEPOINT ${savepoint}` : begin);
          depth++;
          try {
            const result = fn(...args);
            db.exec(depth > 1 ? `RELEASE ${savepoint}` : 'COMMIT');
            return result;
          } catch (error) {
            try {
              db.exec(depth > 1 ? `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}` : 'ROLLBACK');
            } catch {
              // SQLite already rolled back (a full disk, a busy lock): the first error is the one to report.
            }
            throw error;
          } finally {
            depth--;
          }
        };
      return Object.assign(run('BEGIN'), { immediate: run('BEGIN IMMEDIATE') }) as ReturnType<
        SqliteDatabase['transaction']
      >;
    },
    close: () => native.close(),
  };
  return db;
}

/**
 * `node:sqlite` from the running Node, or undefined where it has none (Node 20, 22 before 22.13) or one too old
 * for what codexbar uses (`iterate`). Node 22 prints an ExperimentalWarning when the module loads: that one
 * warning is kept off the user's stderr, any other still reaches it.
 */
export function nodeSqliteEngine(): SqliteEngine | undefined {
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (typeof getBuiltin !== 'function') return undefined;
  const emitWarning = process.emitWarning;
  let loaded: NodeSqliteModule | undefined;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/SQLite is an experimental feature/.test(text)) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    loaded = getBuiltin('node:sqlite') as NodeSqliteModule | undefined;
  } catch {
    loaded = undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
  if (loaded === undefined) return undefined;
  const { DatabaseSync } = loaded;
  const probe = new DatabaseSync(':memory:');
  try {
    const check = probe.prepare('SELECT sqlite_version() AS version');
    if (typeof check.iterate !== 'function') return undefined;
    const version = String(check.get()?.version);
    const opensImages = typeof probe.deserialize === 'function';
    return {
      name: 'node:sqlite',
      version,
      opensImages,
      open: (file, options) => open(loaded, file, options),
    };
  } finally {
    probe.close();
  }
}

function open(
  module: NodeSqliteModule,
  file: string | Buffer,
  options: SqliteOpenOptions = {},
): SqliteDatabase {
  return guarded(() => {
    if (typeof file !== 'string') {
      const native = new module.DatabaseSync(':memory:');
      if (native.deserialize === undefined)
        throw new NodeSqliteError('cannot open a database image', 'SQLITE_CANTOPEN');
      native.deserialize(file);
      return database(native);
    }
    // A read-only open never creates the file; a writable one does unless told it must exist.
    if (options.fileMustExist && !options.readonly) {
      const probe = new module.DatabaseSync(file, { readOnly: true });
      probe.close();
    }
    const native = new module.DatabaseSync(file, { readOnly: options.readonly === true });
    // `busy_timeout` rather than the constructor's `timeout`, which Node 22 before 22.16 lacks.
    if (options.timeout !== undefined) native.exec(`PRAGMA busy_timeout = ${Math.trunc(options.timeout)}`);
    return database(native);
  });
}

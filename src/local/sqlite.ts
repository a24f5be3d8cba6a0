import type BetterSqlite3 from 'better-sqlite3';

export type SqliteConstructor = typeof BetterSqlite3;

/**
 * Every better-sqlite3 database, statement and iterator this process creates, kept until it exits.
 *
 * better-sqlite3 12's native destructors unregister an environment cleanup hook, and on Node 24 that asserts
 * (and aborts the process, SIGABRT) when V8 collects the object outside a JavaScript context: during a
 * garbage collection started from native code mid-run, or at exit. A `codexbar cost` that opened its event
 * store then died before printing anything. An object that is never collected never runs that destructor;
 * `close()` still releases the native handles, so what is kept is the small JavaScript wrapper (a few per
 * query). better-sqlite3 13 fixes the destructor but needs Node >= 22.
 */
const databases = new Set<unknown>();
const statements: unknown[] = [];
const patched = new WeakSet<object>();

/** Makes `Database` keep what it creates (above); idempotent. Tests call it on the class they import. */
export function retainSqliteObjects(Database: SqliteConstructor): SqliteConstructor {
  const prototype = Database.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  if (patched.has(prototype)) return Database;
  patched.add(prototype);
  // `transaction` keeps its statements as long as the database, which is kept. `pragma` prepares natively,
  // past `prepare`, so it is redone below on top of the kept `prepare` (its `simple` option plucks one value).
  prototype.pragma = function (this: BetterSqlite3.Database, source: unknown, options?: unknown) {
    const statement = this.prepare(`PRAGMA ${String(source)}`);
    const simple = (options as { simple?: boolean } | undefined)?.simple === true;
    // A pragma that sets without answering (`synchronous = NORMAL`) answers nothing, as better-sqlite3's does.
    if (!statement.reader) {
      statement.run();
      return simple ? undefined : [];
    }
    return simple ? statement.pluck().get() : statement.all();
  };
  for (const method of ['prepare', 'exec'] as const) {
    const original = prototype[method]!;
    prototype[method] = function (this: unknown, ...args: unknown[]) {
      const result = original.apply(this, args);
      databases.add(this);
      if (method === 'prepare') {
        statements.push(result);
        retainIterators(Object.getPrototypeOf(result) as Record<string, (...args: unknown[]) => unknown>);
      }
      return result;
    };
  }
  return Database;
}

/** `iterate()` returns a native iterator with the same destructor: kept too. */
function retainIterators(statement: Record<string, (...args: unknown[]) => unknown>): void {
  if (patched.has(statement)) return;
  patched.add(statement);
  const iterate = statement.iterate!;
  statement.iterate = function (this: unknown, ...args: unknown[]) {
    const iterator = iterate.apply(this, args);
    statements.push(iterator);
    return iterator;
  };
}

/** The native addon, loaded on first use so it stays out of start-up (bench/README.md, Start-up). */
export async function loadSqlite(): Promise<SqliteConstructor> {
  return retainSqliteObjects((await import('better-sqlite3')).default);
}

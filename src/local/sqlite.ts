/**
 * The SQLite engine: better-sqlite3 when its native addon loads, else Node's built-in `node:sqlite` where the
 * running Node has it (22.13 and later), else none, and the callers degrade (docs/invariants.md, "SQLite
 * engines"). better-sqlite3 is an optional dependency: an install with `--omit=optional` or without install
 * scripts, a failed build, or a Node upgrade beneath a global install leaves it without a loadable addon, and
 * that must never read as a broken cookie database or a missing session.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { CodexbarError } from '../errors.js';
import { isSingleExecutable } from '../lib/single-executable.js';
import { nodeSqliteEngine } from './sqlite-node.js';

export type SqliteConstructor = typeof BetterSqlite3;

/** What codexbar uses of a database, which both engines provide. */
export interface SqliteDatabase {
  prepare<P extends unknown[] | object = unknown[], R = unknown>(source: string): SqliteStatement<P, R>;
  exec(source: string): unknown;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<F extends (...args: never[]) => unknown>(fn: F): SqliteTransaction<F>;
  close(): unknown;
}

type Bound<P> = P extends unknown[] ? P : [P];

export interface SqliteStatement<P extends unknown[] | object = unknown[], R = unknown> {
  run(...params: Bound<P>): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: Bound<P>): R | undefined;
  all(...params: Bound<P>): R[];
  iterate(...params: Bound<P>): IterableIterator<R>;
  /** Integers as BigInt, so a value past 2^53 − 1 is seen as such. */
  safeIntegers(on?: boolean): this;
}

export interface SqliteTransaction<F extends (...args: never[]) => unknown> {
  (...args: Parameters<F>): ReturnType<F>;
  immediate(...args: Parameters<F>): ReturnType<F>;
}

export interface SqliteOpenOptions {
  readonly?: boolean;
  fileMustExist?: boolean;
  /** How long a write waits on another connection's lock, in ms. */
  timeout?: number;
}

export interface SqliteEngine {
  readonly name: 'better-sqlite3' | 'node:sqlite';
  /** The SQLite library's version. */
  readonly version: string;
  /** Whether `open` takes a database image (a Buffer) as well as a path. */
  readonly opensImages: boolean;
  open(file: string | Buffer, options?: SqliteOpenOptions): SqliteDatabase;
}

/** Why better-sqlite3 is not used, and the one command that fixes it. */
export interface AddonProblem {
  reason: string;
  fix: string;
}

export type SqliteState =
  | { kind: 'ready'; engine: SqliteEngine; addon?: AddonProblem }
  | { kind: 'none'; addon: AddonProblem };

/** No SQLite engine at all: the callers go on without what needs one, and say so. */
class SqliteUnavailableError extends CodexbarError {
  readonly code = 'sqlite_unavailable';
  constructor(addon: AddonProblem) {
    super(
      `no SQLite engine: ${addon.reason}, and this Node (${process.version}) has no node:sqlite`,
      addon.fix,
    );
  }
}

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

let state: Promise<SqliteState> | undefined;

/**
 * The engine, decided once per process on first use, so neither engine is loaded at start-up
 * (bench/README.md, Start-up).
 */
export function sqliteState(): Promise<SqliteState> {
  state ??= decideEngine();
  return state;
}

/** The engine, or SqliteUnavailableError. */
export async function loadSqlite(): Promise<SqliteEngine> {
  const found = await sqliteState();
  if (found.kind === 'none') throw new SqliteUnavailableError(found.addon);
  return found.engine;
}

async function decideEngine(): Promise<SqliteState> {
  // The single executable can load no addon: node:sqlite is its engine by design, nothing to fix.
  if (isSingleExecutable()) {
    const engine = nodeSqliteEngine();
    if (engine !== undefined) return { kind: 'ready', engine };
  }
  let addon: AddonProblem;
  try {
    const Database = retainSqliteObjects((await import('better-sqlite3')).default);
    // The package loads its addon only when a database is first made: a probe here, so that a missing or
    // mismatched addon picks the other engine instead of failing the first real open.
    const probe = new Database(':memory:');
    const version = String(probe.prepare('SELECT sqlite_version()').pluck().get());
    probe.close();
    return {
      kind: 'ready',
      engine: {
        name: 'better-sqlite3',
        version,
        opensImages: true,
        open: (file, options) => new Database(file, options) as unknown as SqliteDatabase,
      },
    };
  } catch (error) {
    addon = addonProblem(error);
  }
  const engine = nodeSqliteEngine();
  return engine === undefined ? { kind: 'none', addon } : { kind: 'ready', engine, addon };
}

/** Where better-sqlite3 would be, for the fix: the directory `npm rebuild` must run in. */
function installRoot(): string | undefined {
  try {
    // The bundles are CommonJS (their own `require`); the sources run as ES modules in the tests.
    const resolve = typeof require === 'function' ? require.resolve : createRequire(import.meta.url).resolve;
    const manifest = resolve('better-sqlite3/package.json');
    return path.dirname(path.dirname(path.dirname(manifest)));
  } catch {
    return undefined;
  }
}

/** A load failure in words a user can act on. Only the error's kind is used, never its full text. */
export function addonProblem(error: unknown): AddonProblem {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  const root = installRoot();
  const rebuild =
    root === undefined
      ? 'npm rebuild better-sqlite3'
      : `cd ${JSON.stringify(root)} && npm rebuild better-sqlite3`;
  const reinstall = 'npm install -g codexbar --allow-scripts=better-sqlite3 (without --omit=optional)';
  if (root === undefined || (code === 'MODULE_NOT_FOUND' && message.includes("'better-sqlite3'"))) {
    return { reason: 'better-sqlite3 is not installed (an optional dependency)', fix: reinstall };
  }
  const abi = /NODE_MODULE_VERSION (\d+)[\s\S]*NODE_MODULE_VERSION (\d+)/.exec(message);
  if (abi !== null) {
    return {
      reason: `better-sqlite3's addon was built for another Node (ABI ${abi[1]}; this Node is ${abi[2]})`,
      fix: rebuild,
    };
  }
  if (/could not locate the bindings file|cannot find module.*better_sqlite3\.node/i.test(message)) {
    return {
      reason: "better-sqlite3's addon was never built (its install script did not run)",
      fix: `${rebuild}, or install with --allow-scripts=better-sqlite3`,
    };
  }
  return {
    reason: `better-sqlite3's addon does not load (${typeof code === 'string' ? code : 'load error'})`,
    fix: rebuild,
  };
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addonProblem, loadSqlite, type SqliteDatabase, sqliteState } from '../../src/local/sqlite.js';
import { nodeSqliteEngine } from '../../src/local/sqlite-node.js';

/**
 * The SQLite engines (src/local/sqlite.ts): why better-sqlite3 did not load, in words with a fix, and the
 * node:sqlite adapter behaving as better-sqlite3 does where codexbar relies on it. The adapter's cases run on
 * every Node that has node:sqlite (22.13 and later: `npm run test:node -- 22|24|26`).
 */
describe('addonProblem: a load failure says what happened and the fix', () => {
  it('a missing package is "not installed", fixed by a reinstall with the addon allowed', () => {
    const error = Object.assign(new Error("Cannot find module 'better-sqlite3'"), {
      code: 'MODULE_NOT_FOUND',
    });
    const problem = addonProblem(error);
    expect(problem.reason).toBe('better-sqlite3 is not installed (an optional dependency)');
    expect(problem.fix).toContain('--allow-scripts=better-sqlite3');
  });

  it('an addon built for another Node names both ABIs, fixed by npm rebuild', () => {
    const message =
      "The module '/x/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 137. Please try re-compiling";
    const problem = addonProblem(Object.assign(new Error(message), { code: 'ERR_DLOPEN_FAILED' }));
    expect(problem.reason).toBe(
      "better-sqlite3's addon was built for another Node (ABI 115; this Node is 137)",
    );
    expect(problem.fix).toMatch(/npm rebuild better-sqlite3$/);
  });

  it('an addon that was never built (install scripts skipped) offers both fixes', () => {
    const problem = addonProblem(new Error('Could not locate the bindings file. Tried:\n → /x/build/...'));
    expect(problem.reason).toBe("better-sqlite3's addon was never built (its install script did not run)");
    expect(problem.fix).toMatch(
      /npm rebuild better-sqlite3, or install with --allow-scripts=better-sqlite3$/,
    );
  });

  it('any other load error keeps only its code, never the message', () => {
    const problem = addonProblem(
      Object.assign(new Error('invalid ELF header /secret/path'), { code: 'ERR_DLOPEN_FAILED' }),
    );
    expect(problem.reason).toBe("better-sqlite3's addon does not load (ERR_DLOPEN_FAILED)");
    expect(problem.reason).not.toContain('/secret/path');
  });
});

describe('the engine this test run has', () => {
  it('is decided once and answers a query', async () => {
    const state = await sqliteState();
    expect(await sqliteState()).toBe(state);
    const engine = await loadSqlite();
    const db = engine.open(':memory:');
    expect(db.prepare<[], { v: number }>('SELECT 1 + 1 AS v').get()).toEqual({ v: 2 });
    db.close();
  });
});

const engine = nodeSqliteEngine();

describe.skipIf(engine === undefined)('the node:sqlite adapter', () => {
  let dir: string;
  let db: SqliteDatabase;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-node-sqlite-'));
    db = engine!.open(path.join(dir, 'a.db'), { timeout: 50 });
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, b BLOB)');
  });
  afterEach(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names itself and its SQLite version', () => {
    expect(engine!.name).toBe('node:sqlite');
    expect(engine!.version).toMatch(/^3\.\d+\.\d+$/);
  });

  it('returns BLOBs as Buffers and rows as plain objects, as better-sqlite3 does', () => {
    db.prepare('INSERT INTO t (n, b) VALUES (?, ?)').run(7, Buffer.from([0, 255]));
    const row = db.prepare<[], { n: number; b: Buffer }>('SELECT n, b FROM t').get()!;
    expect(Buffer.isBuffer(row.b)).toBe(true);
    expect([...row.b]).toEqual([0, 255]);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect([...db.prepare('SELECT n FROM t').iterate()]).toEqual([{ n: 7 }]);
  });

  it('named parameters bind without their prefix', () => {
    db.prepare<{ n: number }>('INSERT INTO t (n) VALUES (@n)').run({ n: 3 });
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(db.prepare<[], { n: number }>('SELECT n FROM t').all()).toEqual([{ n: 3 }]);
  });

  it('safeIntegers reads a value past 2^53 − 1 exactly', () => {
    db.exec('INSERT INTO t (n) VALUES (9007199254740993)');
    const row = db.prepare<[], { n: bigint }>('SELECT n FROM t').safeIntegers(true).get()!;
    expect(row.n).toBe(9007199254740993n);
  });

  it('a transaction commits, and rolls back on a throw, nested ones included', () => {
    const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
    db.transaction(() => insert.run(1))();
    expect(() =>
      db
        .transaction(() => {
          insert.run(2);
          db.transaction(() => {
            insert.run(3);
            throw new Error('inner');
          })();
        })
        .immediate(),
    ).toThrow('inner');
    db.transaction(() => {
      insert.run(4);
      try {
        db.transaction(() => {
          insert.run(5);
          throw new Error('inner');
        })();
      } catch {
        // The outer one goes on without the inner's row.
      }
    })();
    expect(
      db
        .prepare<[], { n: number }>('SELECT n FROM t ORDER BY n')
        .all()
        .map((r) => r.n),
    ).toEqual([1, 4]);
  });

  it("errors carry better-sqlite3's codes", () => {
    const notDb = path.join(dir, 'not.db');
    fs.writeFileSync(notDb, 'not a database '.repeat(100));
    expect(() =>
      engine!.open(notDb, { readonly: true }).prepare('SELECT * FROM sqlite_master').all(),
    ).toThrow(expect.objectContaining({ code: 'SQLITE_NOTADB' }));
    expect(() => db.prepare('SELECT * FROM missing')).toThrow(
      expect.objectContaining({ code: 'SQLITE_ERROR' }),
    );
    expect(() => engine!.open(path.join(dir, 'absent.db'), { readonly: true })).toThrow(
      expect.objectContaining({ code: 'SQLITE_CANTOPEN' }),
    );
    expect(fs.existsSync(path.join(dir, 'absent.db'))).toBe(false);
  });

  it('a write waits out another connection, then fails SQLITE_BUSY', () => {
    const other = engine!.open(path.join(dir, 'a.db'), { timeout: 50 });
    other.exec('BEGIN IMMEDIATE');
    expect(() => db.transaction(() => db.exec('INSERT INTO t (n) VALUES (1)')).immediate()).toThrow(
      expect.objectContaining({ code: 'SQLITE_BUSY' }),
    );
    other.exec('ROLLBACK');
    other.close();
  });

  it('opens a database image where the Node can (24 and later)', () => {
    db.exec('INSERT INTO t (n) VALUES (42)');
    db.close();
    const image = fs.readFileSync(path.join(dir, 'a.db'));
    db = engine!.open(path.join(dir, 'a.db'));
    if (!engine!.opensImages) return;
    const copy = engine!.open(image, { readonly: true });
    expect(copy.prepare('SELECT n FROM t').all()).toEqual([{ n: 42 }]);
    copy.close();
  });
});

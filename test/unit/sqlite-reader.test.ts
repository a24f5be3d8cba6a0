import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN_KEY,
  copyWithoutShm,
  createStateVscdb,
  openActiveWalWriter,
  seededRandom,
  tokenParameter,
} from '../../fixtures/builders/vscdb.js';
import { SqliteFormatError } from '../../src/auth/sqlite/format-error.js';
import { openItemTable } from '../../src/auth/sqlite/item-table.js';
import type { SqlValue } from '../../src/auth/sqlite/record.js';
import { useScene } from '../helpers/scene.js';

const scene = useScene();
let dir: string;
let dbPath: string;
beforeEach(() => {
  dir = scene.home;
  dbPath = path.join(dir, 'state.vscdb');
});

/** A connection that changes a throwaway test file: the same bytes, but commits do not wait for the disk. */
function openForWriting(dbPath: string): Database.Database {
  const db = new Database(dbPath);
  db.pragma('synchronous = OFF');
  return db;
}

/**
 * One comparable string per answer: the storage class, then the number, or the bytes: in hex up to 64 of
 * them, else their length and SHA-256. Hex strings of the values past the overflow thresholds were half of
 * this file's CPU time in `expect` and `toString`.
 */
function describeValue(type: string, value: unknown): string {
  if (!(value instanceof Uint8Array)) return `${type}:${String(value ?? '')}`;
  if (value.length <= 64) return `${type}:${Buffer.from(value).toString('hex')}`;
  return `${type}:${value.length}:${createHash('sha256').update(value).digest('hex')}`;
}

function ourAnswer(value: SqlValue | undefined): string | undefined {
  if (value === undefined) return undefined;
  return describeValue(
    value.type,
    value.type === 'text' || value.type === 'blob' ? value.bytes : (value as { value?: unknown }).value,
  );
}

/** What SQLite itself answers for `SELECT value FROM ItemTable WHERE key = ?`, as raw bytes. */
function sqliteAnswers(dbPath: string, keys: string[]): (string | undefined)[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    db.defaultSafeIntegers(true);
    const stmt = db.prepare<[string], { t: string; v: unknown; b: Buffer | null }>(
      'SELECT typeof(value) AS t, value AS v, CAST(value AS BLOB) AS b FROM ItemTable WHERE key = ? LIMIT 1',
    );
    return keys.map((key) => {
      const row = stmt.get(key);
      if (row === undefined) return undefined;
      return describeValue(row.t, row.t === 'text' || row.t === 'blob' ? (row.b ?? Buffer.alloc(0)) : row.v);
    });
  } finally {
    db.close();
  }
}

/** Our reader runs first, so SQLite's own sidecars cannot influence it. */
function expectSameAsSqlite(dbPath: string, keys: string[], options: { indexed?: boolean } = {}): void {
  const reader = openItemTable(dbPath, `${dbPath}-wal`);
  let ours: (string | undefined)[];
  try {
    if (options.indexed !== undefined) expect(reader.indexed).toBe(options.indexed);
    ours = keys.map((key) => ourAnswer(reader.get(key)));
  } finally {
    reader.close();
  }
  expect(ours).toEqual(sqliteAnswers(dbPath, keys));
}

function absentKeys(keys: string[]): string[] {
  return [
    '',
    'cursorAuth/accessToke',
    `${ACCESS_TOKEN_KEY}x`,
    '\u0000',
    '\uffff',
    ...keys.slice(0, 20).map((k) => `${k}!`),
  ];
}

/**
 * Lengths within a few bytes of every threshold of the overflow formula (fileformat2 §1.6): X for
 * index cells and table leaves, M, and each of those plus multiples of U-4. The band is wide because a
 * key's record carries a few bytes of header and rowid: ±12 characters of key still put the payload on
 * both sides of each threshold.
 */
function boundaryLengths(usable: number): number[] {
  const indexMax = Math.floor(((usable - 12) * 64) / 255) - 23;
  const minLocal = Math.floor(((usable - 12) * 32) / 255) - 23;
  // Chains of two and three overflow pages are walked at the smaller page sizes (the walk does not depend
  // on the page size); at 64 KiB they would take keys and values of ~130 KB, looked up through index cells
  // that each overflow too, for half the file's time.
  const multiples = usable > 4096 ? 1 : 3;
  const lengths = new Set<number>();
  for (const base of [indexMax, usable - 35, minLocal]) {
    for (let j = 0; j < multiples; j++) {
      const threshold = base + j * (usable - 4);
      for (let d = -12; d <= 12; d++) if (threshold + d > 0) lengths.add(threshold + d);
    }
  }
  return [...lengths];
}

/**
 * Levels of the ItemTable b-tree and of its key index (1: the root is a leaf), as SQLite's own dbstat
 * reports them, so a test can show its tree really is deep.
 */
function treeLevels(dbPath: string): { table: number; index: number } {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare<[], { name: string; levels: number }>(
        `SELECT name, max(length(path) - length(replace(path, '/', ''))) AS levels FROM dbstat
         WHERE pagetype != 'overflow' GROUP BY name`,
      )
      .all();
    const levels = (name: string) => rows.find((row) => row.name === name)?.levels ?? 0;
    return { table: levels('ItemTable'), index: levels('sqlite_autoindex_ItemTable_1') };
  } finally {
    db.close();
  }
}

/**
 * Filler rows per page size, and the fewest levels (root, interior…, leaf) they give each tree: three where
 * that is cheap, so lookups step from interior page to interior page; two for the index at 4 KiB pages
 * and for both trees at 64 KiB pages, where a third level would take ~10 MB and ~100 MB of rows.
 */
const FILLER_ROWS: Record<number, { rows: number; table: number; index: number }> = {
  512: { rows: 1000, table: 3, index: 3 },
  1024: { rows: 1000, table: 3, index: 3 },
  4096: { rows: 1500, table: 3, index: 2 },
  65536: { rows: 800, table: 2, index: 2 },
};
const pageSizes = [512, 1024, 4096, 65_536];
const encodings = ['UTF-8', 'UTF-16le', 'UTF-16be'] as const;
/**
 * Every page size with every encoding. The token is stored first as TEXT or BLOB (alternating, so each
 * page size and each encoding sees both where the builder put it) and then rewritten as the other.
 */
const matrix = pageSizes.flatMap((pageSize, p) =>
  encodings.map((encoding, e) => ({
    pageSize,
    encoding,
    first: (p + e) % 2 === 0 ? ('text' as const) : ('blob' as const),
    second: (p + e) % 2 === 0 ? ('blob' as const) : ('text' as const),
  })),
);

/**
 * The keys a deep-tree case compares. Each lookup reads its pages from the file, and at 4 KiB and 64 KiB a
 * thousand lookups read hundreds of megabytes: there, every 8th filler key (the keys are random, so these
 * spread over the whole tree), every long and every BLOB or NULL key, and the token. At 512 and 1024 bytes,
 * where both trees are three levels deep, every key.
 */
function keysToCompare(keys: string[], pageSize: number): string[] {
  if (pageSize <= 1024) return keys;
  return keys.filter((key) => {
    const i = Number(/\.(\d+)k*$/.exec(key)?.[1] ?? 0);
    return key === ACCESS_TOKEN_KEY || i % 8 === 0 || i % 50 === 0 || i % 37 === 0 || i % 41 === 0;
  });
}

describe('file reader returns exactly what SQLite returns for a key', () => {
  it.each(matrix)(
    'keys all over a deep tree with overflowing values and index keys ($pageSize-byte pages, $encoding, token as $first then $second)',
    ({ pageSize, encoding, first, second }) => {
      // Longer than a page, so the token itself spills onto overflow pages.
      const token = `eyJhbGciOiJIUzI1NiJ9.${'a'.repeat(pageSize + pageSize / 2)}.sig`;
      const { keys } = createStateVscdb(dbPath, {
        token,
        storage: first,
        pageSize,
        encoding,
        extraItems: FILLER_ROWS[pageSize]!.rows,
        maxValueBytes: Math.min(3 * pageSize, 20_000),
        // Past the index cell's local limit ((U-12)*64/255-23 bytes), so index keys overflow too.
        longKeyChars: Math.floor(pageSize * 0.3) + 200,
        walMode: pageSize !== 1024,
        oddKeys: true,
        seed: pageSize,
      });
      const absent = absentKeys(keys);
      const compared = keysToCompare(keys, pageSize);
      // Not a vacuous sample: a sixth of the keys or more (every key at the small page sizes).
      expect(compared.length).toBeGreaterThan(keys.length / 6);
      expectSameAsSqlite(dbPath, [...compared, ...absent], { indexed: true });
      const levels = treeLevels(dbPath);
      expect(levels.table).toBeGreaterThanOrEqual(FILLER_ROWS[pageSize]!.table);
      expect(levels.index).toBeGreaterThanOrEqual(FILLER_ROWS[pageSize]!.index);

      // The same token in the other storage class (REPLACE gives it a new row at the end of the table).
      const db = openForWriting(dbPath);
      const param = tokenParameter(token, second);
      db.prepare(`INSERT INTO ItemTable (key, value) VALUES (?, ${param.sql})`).run(
        ACCESS_TOKEN_KEY,
        param.value,
      );
      db.close();
      const tokenAnswer = sqliteAnswers(dbPath, [ACCESS_TOKEN_KEY])[0];
      expect(tokenAnswer?.startsWith(`${second}:`)).toBe(true);
      expectSameAsSqlite(dbPath, [ACCESS_TOKEN_KEY, ...keys.slice(0, 50), ...absent], { indexed: true });
    },
  );

  it('rows deleted and replaced (freeblocks, freelist pages, ON CONFLICT REPLACE) read like SQLite', () => {
    const { keys } = createStateVscdb(dbPath, {
      token: 'first',
      extraItems: 2000,
      pageSize: 1024,
      walMode: false,
    });
    const db = openForWriting(dbPath);
    const random = seededRandom(3);
    db.transaction(() => {
      for (const key of keys) {
        const roll = random();
        if (roll < 0.3) db.prepare('DELETE FROM ItemTable WHERE key = ?').run(key);
        else if (roll < 0.5)
          db.prepare('INSERT INTO ItemTable VALUES (?, ?)').run(key, 'r'.repeat(Math.floor(random() * 3000)));
      }
      db.prepare('INSERT INTO ItemTable VALUES (?, ?)').run(ACCESS_TOKEN_KEY, 'second');
    })();
    db.close();
    expectSameAsSqlite(dbPath, [...keys, ...absentKeys(keys)]);
  });

  it.each([512, 1024, 4096, 65_536])(
    'keys and values of every size around the local/overflow limits match SQLite (%i-byte pages)',
    (pageSize) => {
      createStateVscdb(dbPath, { token: 'tok', extraItems: 10, pageSize, walMode: false });
      const lengths = boundaryLengths(pageSize);
      const db = openForWriting(dbPath);
      const keys: string[] = [];
      db.transaction(() => {
        for (const n of lengths) {
          keys.push(`k${n}`.padEnd(n, 'k'), `v${n}`);
          db.prepare('INSERT INTO ItemTable VALUES (?, ?)').run(keys.at(-2), n);
          db.prepare('INSERT INTO ItemTable VALUES (?, ?)').run(keys.at(-1), Buffer.alloc(n, n % 256));
        }
      })();
      db.close();
      expectSameAsSqlite(dbPath, keys, { indexed: true });
    },
  );

  // indexed: whether the reader may seek through an index, or must scan because none provably fits.
  it.each([
    ['columns reordered and quoted', 'ItemTable (value BLOB, "key" TEXT UNIQUE)', true],
    ['a table-level UNIQUE', 'itemtable (id INTEGER PRIMARY KEY, key TEXT, value, UNIQUE (key))', true],
    ['a text PRIMARY KEY', 'ItemTable (key TEXT PRIMARY KEY, value BLOB)', true],
    ['a second autoindex', 'ItemTable (a TEXT UNIQUE, key TEXT UNIQUE, value BLOB)', true],
    ['a DESC primary key', 'ItemTable (key TEXT PRIMARY KEY DESC, value BLOB)', false],
    [
      'an explicit unique index',
      'ItemTable (key, value); CREATE UNIQUE INDEX "i" ON ItemTable ("key" ASC)',
      true,
    ],
    ['no index at all', 'ItemTable (key TEXT, value BLOB)', false],
    ['a non-unique index', 'ItemTable (key, value); CREATE INDEX i ON ItemTable (key)', false],
    [
      'a NOCASE index',
      'ItemTable (key, value); CREATE UNIQUE INDEX i ON ItemTable (key COLLATE NOCASE)',
      false,
    ],
  ])('schema with %s reads like SQLite', (_name, schema, indexed) => {
    const db = openForWriting(dbPath);
    db.exec(`CREATE TABLE ${schema}`);
    const random = seededRandom(5);
    const keys = Array.from({ length: 600 }, (_, i) => `key.${Math.floor(random() * 1e9)}.${i}`);
    db.transaction(() => {
      for (const key of [...keys, ACCESS_TOKEN_KEY]) {
        db.prepare('INSERT INTO ItemTable (key, value) VALUES (?, ?)').run(key, `${key}=${'v'.repeat(50)}`);
      }
    })();
    db.close();
    // Without a usable index each lookup scans (and decodes) every row, so every 8th key already reads
    // each row many times over; all 600 would only make the scan cases quadratic.
    const probes = indexed ? keys : keys.filter((_, i) => i % 8 === 0);
    expectSameAsSqlite(dbPath, [...probes, ACCESS_TOKEN_KEY, ...absentKeys(keys)], { indexed });
  });
});

describe('file reader applies a -wal file like SQLite recovery does (no -shm)', () => {
  function walOnlyCopy(name: string): string {
    const copy = path.join(dir, name);
    fs.mkdirSync(copy);
    return path.join(copy, 'state.vscdb');
  }

  it('committed frames win over the main file, over many commits', () => {
    const { keys } = createStateVscdb(dbPath, { token: 'main-file-token', extraItems: 1500, pageSize: 1024 });
    const writer = openActiveWalWriter(dbPath);
    const random = seededRandom(9);
    for (const key of keys.slice(0, 600)) {
      if (random() < 0.5) writer.db.prepare('DELETE FROM ItemTable WHERE key = ?').run(key);
      else writer.db.prepare('INSERT INTO ItemTable VALUES (?, ?)').run(key, Buffer.alloc(2500, 7));
    }
    writer.setToken('wal-token');
    const copy = walOnlyCopy('copy');
    copyWithoutShm(dbPath, copy);
    writer.close();
    expect(fs.existsSync(`${copy}-shm`)).toBe(false);
    expect(textOf(openAndGet(copy, ACCESS_TOKEN_KEY))).toBe('wal-token');
    expectSameAsSqlite(copy, [...keys, ...absentKeys(keys)]);
  });

  it('frames of a transaction without its commit frame are ignored', () => {
    createStateVscdb(dbPath, { token: 'main-file-token', extraItems: 100, pageSize: 512 });
    const writer = openActiveWalWriter(dbPath);
    writer.setToken('committed-token');
    const committedSize = fs.statSync(`${dbPath}-wal`).size;
    const copy = walOnlyCopy('copy');
    writer.duringTransaction(() => copyWithoutShm(dbPath, copy));
    writer.close();
    expect(fs.statSync(`${copy}-wal`).size).toBeGreaterThan(committedSize);
    expect(textOf(openAndGet(copy, ACCESS_TOKEN_KEY))).toBe('committed-token');
  });

  /** A copy (no -shm) whose -wal holds two token commits; returns where the first commit's frames end. */
  function twoCommitCopy(first: string, second: string): { copy: string; firstCommitEnd: number } {
    createStateVscdb(dbPath, { token: 'main-file-token', extraItems: 100 });
    const writer = openActiveWalWriter(dbPath);
    writer.setToken(first);
    const firstCommitEnd = fs.statSync(`${dbPath}-wal`).size;
    writer.setToken(second);
    const copy = walOnlyCopy('copy');
    copyWithoutShm(dbPath, copy);
    writer.close();
    return { copy, firstCommitEnd };
  }

  it('frames read before their commit frame are not committed: a last frame without a commit size drops its transaction', () => {
    const { copy, firstCommitEnd } = twoCommitCopy('first-token', 'second-token');
    const wal = fs.readFileSync(`${copy}-wal`);
    const frameSize = FRAME_HEADER_BYTES + wal.readUInt32BE(8);
    const lastFrame = (wal.length - WAL_HEADER_BYTES) / frameSize - 1;
    const commitSizeAt = WAL_HEADER_BYTES + lastFrame * frameSize + 4;
    // Both tokens live only in the -wal, and the second transaction ends on its own commit frame.
    expect(textOf(openAndGet(copy, ACCESS_TOKEN_KEY))).toBe('second-token');
    expect(wal.length).toBeGreaterThan(firstCommitEnd);
    expect(wal.readUInt32BE(commitSizeAt)).toBeGreaterThan(0);
    // The checksum writer below reproduces SQLite's own, so the damaged frame still verifies.
    const resealed = Buffer.from(wal);
    resealWalFrom(resealed, 0);
    expect(resealed.equals(wal)).toBe(true);

    wal.writeUInt32BE(0, commitSizeAt);
    resealWalFrom(wal, lastFrame);
    fs.writeFileSync(`${copy}-wal`, wal);
    expect(textOf(openAndGet(copy, ACCESS_TOKEN_KEY))).toBe('first-token');
    expectSameAsSqlite(copy, [ACCESS_TOKEN_KEY]);
  });

  it.each([
    // Inside the page image of the last commit's first frame.
    ['a checksum that does not verify', 24 + 100],
    // Salts are not covered by the checksum, so they are checked on their own.
    ['a salt that does not match the header', 8],
  ])('a commit frame with %s ends the WAL there', (_name, offsetInFrame) => {
    const { copy, firstCommitEnd: goodSize } = twoCommitCopy('good-token', 'damaged-token');
    const wal = fs.readFileSync(`${copy}-wal`);
    wal[goodSize + offsetInFrame] = (wal[goodSize + offsetInFrame]! + 1) % 256;
    fs.writeFileSync(`${copy}-wal`, wal);
    expect(textOf(openAndGet(copy, ACCESS_TOKEN_KEY))).toBe('good-token');
  });

  it('stale frames left after a WAL restart (old salts) are ignored', () => {
    const { keys } = createStateVscdb(dbPath, { token: 'main-file-token', extraItems: 400, pageSize: 1024 });
    const writer = openActiveWalWriter(dbPath);
    for (const key of keys)
      writer.db.prepare('INSERT INTO ItemTable VALUES (?, ?)').run(key, 'old-generation');
    writer.setToken('old-generation-token');
    writer.db.pragma('wal_checkpoint(PASSIVE)');
    const before = fs.statSync(`${dbPath}-wal`).size;
    writer.setToken('new-generation-token');
    expect(fs.statSync(`${dbPath}-wal`).size).toBe(before);
    const copy = walOnlyCopy('copy');
    copyWithoutShm(dbPath, copy);
    writer.close();
    expect(textOf(openAndGet(copy, ACCESS_TOKEN_KEY))).toBe('new-generation-token');
    expectSameAsSqlite(copy, [...keys, ...absentKeys(keys)]);
  });

  it('a -wal with a bad header is ignored and the main file is read', () => {
    createStateVscdb(dbPath, { token: 'main-file-token', extraItems: 50 });
    fs.writeFileSync(`${dbPath}-wal`, Buffer.alloc(5000, 0xab));
    expect(textOf(openAndGet(dbPath, ACCESS_TOKEN_KEY))).toBe('main-file-token');
  });
});

const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

/**
 * Rewrites the cumulative checksums of frame `first` and every frame after it the way SQLite computes
 * them (fileformat2 §4.1), so an edited frame header verifies again. Frame 0 starts from the header's
 * checksum, any later frame from the checksum stored in the frame before it.
 */
function resealWalFrom(wal: Buffer, first: number): void {
  const littleEndian = wal.readUInt32BE(0) === 0x377f0682;
  const frameSize = FRAME_HEADER_BYTES + wal.readUInt32BE(8);
  const word = (at: number) => (littleEndian ? wal.readUInt32LE(at) : wal.readUInt32BE(at));
  const previous = first === 0 ? 24 : WAL_HEADER_BYTES + (first - 1) * frameSize + 16;
  let s1 = wal.readUInt32BE(previous);
  let s2 = wal.readUInt32BE(previous + 4);
  const add = (start: number, end: number) => {
    for (let i = start; i < end; i += 8) {
      s1 = (s1 + word(i) + s2) >>> 0;
      s2 = (s2 + word(i + 4) + s1) >>> 0;
    }
  };
  for (let frame = WAL_HEADER_BYTES + first * frameSize; frame < wal.length; frame += frameSize) {
    add(frame, frame + 8);
    add(frame + FRAME_HEADER_BYTES, frame + frameSize);
    wal.writeUInt32BE(s1, frame + 16);
    wal.writeUInt32BE(s2, frame + 20);
  }
}

function openAndGet(dbPath: string, key: string): SqlValue | undefined {
  const reader = openItemTable(dbPath, `${dbPath}-wal`);
  try {
    return reader.get(key);
  } finally {
    reader.close();
  }
}

function textOf(value: SqlValue | undefined): string | undefined {
  return value?.type === 'text' ? Buffer.from(value.bytes).toString('utf8') : undefined;
}

describe('file reader refuses what it cannot read', () => {
  // Garbage, empty and truncated files are covered through readAppAccessToken in app-db.test.ts.
  it('a b-tree page overwritten with garbage is a format error', () => {
    createStateVscdb(dbPath, { token: 'tok', extraItems: 300, walMode: false });
    const db = new Database(dbPath, { readonly: true });
    const sql = "SELECT rootpage FROM sqlite_schema WHERE name = 'sqlite_autoindex_ItemTable_1'";
    const { rootpage } = db.prepare<[], { rootpage: number }>(sql).get()!;
    db.close();
    const fd = fs.openSync(dbPath, 'r+');
    fs.writeSync(fd, Buffer.alloc(4096, 0xff), 0, 4096, (rootpage - 1) * 4096);
    fs.closeSync(fd);
    expect(() => openAndGet(dbPath, ACCESS_TOKEN_KEY)).toThrow(SqliteFormatError);
  });
});

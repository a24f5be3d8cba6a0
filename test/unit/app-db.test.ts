import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  copyWithoutShm,
  createStateVscdb,
  openActiveWalWriter,
  type StoredToken,
  seededRandom,
  type TokenStorage,
} from '../../fixtures/builders/vscdb.js';
import { type AppTokenRead, readAppAccessToken } from '../../src/auth/app-db.js';
import { useScene } from '../helpers/scene.js';

const scene = useScene();
let dir: string;
let dbPath: string;
beforeEach(() => {
  dir = scene.home;
  dbPath = path.join(dir, 'state.vscdb');
});

/** Every file in `folder` with the sha256 of its bytes. */
function snapshot(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of fs.readdirSync(folder).sort()) {
    files[name] = crypto
      .createHash('sha256')
      .update(fs.readFileSync(path.join(folder, name)))
      .digest('hex');
  }
  return files;
}

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhdXRoMHx1c2VyXzAxIn0.c2lnbmF0dXJl';
const absent: AppTokenRead = { kind: 'absent' };
const token = (value: string): AppTokenRead => ({ kind: 'token', token: value });

const decodingCases: [string, StoredToken | undefined, TokenStorage, AppTokenRead | 'malformed'][] = [
  ['TEXT is the token', TOKEN, 'text', token(TOKEN)],
  ['a UTF-8 BLOB is the token', TOKEN, 'blob', token(TOKEN)],
  [
    'a BOM-less ASCII UTF-16LE BLOB is decoded as UTF-16LE',
    Buffer.from(TOKEN, 'utf16le'),
    'blob',
    token(TOKEN),
  ],
  [
    'a BLOB that is UTF-16LE but not UTF-8 falls back to UTF-16LE',
    Buffer.from('tök€n', 'utf16le'),
    'blob',
    token('tök€n'),
  ],
  ['TEXT is cut at the first NUL', `${TOKEN}\0trailing`, 'text', token(TOKEN)],
  [
    'TEXT with invalid UTF-8 is decoded with replacement characters',
    Buffer.from([0x61, 0xff, 0x62]),
    'text',
    token('a\ufffdb'),
  ],
  ['the token is kept untrimmed', `  ${TOKEN}\n`, 'text', token(`  ${TOKEN}\n`)],
  ['whitespace-only TEXT is absent', ' \t\n ', 'text', absent],
  ['whitespace-only BLOB is absent', Buffer.from('  \n'), 'blob', absent],
  ['empty TEXT is absent', '', 'text', absent],
  ['an empty BLOB is absent', Buffer.alloc(0), 'blob', absent],
  ['NULL is absent', null, 'blob', absent],
  ['INTEGER is absent', 42n, 'blob', absent],
  ['REAL is absent', 1.5, 'blob', absent],
  ['a missing row is absent', undefined, 'text', absent],
  [
    'an undecodable non-empty BLOB is malformed, not absent',
    Buffer.from([0x00, 0xd8, 0xff]),
    'blob',
    'malformed',
  ],
  ['a BLOB with a lone UTF-16 surrogate is malformed', Buffer.from([0x00, 0xd8]), 'blob', 'malformed'],
];

describe('readAppAccessToken decodes the stored value', () => {
  it.each(decodingCases)('idle database (file reader): %s', async (_name, stored, storage, expected) => {
    createStateVscdb(dbPath, { ...(stored === undefined ? {} : { token: stored }), storage, extraItems: 50 });
    expectDecoded(await readAppAccessToken(dbPath), expected);
  });

  it.each(decodingCases)(
    'Cursor running (the page reader reads the live WAL): %s',
    async (_name, stored, storage, expected) => {
      createStateVscdb(dbPath, { extraItems: 50 });
      const writer = openActiveWalWriter(dbPath);
      try {
        if (stored !== undefined) writer.setToken(stored, storage);
        expect(fs.existsSync(`${dbPath}-wal`) && fs.existsSync(`${dbPath}-shm`)).toBe(true);
        expectDecoded(await readAppAccessToken(dbPath), expected);
      } finally {
        writer.close();
      }
    },
  );

  it.each(['UTF-16le', 'UTF-16be'] as const)(
    'a %s database yields TEXT tokens, cut at NUL, on both paths',
    async (encoding) => {
      createStateVscdb(dbPath, { token: `${TOKEN}\0rest`, encoding, extraItems: 200 });
      expect(await readAppAccessToken(dbPath)).toEqual(token(TOKEN));
      const writer = openActiveWalWriter(dbPath);
      try {
        writer.setToken(`ü${TOKEN}\0rest`);
        expect(await readAppAccessToken(dbPath)).toEqual(token(`ü${TOKEN}`));
      } finally {
        writer.close();
      }
    },
  );
});

function expectDecoded(result: AppTokenRead, expected: AppTokenRead | 'malformed'): void {
  if (expected === 'malformed') {
    expect(result.kind).toBe('malformed');
  } else {
    expect(result).toEqual(expected);
  }
}

describe("readAppAccessToken never creates, changes or leaves a file in Cursor's directory", () => {
  it('an idle WAL database is read without creating -wal/-shm and without changing a byte', async () => {
    createStateVscdb(dbPath, { token: TOKEN, extraItems: 500 });
    const header = fs.readFileSync(dbPath).subarray(18, 20);
    expect([...header]).toEqual([2, 2]);
    const before = snapshot(dir);
    expect(Object.keys(before)).toEqual(['state.vscdb']);
    expect(await readAppAccessToken(dbPath)).toEqual(token(TOKEN));
    expect(snapshot(dir)).toEqual(before);
  });

  it('a token present only in an active -wal is returned; database, -wal and -shm bytes are unchanged', async () => {
    createStateVscdb(dbPath, { token: 'stale-token-in-main-file', extraItems: 500 });
    const writer = openActiveWalWriter(dbPath);
    try {
      writer.setToken(TOKEN);
      expect(fs.readFileSync(dbPath).includes(TOKEN)).toBe(false);
      const before = snapshot(dir);
      expect(await readAppAccessToken(dbPath)).toEqual(token(TOKEN));
      // Not even the -shm changes: no SQLite reader writes its read marks into Cursor's index.
      expect(snapshot(dir)).toEqual(before);
    } finally {
      writer.close();
    }
  });

  it('a -wal without -shm (copied while a writer held frames) yields the WAL token and creates no -shm', async () => {
    const source = path.join(dir, 'source');
    fs.mkdirSync(source);
    const sourceDb = path.join(source, 'state.vscdb');
    createStateVscdb(sourceDb, { token: 'stale-token-in-main-file', extraItems: 500 });
    const writer = openActiveWalWriter(sourceDb);
    const target = path.join(dir, 'target');
    fs.mkdirSync(target);
    try {
      writer.setToken(TOKEN);
      copyWithoutShm(sourceDb, path.join(target, 'state.vscdb'));
    } finally {
      writer.close();
    }
    const before = snapshot(target);
    expect(Object.keys(before)).toEqual(['state.vscdb', 'state.vscdb-wal']);
    expect(await readAppAccessToken(path.join(target, 'state.vscdb'))).toEqual(token(TOKEN));
    expect(snapshot(target)).toEqual(before);
  });

  it('a stale -shm without -wal is left alone and the main file is read', async () => {
    createStateVscdb(dbPath, { token: TOKEN, extraItems: 50 });
    fs.writeFileSync(`${dbPath}-shm`, Buffer.alloc(32_768));
    const before = snapshot(dir);
    expect(await readAppAccessToken(dbPath)).toEqual(token(TOKEN));
    expect(snapshot(dir)).toEqual(before);
  });

  it('a missing database is absent and nothing is created', async () => {
    expect(await readAppAccessToken(dbPath)).toEqual(absent);
    expect(await readAppAccessToken(path.join(dir, 'no', 'such', 'state.vscdb'))).toEqual(absent);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('readAppAccessToken reports a damaged database as an error, never a crash', () => {
  const damage: [string, (file: Buffer) => Buffer][] = [
    ['not a SQLite file', () => Buffer.from(`not a database ${TOKEN}`.repeat(100))],
    ['an empty file', () => Buffer.alloc(0)],
    ['a file truncated after two pages', (file) => file.subarray(0, 8192)],
    ['a bad header magic', (file) => Buffer.concat([Buffer.from('SQLite format 4\0'), file.subarray(16)])],
    [
      'an invalid page size',
      (file) => Buffer.concat([file.subarray(0, 16), Buffer.from([0x03, 0x00]), file.subarray(18)]),
    ],
  ];

  it.each(damage)('%s is an error whose message does not contain the token', async (_name, mutate) => {
    createStateVscdb(dbPath, { token: TOKEN, extraItems: 300 });
    fs.writeFileSync(dbPath, mutate(fs.readFileSync(dbPath)));
    const result = await readAppAccessToken(dbPath);
    expect(result.kind).toBe('error');
    if (result.kind === 'error') {
      expect(result.message).toMatch(/^SQLite error reading Cursor app auth: /);
      expect(result.message).not.toContain(TOKEN);
    }
  });

  it('a database without ItemTable is an error naming the table, like SQLite would', async () => {
    const db = new Database(dbPath);
    db.exec('CREATE TABLE other (a)');
    db.close();
    expect(await readAppAccessToken(dbPath)).toEqual({
      kind: 'error',
      message: 'SQLite error reading Cursor app auth: no such table: ItemTable',
    });
  });

  it('randomly corrupted databases always resolve to one of the four outcomes', async () => {
    createStateVscdb(dbPath, { token: TOKEN, extraItems: 200, pageSize: 1024, maxValueBytes: 2000 });
    const pristine = fs.readFileSync(dbPath);
    const random = seededRandom(42);
    const kinds = new Set<string>();
    for (let round = 0; round < 300; round++) {
      const file = Buffer.from(pristine);
      const flips = 1 + Math.floor(random() * 20);
      for (let i = 0; i < flips; i++) {
        // Half the damage lands in the header and page 1 (schema), where it matters most.
        const at = Math.floor(random() * (random() < 0.5 ? 1024 : file.length));
        file[at] = Math.floor(random() * 256);
      }
      fs.writeFileSync(dbPath, file);
      const result = await readAppAccessToken(dbPath);
      kinds.add(result.kind);
      expect(['absent', 'token', 'malformed', 'error']).toContain(result.kind);
      if (result.kind === 'error') expect(result.message).not.toContain(TOKEN);
    }
    expect(kinds.has('error')).toBe(true);
  });
});

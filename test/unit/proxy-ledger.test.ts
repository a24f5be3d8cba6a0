/**
 * The BYOK ledger writer (src/proxy/ledger.ts) on real SQLite files in a temporary directory: the columns
 * of a row, owner-only files, the files it refuses to open (and leaves as they are), and a ledger that
 * cannot be written for a while (disk full, locked): nothing throws, the failure is said once by its code,
 * and the rows kept in memory are written when it can be written again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Ledger,
  type LedgerRow,
  LedgerUnusableError,
  openLedger,
  openLedgerDatabase,
} from '../../src/proxy/ledger.js';
import { makeFifo } from '../helpers/fifo.js';

let root: string;
let dir: string;
let file: string;
const closers: Array<() => void> = [];

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-ledger-'));
  dir = path.join(root, 'data', 'codexbar');
  file = path.join(dir, 'byok.sqlite');
});

afterEach(() => {
  for (const close of closers.splice(0).reverse()) close();
  fs.rmSync(root, { recursive: true, force: true });
});

function row(overrides: Partial<LedgerRow> = {}): LedgerRow {
  return {
    startedAt: 1_767_225_600_000,
    durationMs: 1234,
    upstreamHost: 'api.openai.com',
    route: 'chat',
    model: 'gpt-4.1',
    stream: true,
    status: 200,
    outcome: 'completed',
    usage: { promptTokens: 100, cachedTokens: 50, completionTokens: 9, reasoningTokens: 4 },
    conversation: '0123456789abcdef0123456789abcdef',
    ...overrides,
  };
}

/** What another process sees: a connection of its own. */
function readRows(target = file): Record<string, unknown>[] {
  const db = new Database(target, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT * FROM requests ORDER BY id').all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

function mode(target: string): number {
  return fs.statSync(target).mode & 0o777;
}

async function open(note: (line: string) => void = () => {}): Promise<Ledger> {
  const ledger = await openLedger(file, note);
  closers.push(() => ledger.close());
  return ledger;
}

describe('a row holds what the request was, nothing more, with NULL for a count not reported', () => {
  it('writes every column, completed from the outcome, NULL where the usage or model is absent', async () => {
    const ledger = await open();
    ledger.record(row());
    ledger.record(
      row({
        route: 'responses',
        model: undefined,
        stream: false,
        status: 200,
        outcome: 'upstream-cut',
        usage: { promptTokens: 7 },
        conversation: undefined,
        durationMs: 10.6,
      }),
    );
    ledger.record(
      row({
        outcome: 'upstream-unreachable',
        status: 502,
        usage: undefined,
        upstreamHost: '127.0.0.1:9000',
      }),
    );
    ledger.record(
      row({
        usage: { promptTokens: 0, completionTokens: 0, providerCostUSD: 0.000123, cacheWriteTokens: 3 },
      }),
    );
    expect(ledger.pendingRows).toBe(0);
    const rows = readRows();
    expect(rows).toEqual([
      {
        id: 1,
        started_at: 1_767_225_600_000,
        duration_ms: 1234,
        upstream_host: 'api.openai.com',
        route: 'chat',
        model: 'gpt-4.1',
        stream: 1,
        status: 200,
        completed: 1,
        outcome: 'completed',
        prompt_tokens: 100,
        cached_tokens: 50,
        cache_write_tokens: null,
        completion_tokens: 9,
        reasoning_tokens: 4,
        provider_cost_usd: null,
        conversation: '0123456789abcdef0123456789abcdef',
      },
      {
        id: 2,
        started_at: 1_767_225_600_000,
        duration_ms: 11,
        upstream_host: 'api.openai.com',
        route: 'responses',
        model: null,
        stream: 0,
        status: 200,
        completed: 0,
        outcome: 'upstream-cut',
        prompt_tokens: 7,
        cached_tokens: null,
        cache_write_tokens: null,
        completion_tokens: null,
        reasoning_tokens: null,
        provider_cost_usd: null,
        conversation: null,
      },
      expect.objectContaining({
        id: 3,
        upstream_host: '127.0.0.1:9000',
        status: 502,
        completed: 0,
        outcome: 'upstream-unreachable',
        prompt_tokens: null,
        completion_tokens: null,
      }),
      // A reported 0 stays 0: only an absent count is NULL.
      expect.objectContaining({
        id: 4,
        completed: 1,
        prompt_tokens: 0,
        completion_tokens: 0,
        cache_write_tokens: 3,
        provider_cost_usd: 0.000123,
      }),
    ]);
  });

  it('is WAL, format 1, owner-only in an owner-only directory', async () => {
    const ledger = await open();
    ledger.record(row());
    expect(mode(dir)).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    for (const sidecar of ['-wal', '-shm']) {
      if (fs.existsSync(`${file}${sidecar}`)) expect(mode(`${file}${sidecar}`)).toBe(0o600);
    }
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('user_version', { simple: true })).toBe(1);
    } finally {
      db.close();
    }
  });

  it('opens its own ledger again and appends to it', async () => {
    const first = await openLedger(file, () => {});
    first.record(row());
    first.close();
    const second = await open();
    second.record(row({ model: 'gpt-5' }));
    expect(readRows().map((r) => r.model)).toEqual(['gpt-4.1', 'gpt-5']);
  });
});

describe('a file that is not the ledger this user made is refused, and left as it is', () => {
  const refused = async (reason: RegExp) => {
    const error = await openLedger(file, () => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerUnusableError);
    expect((error as Error).message).toMatch(reason);
  };

  it('a symbolic link at the ledger path', async () => {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const target = path.join(root, 'elsewhere.sqlite');
    fs.writeFileSync(target, 'not yours', { mode: 0o600 });
    fs.symlinkSync(target, file);
    await refused(/symbolic link/);
    expect(fs.readFileSync(target, 'utf8')).toBe('not yours');
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(true);
  });

  it('a dangling symbolic link (nothing is created at its target)', async () => {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const target = path.join(root, 'would-be-created.sqlite');
    fs.symlinkSync(target, file);
    await refused(/symbolic link/);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('a FIFO (and the open does not block on it)', async () => {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    makeFifo(file);
    await refused(/not a regular file/);
    expect(fs.lstatSync(file).isFIFO()).toBe(true);
  });

  it('a file readable by others (the mode check applies to root too)', async () => {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, '', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    await refused(/mode is 644, not 600/);
    expect(mode(file)).toBe(0o644);
  });

  it('a -wal beside it that others can read', async () => {
    const ledger = await openLedger(file, () => {});
    ledger.close();
    fs.writeFileSync(`${file}-wal`, '', { mode: 0o666 });
    fs.chmodSync(`${file}-wal`, 0o666);
    await refused(/-wal/);
  });

  it.runIf(process.getuid?.() === 0)('a file of another user (as root: chowned to nobody)', async () => {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, '', { mode: 0o600 });
    fs.chownSync(file, 65534, 65534);
    await refused(/another user/);
    expect(fs.statSync(file).uid).toBe(65534);
  });

  it('a directory readable by others', async () => {
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    await expect(openLedger(file, () => {})).rejects.toThrow(/755/);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('a ledger of another format (user_version 2) is refused, not replaced', async () => {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const other = new Database(file);
    other.exec(
      "CREATE TABLE requests (id INTEGER PRIMARY KEY, future TEXT); INSERT INTO requests VALUES (1, 'kept')",
    );
    other.pragma('user_version = 2');
    other.close();
    fs.chmodSync(file, 0o600);
    await refused(/format 2, not 1/);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(2);
      expect(db.prepare('SELECT future FROM requests').pluck().all()).toEqual(['kept']);
    } finally {
      db.close();
    }
  });
});

describe('a ledger that cannot be written holds the rows in memory and writes them when it can', () => {
  const SECRET_MODEL = 'model-name-that-must-not-be-logged';

  it('disk full (SQLITE_FULL): no throw, said once by its code, rows kept, all written on recovery', async () => {
    const db = await openLedgerDatabase(file);
    const notes: string[] = [];
    const ledger = new Ledger(db, (line) => notes.push(line));
    closers.push(() => ledger.close());
    ledger.record(row());
    // The next insert that needs a page fails: the file may not grow past what it is now.
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
    let recorded = 1;
    for (let i = 0; i < 1000 && ledger.pendingRows === 0; i++) {
      expect(() => ledger.record(row({ model: SECRET_MODEL, conversation: 'f'.repeat(32) }))).not.toThrow();
      recorded++;
    }
    expect(ledger.pendingRows).toBe(1);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/SQLITE_FULL/);
    for (let i = 0; i < 3; i++) ledger.record(row({ model: SECRET_MODEL }));
    recorded += 3;
    expect(ledger.pendingRows).toBe(4);
    // Said once, not once per row.
    expect(notes).toHaveLength(1);
    const writtenBefore = readRows().length;
    expect(writtenBefore).toBe(recorded - 4);

    db.pragma(`max_page_count = ${pages + 1000}`);
    ledger.flush();
    expect(ledger.pendingRows).toBe(0);
    expect(readRows()).toHaveLength(recorded);
    expect(notes).toHaveLength(2);
    expect(notes[1]).toMatch(/written again/);
    expect(notes.join('\n')).not.toContain(SECRET_MODEL);
    expect(notes.join('\n')).not.toContain('f'.repeat(32));
  });

  it('locked by another process (SQLITE_BUSY): no throw, said once, written after the lock goes', async () => {
    const notes: string[] = [];
    const ledger = await open((line) => notes.push(line));
    ledger.record(row());
    const other = new Database(file);
    closers.push(() => other.close());
    other.exec('BEGIN EXCLUSIVE');
    expect(() => ledger.record(row({ model: SECRET_MODEL }))).not.toThrow();
    ledger.record(row({ model: 'second' }));
    expect(ledger.pendingRows).toBe(2);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/SQLITE_BUSY/);
    expect(notes[0]).not.toContain(SECRET_MODEL);
    other.exec('COMMIT');
    ledger.flush();
    expect(ledger.pendingRows).toBe(0);
    expect(readRows().map((r) => r.model)).toEqual(['gpt-4.1', SECRET_MODEL, 'second']);
    expect(notes).toHaveLength(2);
    expect(notes[1]).toMatch(/written again/);
  });

  it('rows that still cannot be written at close are said, with their number', async () => {
    const notes: string[] = [];
    const ledger = await openLedger(file, (line) => notes.push(line));
    const other = new Database(file);
    closers.push(() => other.close());
    other.exec('BEGIN EXCLUSIVE');
    ledger.record(row());
    ledger.record(row());
    ledger.close();
    expect(notes.at(-1)).toMatch(/2 ledger rows could not be written before exit/);
    other.exec('COMMIT');
  });
});

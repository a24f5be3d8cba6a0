/**
 * A browser's cookies read without an SQLite engine (src/auth/sources/browser/private-copy.ts, readLive):
 * the page reader must find exactly the cookies, expiries and meta version the SQL path finds, from the live
 * database and its `-wal`, and leave the browser's files as they were.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createChromiumCookies, createFirefoxCookies } from '../../fixtures/builders/browser-db.js';
import { chromiumReaders } from '../../src/auth/sources/browser/chromium-reader.js';
import { firefoxReaders } from '../../src/auth/sources/browser/firefox-reader.js';
import { readLive, readPrivateCopy } from '../../src/auth/sources/browser/private-copy.js';
import { readConsistently } from '../../src/auth/sqlite/stable-read.js';
import { snapshotTree } from '../helpers/home.js';
import { useScene } from '../helpers/scene.js';

const scene = useScene({ tmpdir: true });
const open: Array<{ close(): unknown }> = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

const created = new Date('2026-11-01T00:00:00Z');
const expires = new Date('2027-01-01T12:34:56Z');

describe('Chromium cookies without an engine', () => {
  it('are the rows, expiries and meta version the SQL path reads, partitioned and foreign ones left out', async () => {
    const db = path.join(scene.home, 'Cookies');
    createChromiumCookies(db, 24, [
      {
        name: 'WorkosCursorSessionToken',
        host: 'cursor.com',
        encrypted: Buffer.from([1, 2, 3]),
        created,
        expires,
      },
      // A session cookie (has_expires = 0): no expiry.
      { name: 'WorkosCursorSessionToken', host: '.cursor.com', encrypted: Buffer.from([4]), created },
      {
        name: 'WorkosCursorSessionToken',
        host: 'cursor.com',
        encrypted: Buffer.from([5]),
        created,
        topFrameSiteKey: 'https://example.com',
      },
      {
        name: 'WorkosCursorSessionToken',
        host: 'evil-cursor.com',
        encrypted: Buffer.from([6]),
        created,
        expires,
      },
      { name: 'NEXT_LOCALE', host: 'cursor.com', value: 'en', created, expires },
    ]);
    const before = snapshotTree(scene.home);
    const readers = chromiumReaders('Cookies');
    const sql = await readPrivateCopy(db, 'Cookies', readers);
    const pages = readLive(db, 'Cookies', readers.pages);
    expect(sql.ok && pages.ok).toBe(true);
    if (!sql.ok || !pages.ok) return;
    // The same cookies; SQL without ORDER BY answers in whatever order its index gives.
    const byHost = (data: typeof sql.value.data) => ({
      ...data,
      cookies: [...data.cookies].sort((a, b) => a.host.localeCompare(b.host)),
    });
    expect(byHost(pages.value.data)).toEqual(byHost(sql.value.data));
    expect(pages.value.data.metaVersion).toBe(24);
    expect(
      pages.value.data.cookies.map((cookie) => [
        cookie.host,
        cookie.encrypted.toString('hex'),
        cookie.expiresMs,
      ]),
    ).toEqual([
      ['cursor.com', '010203', expires.getTime()],
      ['.cursor.com', '04', undefined],
    ]);
    expect(pages.value.degraded).toMatch(/no SQLite engine/);
    expect(sql.value.degraded).toBeUndefined();
    expect(snapshotTree(scene.home)).toEqual(before);
  });

  it('a database without the cookies table is named as such, by both paths', async () => {
    const db = path.join(scene.home, 'Cookies');
    createFirefoxCookies(db, []);
    const readers = chromiumReaders('Cookies');
    const expected = {
      ok: false,
      skip: { kind: 'corrupt', reason: "Cookies does not have Chromium's cookies table" },
    };
    expect(await readPrivateCopy(db, 'Cookies', readers)).toEqual(expected);
    expect(readLive(db, 'Cookies', readers.pages)).toEqual(expected);
  });
});

describe('Firefox cookies without an engine', () => {
  it('are read from a live database whose rows are only in its -wal, which is left as it was', async () => {
    const db = path.join(scene.home, 'cookies.sqlite');
    const live = createFirefoxCookies(
      db,
      [
        { name: 'WorkosCursorSessionToken', value: 'user_1%3A%3Asecret', created, expires },
        {
          name: 'WorkosCursorSessionToken',
          value: 'partitioned',
          created,
          expires,
          originAttributes: '^partitionKey=%28https%2Cexample.com%29',
        },
        { name: 'WorkosCursorSessionToken', value: 'elsewhere', host: 'example.com', created, expires },
      ],
      { keepOpen: true },
    );
    open.push(live!);
    expect(fs.statSync(`${db}-wal`).size).toBeGreaterThan(0);
    const before = snapshotTree(scene.home);
    const readers = firefoxReaders('cookies.sqlite');
    const pages = readLive(db, 'cookies.sqlite', readers.pages);
    const sql = await readPrivateCopy(db, 'cookies.sqlite', readers);
    expect(pages).toMatchObject({ ok: true });
    expect(sql).toMatchObject({ ok: true });
    if (!pages.ok || !sql.ok) return;
    expect(pages.value.data).toEqual(sql.value.data);
    expect(pages.value.data.map((cookie) => [cookie.value, cookie.expiresMs])).toEqual([
      ['user_1%3A%3Asecret', Math.floor(expires.getTime() / 1000) * 1000],
    ]);
    // The fingerprints taken are those of the files as they are: the snapshot of what was consulted.
    expect(Object.keys(pages.value.files)).toEqual([db, `${db}-wal`]);
    expect(snapshotTree(scene.home)).toEqual(before);
  });

  it('a file that is not a database is skipped as unreadable, with no value from it', async () => {
    const db = path.join(scene.home, 'cookies.sqlite');
    fs.writeFileSync(db, 'WorkosCursorSessionToken=secret-value '.repeat(200));
    const read = readLive(db, 'cookies.sqlite', firefoxReaders('cookies.sqlite').pages);
    expect(read).toMatchObject({ ok: false, skip: { kind: 'corrupt' } });
    expect(JSON.stringify(read)).not.toContain('secret-value');
  });
});

describe('a read another program disturbs', () => {
  it('is done again when what it read from changed, and trusted once it held still', () => {
    const stamps = ['a', 'b', 'b', 'b'];
    let reads = 0;
    const value = readConsistently(
      () => stamps.shift() ?? 'b',
      () => ++reads,
      'the file',
    );
    expect({ value, reads }).toEqual({ value: 2, reads: 2 });
  });

  it('gives up after three reads that never held still, naming what kept changing', () => {
    let stamp = 0;
    let reads = 0;
    expect(() =>
      readConsistently(
        () => String(stamp++),
        () => ++reads,
        'Cookies',
      ),
    ).toThrow('database disk image is malformed (Cookies kept changing while it was read)');
    expect(reads).toBe(3);
  });

  it('a read that failed while the file changed is tried again; one that failed on a still file is not', () => {
    let reads = 0;
    const flaky = () => {
      reads += 1;
      if (reads === 1) throw new Error('torn page');
      return 'read';
    };
    const stamps = ['x', 'y', 'y', 'y'];
    expect(readConsistently(() => stamps.shift() ?? 'y', flaky, 'f')).toBe('read');
    expect(reads).toBe(2);
    reads = 0;
    expect(() => readConsistently(() => 'still', flaky, 'f')).toThrow('torn page');
    expect(reads).toBe(1);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { decodeSnapshot, encodeSnapshot } from '../../src/cache/snapshot-codec.js';
import type { SnapshotFile } from '../../src/cache/snapshot-file.js';
import { readSnapshot, snapshotPath, usageCacheDir } from '../../src/cache/snapshot-read.js';
import { useScene } from '../helpers/scene.js';
import { workedExampleSnapshot } from '../helpers/usage-sample.js';

/**
 * docs/invariants.md, "When a snapshot may be trusted": reading an account's usage snapshot. Any file that
 * cannot be used counts as missing, with the reason `--verbose` gives for fetching instead.
 */

const ACCOUNT = '0123456789abcdef0123456789abcdef';
const OTHER = 'fedcba9876543210fedcba9876543210';
const scene = useScene();
let dir: string;

beforeEach(() => {
  dir = scene.home;
});

const fileFor = (account: string): SnapshotFile =>
  encodeSnapshot(workedExampleSnapshot(), {
    account,
    fetchedAt: new Date('2026-11-30T15:00:00.250Z'),
    baseUrl: 'https://cursor.com',
    timeZone: 'UTC',
  });

const save = (text: string) => fs.writeFileSync(snapshotPath(dir, ACCOUNT), text);

describe('reading a usage snapshot', () => {
  it('lives in the usage directory of the cache dir, one file per account key', () => {
    const env = {
      platform: 'linux',
      env: { HOME: '/home/me' },
      homeDir: '/home/me',
      now: () => new Date('2026-11-30T15:00:00Z'),
    } as const;
    expect(usageCacheDir(env)).toBe(path.join('/home/me/.cache/codexbar', 'usage'));
    expect(snapshotPath(dir, ACCOUNT)).toBe(path.join(dir, `${ACCOUNT}.json`));
  });

  it('a valid file of the account is its snapshot, as the file says', () => {
    const file = fileFor(ACCOUNT);
    save(JSON.stringify(file));
    expect(readSnapshot(dir, ACCOUNT)).toEqual({ kind: 'ok', cached: decodeSnapshot(file) });
  });

  it('no file is missing: no snapshot yet', () => {
    expect(readSnapshot(dir, ACCOUNT)).toEqual({ kind: 'missing', reason: 'no snapshot yet' });
  });

  it('a file that cannot be read is missing, with the reason it could not', () => {
    fs.mkdirSync(snapshotPath(dir, ACCOUNT));
    expect(readSnapshot(dir, ACCOUNT)).toEqual({ kind: 'missing', reason: 'unreadable (it is a directory)' });
  });

  it('a file of 256 KiB is read; one byte more is not one of ours: missing, unread', () => {
    const file = fileFor(ACCOUNT);
    const text = JSON.stringify(file);
    save(text.padEnd(256 * 1024));
    expect(readSnapshot(dir, ACCOUNT)).toEqual({ kind: 'ok', cached: decodeSnapshot(file) });
    save(text.padEnd(256 * 1024 + 1));
    expect(readSnapshot(dir, ACCOUNT)).toEqual({
      kind: 'missing',
      reason: 'unreadable (larger than 262144 bytes)',
    });
  });

  it('a truncated file is missing: not valid JSON', () => {
    save(JSON.stringify(fileFor(ACCOUNT)).slice(0, 40));
    expect(readSnapshot(dir, ACCOUNT)).toEqual({ kind: 'missing', reason: 'not valid JSON' });
  });

  it.each([
    ['null', 'null'],
    ['an empty object', '{}'],
    ['another version', JSON.stringify({ ...fileFor(ACCOUNT), version: 2 })],
  ])('JSON that is not a version 1 snapshot (%s) is missing', (_, text) => {
    save(text);
    expect(readSnapshot(dir, ACCOUNT)).toEqual({ kind: 'missing', reason: 'not a version 1 snapshot' });
  });

  it("another account's snapshot under this account's name is never shown", () => {
    save(JSON.stringify(fileFor(OTHER)));
    expect(readSnapshot(dir, ACCOUNT)).toEqual({ kind: 'missing', reason: 'belongs to another account' });
  });
});

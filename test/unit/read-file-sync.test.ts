/**
 * docs/invariants.md, "Regular files only, never a blocking read": the one bounded read sizes its buffer from
 * fstat, so it must still read a file whose size fstat does not know (Linux's /proc files say 0) or that grew
 * since, whole up to the limit and refused one byte past it. The regular file's own edges (exactly the limit,
 * one byte more) are pinned where each reader's limit is, e.g. cache-snapshot-read.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTextFileSync } from '../../src/local/read-file-sync.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-read-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.skipIf(process.platform !== 'linux')('a file larger than fstat says (/proc/self/cmdline)', () => {
  // The process's own argv, constant while it runs, and a few hundred bytes: read from a 1-byte buffer up.
  const file = '/proc/self/cmdline';
  const text = fs.readFileSync(file, 'utf8');

  it('is read whole when it fits the limit exactly', () => {
    expect(fs.statSync(file).size).toBe(0);
    expect(text.length).toBeGreaterThan(16);
    expect(readTextFileSync(file, Buffer.byteLength(text))).toEqual({ kind: 'ok', text });
    expect(readTextFileSync(file, 1024 * 1024)).toEqual({ kind: 'ok', text });
  });

  it('is refused one byte past the limit', () => {
    const limit = Buffer.byteLength(text) - 1;
    expect(readTextFileSync(file, limit)).toEqual({
      kind: 'unreadable',
      reason: `larger than ${limit} bytes`,
    });
  });
});

describe('a regular file', () => {
  it('of every size up to a few pages reads back byte for byte, a byte-order mark dropped', () => {
    const file = path.join(dir, 'sizes');
    for (const size of [0, 1, 2, 3, 4095, 4096, 4097, 65_537]) {
      const text = 'é'.repeat(size).slice(0, size);
      fs.writeFileSync(file, text);
      expect(readTextFileSync(file, 1024 * 1024), `${size}`).toEqual({ kind: 'ok', text });
      fs.writeFileSync(file, `\ufeff${text}`);
      expect(readTextFileSync(file, 1024 * 1024), `BOM ${size}`).toEqual({ kind: 'ok', text });
    }
  });
});

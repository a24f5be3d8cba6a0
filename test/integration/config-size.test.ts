/**
 * The config file's size: every read stops at 1 MiB (docs/invariants.md, "Regular files only, never a
 * blocking read"), so no write may leave a file past it, and logout can shrink a file that got there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeJson } from '../../src/lib/json.js';
import { JSON_FILE_LIMIT } from '../../src/local/read-file.js';
import { proAccount } from '../helpers/accounts.js';
import { makeToken } from '../helpers/home.js';
import { useScene } from '../helpers/scene.js';
import { configWithAccountEntries } from '../helpers/token-accounts.js';

const scene = useScene({ now: new Date('2026-07-20T15:00:00Z'), frozen: true });
const configFile = () => path.join(scene.home, '.config', 'codexbar', 'config.json');

/** A config of token accounts as codexbar writes it, padded with filler accounts to exactly `bytes`. */
function writeConfigOf(bytes: number): number {
  const filler = (i: number, extra = 0) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    label: `filler-${String(i).padStart(5, '0')}`,
    token: `WorkosCursorSessionToken=user_filler${String(i).padStart(5, '0')}%3A%3A${'x'.repeat(400 + extra)}`,
    addedAt: 1_735_123_456,
    lastUsed: null,
  });
  const text = (count: number, extra = 0) => {
    const fillers = Array.from({ length: count }, (_, i) => filler(i, i === count - 1 ? extra : 0));
    return `${encodeJson(configWithAccountEntries(fillers), { pretty: true })}\n`;
  };
  // Every filler is the same size (its numbers are padded), so the count follows from two encodings, and
  // the last one's token takes up the rest.
  const one = Buffer.byteLength(text(1));
  const each = Buffer.byteLength(text(2)) - one;
  const count = 1 + Math.floor((bytes - one) / each);
  const written = text(count, bytes - one - (count - 1) * each);
  fs.mkdirSync(path.dirname(configFile()), { recursive: true });
  fs.writeFileSync(configFile(), written, { mode: 0o600 });
  return Buffer.byteLength(written);
}

async function login() {
  const token = await makeToken('user_size', { email: 'size@example.com' });
  await scene.serve([proAccount([token.cookieValue], 'size@example.com')]);
  return scene.run(['login', '--stdin'], {
    stdin: `Cookie: WorkosCursorSessionToken=${token.cookieValue}\n`,
  });
}

describe('a write whose result could not be read back is refused', () => {
  it('login that would take the file past 1 MiB: refused, the file unchanged; with room, it is saved', async () => {
    const size = writeConfigOf(JSON_FILE_LIMIT - 200);
    const before = fs.readFileSync(configFile());
    const refused = await login();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^Error: Refusing to write the config file ~\/\.config\/codexbar\/config\.json: it would be \d+ bytes, more than the 1 MiB codexbar reads\.\nHint: Nothing was changed\. Remove token accounts you no longer use first/,
    );
    expect(fs.readFileSync(configFile()).equals(before)).toBe(true);
    expect(size).toBeLessThanOrEqual(JSON_FILE_LIMIT);

    writeConfigOf(JSON_FILE_LIMIT - 2000);
    expect((await login()).code).toBe(0);
    expect(fs.statSync(configFile()).size).toBeLessThanOrEqual(JSON_FILE_LIMIT);
  });
});

describe('a config past 1 MiB', () => {
  it('fails other commands, but logout can shrink it, one account at a time', async () => {
    const size = writeConfigOf(JSON_FILE_LIMIT + 1500);
    expect(size).toBeGreaterThan(JSON_FILE_LIMIT);
    const usage = await scene.run(['usage']);
    expect(usage.stderr).toContain('larger than 1 MiB');

    const first = await scene.run(['logout', '--account', 'filler-00000']);
    expect(first.code, first.stderr).toBe(0);
    const smaller = fs.statSync(configFile()).size;
    expect(smaller).toBeLessThan(size);
    expect(smaller).toBeGreaterThan(JSON_FILE_LIMIT);

    for (const label of ['filler-00001', 'filler-00002', 'filler-00003']) {
      expect((await scene.run(['logout', '--account', label])).code).toBe(0);
    }
    expect(fs.statSync(configFile()).size).toBeLessThanOrEqual(JSON_FILE_LIMIT);
    expect((await scene.run(['config', 'validate'])).code).toBe(0);
  });

  it('a change that does not shrink it (config disable) is refused, naming the way out', async () => {
    writeConfigOf(JSON_FILE_LIMIT + 1500);
    const result = await scene.run(['config', 'disable', '--provider', 'cursor']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Remove token accounts you no longer use first');
  });
});

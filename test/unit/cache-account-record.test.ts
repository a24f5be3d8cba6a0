import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountKey } from '../../src/cache/account-key.js';
import { authInputs, recordedAccount } from '../../src/cache/account-record.js';
import { writeAccountRecord } from '../../src/cache/snapshot-store.js';
import type { LocalEnvironment } from '../../src/local/environment.js';
import { makeTempHome } from '../helpers/cli.js';
import {
  makeToken,
  writeAgentToken,
  writeAppToken,
  writeCachedCookie,
  writeConfig,
} from '../helpers/home.js';

/** docs/behaviour.md §26.7: the fast path's answer to "which account is this?" is the ladder's, or none. */

const NOW = new Date('2026-11-30T15:00:00Z');
let home: string;
let cleanup: () => void;
let env: LocalEnvironment;
let dir: string;

beforeEach(() => {
  ({ home, cleanup } = makeTempHome());
  env = { platform: 'linux', env: { HOME: home }, homeDir: home, now: () => NOW };
  dir = path.join(home, '.cache', 'codexbar', 'usage');
});
afterEach(() => cleanup());

/** What a live run does: fingerprint, (read the ladder), record the winner. */
async function record(
  winner: Parameters<typeof writeAccountRecord>[1],
  account?: string,
  mode: 'auto' | 'web' = 'auto',
) {
  await writeAccountRecord(authInputs(env, mode, dir), winner, account);
}

const now = (mode: 'auto' | 'web' = 'auto') => recordedAccount(env, mode, authInputs(env, mode, dir));

describe('a token winner is read again, not trusted', () => {
  it('the app token’s account, and the new one after the app signs in as someone else', async () => {
    writeAppToken(home, (await makeToken('user_one')).jwt);
    await record('app');
    expect(await now()).toBe(accountKey({ userId: 'user_one' }));

    fs.rmSync(path.join(home, '.config', 'Cursor', 'User', 'globalStorage', 'state.vscdb'));
    writeAppToken(home, (await makeToken('user_two')).jwt);
    expect(await now()).toBe(accountKey({ userId: 'user_two' }));
  });

  it('nothing once the app token is within 60 s of expiry: the ladder would move on', async () => {
    writeAppToken(home, (await makeToken('user_one', { exp: NOW.getTime() / 1000 + 60 })).jwt);
    await record('app');
    expect(await now()).toBeUndefined();
  });

  it('cursor-agent’s account, until the app, which comes first, holds a usable token', async () => {
    writeAgentToken(home, (await makeToken('user_agent')).jwt);
    await record('agent');
    expect(await now()).toBe(accountKey({ userId: 'user_agent' }));

    writeAppToken(home, (await makeToken('user_app')).jwt);
    expect(await now()).toBeUndefined();
  });

  it('on macOS the app comes first, before any file the record fingerprints', async () => {
    env = { ...env, platform: 'darwin' };
    const dbPath = path.join(
      home,
      'Library',
      'Application Support',
      'Cursor',
      'User',
      'globalStorage',
      'state.vscdb',
    );
    fs.mkdirSync(path.dirname(dbPath), { recursive: true });
    writeAppToken(home, (await makeToken('user_mac')).jwt);
    fs.renameSync(path.join(home, '.config', 'Cursor', 'User', 'globalStorage', 'state.vscdb'), dbPath);
    await record('app');
    expect(await now()).toBe(accountKey({ userId: 'user_mac' }));
  });
});

describe('a cookie winner is vouched for by fingerprints', () => {
  it('the cached cookie’s account while the file is unchanged, then nothing', async () => {
    writeCachedCookie(home, 'WorkosCursorSessionToken=x');
    const key = accountKey({ userId: 'user_cached' });
    await record('cached', key);
    expect(await now()).toBe(key);

    writeCachedCookie(home, 'WorkosCursorSessionToken=y');
    expect(await now()).toBeUndefined();
  });

  it('the config file’s manual header, with its token-account label, until the config changes', async () => {
    writeConfig(home, { version: 1, providers: [{ id: 'cursor', cookieHeader: 'a=1' }] });
    const key = accountKey({ userId: 'user_manual', label: 'Work' });
    await record('manual', key);
    expect(await now()).toBe(key);

    writeConfig(home, { version: 1, providers: [{ id: 'cursor', cookieHeader: 'a=2' }] });
    expect(await now()).toBeUndefined();
  });

  it('a token winner is invalidated by a cookie file appearing before it in the order', async () => {
    writeAppToken(home, (await makeToken('user_one')).jwt);
    await record('app');

    writeCachedCookie(home, 'WorkosCursorSessionToken=z');
    expect(await now()).toBeUndefined();
  });

  it('a config appearing at the legacy or XDG path counts too', async () => {
    writeAppToken(home, (await makeToken('user_one')).jwt);
    await record('app');

    fs.mkdirSync(path.join(home, '.codexbar'));
    fs.writeFileSync(path.join(home, '.codexbar', 'config.json'), '{}');
    expect(await now()).toBeUndefined();
  });
});

describe('nothing is vouched for', () => {
  it.each(['browser', 'stored'] as const)(
    'when the %s source won (it changes without a file we watch)',
    async (winner) => {
      await record(winner, accountKey({ userId: 'u' }));
      expect(await now()).toBeUndefined();
    },
  );

  it('without a record, with a record of another source mode, or with a damaged one', async () => {
    writeAppToken(home, (await makeToken('user_one')).jwt);
    expect(await now()).toBeUndefined();

    await record('app', undefined, 'web');
    expect(await now('auto')).toBeUndefined();

    await record('app');
    const file = fs
      .readdirSync(dir)
      .find(
        (name) =>
          name.startsWith('account-') && name !== path.basename(authInputs(env, 'web', dir).recordPath),
      )!;
    fs.writeFileSync(path.join(dir, file), '{"version":1,"winner":"app"');
    expect(await now()).toBeUndefined();
  });
});

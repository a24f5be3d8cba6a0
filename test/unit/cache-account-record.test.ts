import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { decodeAccessToken } from '../../src/auth/jwt.js';
import type { AuthSourceId } from '../../src/auth/types.js';
import { accountKey } from '../../src/cache/account-key.js';
import { writeAccountRecord } from '../../src/cache/snapshot-write.js';
import type { LocalEnvironment } from '../../src/local/environment.js';
import { fileFingerprint } from '../../src/local/fingerprint.js';
import { authInputs, recordedAccount } from '../../src/statusline/account-record.js';
import {
  makeToken,
  writeAgentToken,
  writeAppToken,
  writeCachedCookie,
  writeConfig,
} from '../helpers/home.js';
import { useScene } from '../helpers/scene.js';

/**
 * docs/invariants.md, "When a snapshot may be trusted": the fast path's answer to "which account is this?"
 * is the ladder's, or none.
 */

const NOW = new Date('2026-11-30T15:00:00Z');
const NOW_S = NOW.getTime() / 1000;
const scene = useScene();
let env: LocalEnvironment;
let dir: string;
let clock: Date;

beforeEach(() => {
  clock = NOW;
  env = { platform: 'linux', env: { HOME: scene.home }, homeDir: scene.home, now: () => clock };
  dir = path.join(scene.home, '.cache', 'codexbar', 'usage');
});

const appDb = () => path.join(scene.home, '.config', 'Cursor', 'User', 'globalStorage', 'state.vscdb');

/** What a live run does: fingerprint, (the ladder reads), then record the session that won. */
async function record(winner: AuthSourceId, token?: string, mode: 'auto' | 'web' = 'auto', label?: string) {
  const inputs = authInputs(env, mode, dir);
  const decoded = token === undefined ? undefined : decodeAccessToken(token);
  const jwt = decoded?.kind === 'ok' ? decoded.identity : undefined;
  const account = accountKey({ userId: jwt?.userId ?? 'user_cookie', label });
  writeAccountRecord(inputs, { source: winner, jwt }, account);
}

const now = (mode: 'auto' | 'web' = 'auto') => recordedAccount(env, mode, authInputs(env, mode, dir));

describe('a token winner', () => {
  it('is vouched for while its store is unchanged and its token usable; a new login is read again', async () => {
    const one = await makeToken('user_one');
    writeAppToken(scene.home, one.jwt);
    await record('app', one.jwt);
    expect(await now()).toBe(accountKey({ userId: 'user_one' }));

    fs.rmSync(appDb());
    writeAppToken(scene.home, (await makeToken('user_two')).jwt);
    expect(await now()).toBe(accountKey({ userId: 'user_two' }));
  });

  it('is not vouched for once its token is within 60 s of expiry, whether or not the file changed', async () => {
    const token = await makeToken('user_one', { exp: NOW_S + 120 });
    writeAppToken(scene.home, token.jwt);
    await record('app', token.jwt);
    expect(await now()).toBe(accountKey({ userId: 'user_one' }));

    clock = new Date(NOW.getTime() + 60_000);
    expect(await now()).toBeUndefined();
  });

  it('cursor-agent’s account, until the app, which comes first, gets a usable token', async () => {
    const agent = await makeToken('user_agent');
    writeAgentToken(scene.home, agent.jwt);
    await record('agent', agent.jwt);
    expect(await now()).toBe(accountKey({ userId: 'user_agent' }));

    writeAppToken(scene.home, (await makeToken('user_app')).jwt);
    expect(await now()).toBeUndefined();
  });

  it('an app store that changed but still holds no usable token is passed over again', async () => {
    writeAppToken(scene.home, (await makeToken('user_old', { exp: NOW_S - 10 })).jwt);
    const agent = await makeToken('user_agent');
    writeAgentToken(scene.home, agent.jwt);
    await record('agent', agent.jwt);

    fs.rmSync(appDb());
    writeAppToken(scene.home, (await makeToken('user_older', { exp: NOW_S - 20 })).jwt);
    expect(await now()).toBe(accountKey({ userId: 'user_agent' }));
  });

  it('on macOS the app comes first, before any file the record fingerprints', async () => {
    env = { ...env, platform: 'darwin' };
    const token = await makeToken('user_mac');
    writeAppToken(scene.home, token.jwt);
    const macDb = path.join(
      scene.home,
      'Library',
      'Application Support',
      'Cursor',
      'User',
      'globalStorage',
      'state.vscdb',
    );
    fs.mkdirSync(path.dirname(macDb), { recursive: true });
    fs.renameSync(appDb(), macDb);
    await record('app', token.jwt);
    expect(await now()).toBe(accountKey({ userId: 'user_mac' }));
  });
});

describe('a cookie winner is vouched for by fingerprints', () => {
  it('the cached cookie’s account while the file is unchanged, then nothing', async () => {
    writeCachedCookie(scene.home, 'WorkosCursorSessionToken=x');
    await record('cached');
    expect(await now()).toBe(accountKey({ userId: 'user_cookie' }));

    writeCachedCookie(scene.home, 'WorkosCursorSessionToken=y');
    expect(await now()).toBeUndefined();
  });

  it('the config file’s manual header, with its token-account label, until the config changes', async () => {
    writeConfig(scene.home, { version: 1, providers: [{ id: 'cursor', cookieHeader: 'a=1' }] });
    await record('manual', undefined, 'auto', 'Work');
    expect(await now()).toBe(accountKey({ userId: 'user_cookie', label: 'Work' }));

    writeConfig(scene.home, { version: 1, providers: [{ id: 'cursor', cookieHeader: 'a=2' }] });
    expect(await now()).toBeUndefined();
  });

  it('a token winner is invalidated by a cookie file appearing before it in the order', async () => {
    const one = await makeToken('user_one');
    writeAppToken(scene.home, one.jwt);
    await record('app', one.jwt);

    writeCachedCookie(scene.home, 'WorkosCursorSessionToken=z');
    expect(await now()).toBeUndefined();
  });

  it('a config appearing at the legacy path counts too', async () => {
    const one = await makeToken('user_one');
    writeAppToken(scene.home, one.jwt);
    await record('app', one.jwt);

    fs.mkdirSync(path.join(scene.home, '.codexbar'));
    fs.writeFileSync(path.join(scene.home, '.codexbar', 'config.json'), '{}');
    expect(await now()).toBeUndefined();
  });
});

describe('a browser winner is vouched for by the files its walk consulted', () => {
  const cookieDb = () => path.join(scene.home, '.mozilla', 'firefox', 'p.default', 'cookies.sqlite');

  /** What a live run leaves after the browser walk read `files` (fingerprinted as it read them). */
  async function recordBrowser(options: { exp?: number; cookieExpiresAt?: Date; files?: string[] } = {}) {
    const inputs = authInputs(env, 'auto', dir);
    const token = await makeToken('user_browser', { exp: options.exp ?? NOW_S + 86_400 });
    const decoded = decodeAccessToken(token.jwt);
    const session = {
      source: 'browser' as const,
      jwt: decoded.kind === 'ok' ? decoded.identity : undefined,
      cookieFiles: Object.fromEntries((options.files ?? [cookieDb()]).map((f) => [f, fileFingerprint(f)])),
      cookieExpiresAt: options.cookieExpiresAt,
    };
    writeAccountRecord(inputs, session, accountKey({ userId: 'user_browser' }));
  }

  beforeEach(() => {
    fs.mkdirSync(path.dirname(cookieDb()), { recursive: true });
    fs.writeFileSync(cookieDb(), 'cookies');
  });

  it('while every file is unchanged; a changed cookie database, or one appearing, hands over', async () => {
    const wal = `${cookieDb()}-wal`;
    await recordBrowser({ files: [cookieDb(), wal] });
    expect(await now()).toBe(accountKey({ userId: 'user_browser' }));

    fs.writeFileSync(wal, 'a new cookie');
    expect(await now()).toBeUndefined();
    fs.rmSync(wal);
    expect(await now()).toBe(accountKey({ userId: 'user_browser' }));

    fs.appendFileSync(cookieDb(), ', and one more');
    expect(await now()).toBeUndefined();
  });

  it('until 60 s before its token expires', async () => {
    await recordBrowser({ exp: NOW_S + 120 });
    clock = new Date(NOW.getTime() + 60_000 - 1);
    expect(await now()).toBe(accountKey({ userId: 'user_browser' }));
    clock = new Date(NOW.getTime() + 60_000);
    expect(await now()).toBeUndefined();
  });

  it('until its cookie expires in the browser, when that comes first', async () => {
    await recordBrowser({ cookieExpiresAt: new Date(NOW.getTime() + 5_000) });
    clock = new Date(NOW.getTime() + 4_999);
    expect(await now()).toBe(accountKey({ userId: 'user_browser' }));
    clock = new Date(NOW.getTime() + 5_000);
    expect(await now()).toBeUndefined();
  });

  it('never without fingerprints: its walk passed a profile over for a reason no file shows', async () => {
    await record('browser');
    expect(await now()).toBeUndefined();
  });
});

describe('nothing is vouched for', () => {
  it('when the stored session won (it changes without a file we watch)', async () => {
    await record('stored');
    expect(await now()).toBeUndefined();
  });

  it('without a record, with a record of another source mode, or with a damaged one', async () => {
    const one = await makeToken('user_one');
    writeAppToken(scene.home, one.jwt);
    expect(await now()).toBeUndefined();

    await record('app', one.jwt, 'web');
    expect(await now('auto')).toBeUndefined();

    await record('app', one.jwt);
    const file = authInputs(env, 'auto', dir).recordPath;
    fs.writeFileSync(file, '{"version":1,"winner":"app"');
    expect(await now()).toBeUndefined();
  });
});

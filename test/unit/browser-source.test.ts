import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appBoundValue,
  chromiumPlaintext,
  encryptLinuxV10,
  encryptLinuxV11,
  encryptMacV10,
} from '../../fixtures/builders/browser-crypto.js';
import { createChromiumCookies, createFirefoxCookies } from '../../fixtures/builders/browser-db.js';
import {
  chromiumProfileDb,
  chromiumRoot,
  firefoxRoot,
  writeFirefoxProfiles,
} from '../../fixtures/builders/browser-tree.js';
import type { KeyProviders } from '../../src/auth/sources/browser/key-providers.js';
import { type Outcome, ok, skip } from '../../src/auth/sources/browser/outcome.js';
import {
  COPY_LIMIT_BYTES,
  copyRegularFile,
  readPrivateCopy,
} from '../../src/auth/sources/browser/private-copy.js';
import { type BrowserImportOptions, load } from '../../src/auth/sources/browser/source.js';
import type { SourceResult } from '../../src/auth/types.js';
import type { BrowserId } from '../../src/config/schema.js';
import type { Platform } from '../../src/local/environment.js';
import { fileFingerprint } from '../../src/local/fingerprint.js';
import { addChromium, addFirefox, sessionToken, snapshotBrowsers } from '../helpers/browser-home.js';
import { makeFifo, startFifoRescue } from '../helpers/fifo.js';
import { localEnvironment } from '../helpers/local-sources.js';
import { useScene } from '../helpers/scene.js';
import { useUnprivileged } from '../helpers/unprivileged.js';

const NOW = new Date('2026-11-20T12:00:00Z');
// os.tmpdir() follows TMPDIR: the private copies must appear (and vanish) in the scene's own tmp.
const scene = useScene({ tmpdir: true });
const unprivileged = useUnprivileged();

const environment = (platform: Platform) => localEnvironment(scene.home, { now: NOW, platform });

/** Key stores that answer from memory and record what was asked. */
function providers(answers: { linux?: Outcome<string[]>; mac?: Outcome<string> } = {}) {
  const asked: string[] = [];
  const fake: KeyProviders = {
    linuxPasswords: async (names) => {
      asked.push(`keyring:${names.secretApplications.join(',')}`);
      return answers.linux ?? skip('key-unavailable', 'the keyring is locked', 'Unlock your keyring.');
    },
    keychainPassword: async (names) => {
      asked.push(`keychain:${names.keychainService}`);
      return answers.mac ?? skip('key-unavailable', 'no item');
    },
    dpapiUnprotect: async () => {
      asked.push('dpapi');
      return skip('key-unavailable', 'no DPAPI here');
    },
  };
  return { fake, asked };
}

async function run(
  platform: Platform,
  options: Partial<BrowserImportOptions> = {},
  keys = providers().fake,
): Promise<SourceResult> {
  const before = snapshotBrowsers(scene.home);
  const result = await load(
    environment(platform),
    { allowKeychainPrompt: false, ...options },
    { providers: keys },
  );
  // Whatever happened: the browser files are byte-for-byte as they were, and no copy is left behind.
  expect(snapshotBrowsers(scene.home)).toEqual(before);
  expect(fs.readdirSync(scene.tmp)).toEqual([]);
  return result;
}

/** A Linux Firefox with one profile; its cookie database is left to the test. */
function oneFirefoxProfile(): string {
  const root = firefoxRoot(scene.home, 'linux');
  return writeFirefoxProfiles(root, 'linux', [{ name: 'default', folder: 'd.default' }], 'default').default!;
}

function session(result: SourceResult) {
  if (result.kind !== 'session') throw new Error(`expected a session, got: ${result.reason}`);
  return result;
}

describe('the browser source finds the cookie and says why it passed over the others', () => {
  it('Linux: Firefox profiles first (default first), then Chrome; notes name each profile passed over', async () => {
    const firefoxUser = await sessionToken('firefox_user');
    const chromeUser = await sessionToken('chrome_user');
    addFirefox(scene.home, 'linux', [
      { name: 'default-release', folder: 'r.default-release' },
      { name: 'work', folder: 'w.work', session: firefoxUser.cookieValue },
    ]);
    addChromium(scene.home, 'linux', 'chrome', [
      { profile: 'Default', encrypt: encryptLinuxV10, session: chromeUser.cookieValue },
    ]);

    const found = session(await run('linux'));

    expect(found.session).toMatchObject({
      source: 'browser',
      description: 'browser cookie from Firefox profile "work" (~/.mozilla/firefox/w.work/cookies.sqlite)',
      cookieHeader: `WorkosCursorSessionToken=${firefoxUser.cookieValue}`,
      jwt: { userId: 'firefox_user' },
    });
    expect(found.session.final).toBeUndefined();
    expect(found.notes).toEqual(['Skipped Firefox profile "default-release": no cursor.com session cookie']);

    // A rejected cookie resumes the search after that profile.
    const next = session(await found.next!());
    expect(next.session.cookieHeader).toBe(`WorkosCursorSessionToken=${chromeUser.cookieValue}`);
    expect(next.session.description).toBe(
      'browser cookie from Chrome profile "Default" (~/.config/google-chrome/Default/Network/Cookies)',
    );
    const end = await next.next!();
    expect(end).toMatchObject({
      kind: 'skip',
      reason: 'no other browser profile has a usable cursor.com session cookie',
    });
    expect(end.notes).toEqual([
      'Skipped Chromium: not installed',
      'Skipped Brave: not installed',
      'Skipped Edge: not installed',
      'Skipped Vivaldi: not installed',
    ]);
  });

  it('nothing installed: one note per browser and a reason that lists them', async () => {
    const result = await run('darwin');
    expect(result).toMatchObject({
      kind: 'skip',
      cause: 'absent',
      reason: 'no supported browser found (looked for Firefox, Chrome, Chromium, Brave, Edge, Vivaldi, Arc)',
    });
    expect(result.notes).toHaveLength(7);
  });

  describe('installed, never opened: "no profile yet", not "not installed"', () => {
    async function loadWith(platform: Platform, env: Record<string, string>, browser?: BrowserId) {
      return load(
        localEnvironment(scene.home, { now: NOW, platform, env }),
        { allowKeychainPrompt: false, browser },
        { providers: providers().fake },
      );
    }

    it('Linux: a chromium command on PATH, and no ~/.config/chromium', async () => {
      const bin = path.join(scene.home, 'usr-bin');
      fs.mkdirSync(bin);
      fs.writeFileSync(path.join(bin, 'chromium'), '#!/bin/sh\n', { mode: 0o755 });
      const env = { PATH: `relative-dir:${bin}` };

      const only = await loadWith('linux', env, 'chromium');
      const all = await loadWith('linux', env);

      expect(only).toMatchObject({ kind: 'skip', reason: 'no usable cursor.com session cookie in Chromium' });
      expect(only.notes).toEqual([
        `Skipped Chromium: no profile yet (~/usr-bin/chromium is installed, and has not been opened: no ~/.config/chromium)`,
      ]);
      expect(all.notes).toContain('Skipped Chrome: not installed');
      expect(all.notes?.filter((note) => note.includes('no profile yet'))).toHaveLength(1);
    });

    it('Linux: the same command name off PATH is not an install', async () => {
      fs.mkdirSync(path.join(scene.home, 'elsewhere'));
      fs.writeFileSync(path.join(scene.home, 'elsewhere', 'chromium'), '');
      const result = await loadWith('linux', { PATH: '/nonexistent' }, 'chromium');
      expect(result.notes).toEqual(['Skipped Chromium: not installed']);
    });

    it('macOS: an app bundle in ~/Applications', async () => {
      fs.mkdirSync(path.join(scene.home, 'Applications', 'Firefox.app'), { recursive: true });
      const result = await loadWith('darwin', {}, 'firefox');
      expect(result.notes).toEqual([
        'Skipped Firefox: no profile yet (~/Applications/Firefox.app is installed, and has not been opened: no ~/Library/Application Support/Firefox)',
      ]);
    });
  });

  it('--browser searches that browser only', async () => {
    addFirefox(scene.home, 'linux', [
      { name: 'default', folder: 'd.default', session: (await sessionToken('u')).cookieValue },
    ]);
    const result = await run('linux', { browser: 'chrome' });
    expect(result).toMatchObject({ kind: 'skip', reason: 'Chrome is not installed' });
    expect(result.notes).toEqual(['Skipped Chrome: not installed']);
    expect((await run('linux', { browser: 'arc' })).notes).toEqual(['Skipped Arc: not available on Linux']);
  });

  it('reads a running Firefox: rows that exist only in its -wal, with the -wal and -shm left as they were', async () => {
    const user = await sessionToken('wal_user');
    const dbPath = oneFirefoxProfile();
    const created = new Date('2026-11-10T00:00:00Z');
    const running = createFirefoxCookies(
      dbPath,
      [
        {
          name: 'WorkosCursorSessionToken',
          value: user.cookieValue,
          expires: new Date('2027-01-01T00:00:00Z'),
          created,
        },
      ],
      { keepOpen: true, expiryInMs: true },
    );
    try {
      expect(fs.existsSync(`${dbPath}-wal`)).toBe(true);
      const found = session(await run('linux', { browser: 'firefox' }));
      expect(found.session.cookieHeader).toBe(`WorkosCursorSessionToken=${user.cookieValue}`);
      expect(fs.readdirSync(path.dirname(dbPath)).sort()).toEqual([
        'cookies.sqlite',
        'cookies.sqlite-shm',
        'cookies.sqlite-wal',
      ]);
    } finally {
      running?.close();
    }
  });

  it('Firefox: only cursor.com and .cursor.com, never partitioned or cursor.sh cookies', async () => {
    const dbPath = oneFirefoxProfile();
    const created = new Date('2026-11-10T00:00:00Z');
    const expires = new Date('2027-01-01T00:00:00Z');
    createFirefoxCookies(dbPath, [
      { name: 'WorkosCursorSessionToken', value: 'from-cursor-sh', host: '.cursor.sh', expires, created },
      {
        name: 'WorkosCursorSessionToken',
        value: 'partitioned',
        expires,
        created,
        originAttributes: '^partitionKey=%28https%2Cexample.com%29',
      },
      { name: 'WorkosCursorSessionToken', value: 'www-only', host: 'www.cursor.com', expires, created },
    ]);
    expect(await run('linux')).toMatchObject({
      kind: 'skip',
      reason: 'no usable cursor.com session cookie in Firefox',
    });
  });

  it('a corrupt database is skipped with a reason and the next profile is used', async () => {
    const user = await sessionToken('profile1_user');
    const root = addChromium(scene.home, 'linux', 'chrome', [
      { profile: 'Profile 1', encrypt: encryptLinuxV10, session: user.cookieValue },
    ]);
    fs.writeFileSync(chromiumProfileDb(root, 'Default'), 'this is not a database, just 40 bytes....');
    const found = session(await run('linux'));
    expect(found.session.cookieHeader).toBe(`WorkosCursorSessionToken=${user.cookieValue}`);
    expect(found.notes).toContain(
      'Skipped Chrome profile "Default": ~/.config/google-chrome/Default/Network/Cookies is not a readable SQLite database (SQLITE_NOTADB)',
    );
  });

  it('a database with the wrong tables is skipped, not a crash', async () => {
    const root = chromiumRoot(scene.home, 'linux', 'chrome');
    createFirefoxCookies(chromiumProfileDb(root, 'Default'), []);
    expect((await run('linux')).notes).toContain(
      'Skipped Chrome profile "Default": ~/.config/google-chrome/Default/Network/Cookies does not have Chromium\'s cookies table',
    );
  });

  it('a cookie database that is a directory is skipped with its error code', async () => {
    fs.mkdirSync(chromiumProfileDb(chromiumRoot(scene.home, 'linux', 'chrome'), 'Default'), {
      recursive: true,
    });
    expect((await run('linux')).notes).toContain(
      'Skipped Chrome profile "Default": cannot read ~/.config/google-chrome/Default/Network/Cookies (EISDIR)',
    );
  });

  it.each([
    ['cookies.sqlite', ''],
    ['its -wal', '-wal'],
  ])(
    'a named pipe at %s is skipped at once as not a regular file, and the next profile is used',
    async (_name, suffix) => {
      const user = await sessionToken('fifo_next_user');
      addFirefox(scene.home, 'linux', [
        { name: 'default', folder: 'd.default', session: suffix === '' ? undefined : 'x' },
        { name: 'work', folder: 'w.work', session: user.cookieValue },
      ]);
      const db = path.join(firefoxRoot(scene.home, 'linux'), 'd.default', 'cookies.sqlite');
      if (suffix === '') fs.rmSync(db);
      makeFifo(`${db}${suffix}`);
      const rescue = startFifoRescue([`${db}${suffix}`], path.join(scene.root, 'rescued-fifos'));
      try {
        const found = session(await run('linux'));
        expect(found.session.cookieHeader).toBe(`WorkosCursorSessionToken=${user.cookieValue}`);
        expect(found.notes).toContain(
          'Skipped Firefox profile "default": cannot read ~/.mozilla/firefox/d.default/cookies.sqlite (not a regular file)',
        );
        expect(await rescue.rescued()).toEqual([]);
      } finally {
        rescue.stop();
      }
    },
  );

  it('a cookie database over 256 MiB is skipped unread, before any copy', async () => {
    const db = oneFirefoxProfile();
    fs.writeFileSync(db, '');
    fs.truncateSync(db, COPY_LIMIT_BYTES + 1);
    const before = fs.statSync(db);
    // The loader itself, not run(): its snapshot of the browser files would read all 256 MiB, twice.
    const result = await load(
      environment('linux'),
      { allowKeychainPrompt: false },
      { providers: providers().fake },
    );
    expect(result.notes).toContain(
      'Skipped Firefox profile "default": cannot read ~/.mozilla/firefox/d.default/cookies.sqlite (larger than 256 MiB)',
    );
    expect(fs.statSync(db)).toMatchObject({ size: before.size, mtimeMs: before.mtimeMs });
    expect(fs.readdirSync(scene.tmp)).toEqual([]);
  });

  it('a profile on a path we may not read is skipped (as root, who could read it, the import runs as nobody)', async () => {
    const root = addChromium(scene.home, 'linux', 'chrome', [
      { profile: 'Default', encrypt: encryptLinuxV10, session: 'x' },
    ]);
    const before = snapshotBrowsers(scene.home);
    fs.chmodSync(path.join(root, 'Default'), 0o000);
    unprivileged.handOver(scene.root);
    try {
      const result = await unprivileged.check('browserSource', [scene.home, NOW.toISOString()], {
        // The child's os.tmpdir(), where its private copies would go.
        env: { TMPDIR: scene.tmp },
        cwd: scene.root,
      });
      expect(result.notes?.[1]).toMatch(/Skipped Chrome profile "Default": cannot read .*permission denied/);
    } finally {
      fs.chmodSync(path.join(root, 'Default'), 0o755);
    }
    // As after any import: the browser files as they were, and no copy left behind.
    expect(snapshotBrowsers(scene.home)).toEqual(before);
    expect(fs.readdirSync(scene.tmp)).toEqual([]);
  });

  it('no usable temp directory: skipped with a reason, never a crash', async () => {
    addChromium(scene.home, 'linux', 'chrome', [
      { profile: 'Default', encrypt: encryptLinuxV10, session: 'x' },
    ]);
    process.env.TMPDIR = path.join(scene.root, 'no-such-tmp');
    const result = await load(
      environment('linux'),
      { allowKeychainPrompt: false },
      { providers: providers().fake },
    );
    expect(result.notes?.[1]).toMatch(
      /Skipped Chrome profile "Default": cannot make a private copy of .* no temp directory/,
    );
  });

  it('an old profile that keeps the value in plain text, at meta version 23, is read as is', async () => {
    const user = await sessionToken('plain_user');
    const root = chromiumRoot(scene.home, 'linux', 'chromium');
    createChromiumCookies(chromiumProfileDb(root, 'Default', true), 23, [
      {
        name: 'WorkosCursorSessionToken',
        host: 'cursor.com',
        value: user.cookieValue,
        created: new Date('2026-11-01T00:00:00Z'),
      },
    ]);
    const found = session(await run('linux'));
    expect(found.session.description).toBe(
      'browser cookie from Chromium profile "Default" (~/.config/chromium/Default/Cookies)',
    );
    expect(found.session.cookieHeader).toBe(`WorkosCursorSessionToken=${user.cookieValue}`);
  });
});

describe('copies a killed run left behind', () => {
  it('are removed once they are an hour old; a fresh one (a run reading it) and other files are left', async () => {
    const user = await sessionToken('sweep_user');
    addFirefox(scene.home, 'linux', [{ name: 'default', folder: 'd.default', session: user.cookieValue }]);
    const old = path.join(scene.tmp, 'codexbar-cookies-old');
    const young = path.join(scene.tmp, 'codexbar-cookies-young');
    const other = path.join(scene.tmp, 'not-ours-old');
    for (const dir of [old, young, other]) {
      fs.mkdirSync(dir, { mode: 0o700 });
      fs.writeFileSync(path.join(dir, 'cookies.db'), 'a session cookie');
    }
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    const almostAnHour = new Date(Date.now() - 59 * 60_000);
    fs.utimesSync(old, twoHoursAgo, twoHoursAgo);
    fs.utimesSync(other, twoHoursAgo, twoHoursAgo);
    fs.utimesSync(young, almostAnHour, almostAnHour);

    const result = await load(
      environment('linux'),
      { allowKeychainPrompt: false },
      { providers: providers().fake },
    );

    expect(session(result).session.cookieHeader).toBe(`WorkosCursorSessionToken=${user.cookieValue}`);
    expect(fs.readdirSync(scene.tmp).sort()).toEqual(['codexbar-cookies-young', 'not-ours-old']);
  });
});

describe('the private copy', () => {
  it('a file of exactly the limit is copied whole, 0600; one byte more is refused unread; none is missing', async () => {
    const from = path.join(scene.root, 'source.db');
    fs.writeFileSync(from, 'x'.repeat(100));
    const to = (name: string) => path.join(scene.root, name);

    // The answer is the source's fingerprint before the copy: device, inode, size, mtime and ctime.
    const before = fs.statSync(from, { bigint: true });
    expect(await copyRegularFile(from, to('at-limit'), 100)).toBe(
      `${before.dev}:${before.ino}:100:${before.mtimeNs}:${before.ctimeNs}`,
    );
    expect(fs.readFileSync(to('at-limit'), 'utf8')).toBe('x'.repeat(100));
    expect(fs.statSync(to('at-limit')).mode & 0o777).toBe(0o600);
    await expect(copyRegularFile(from, to('over'), 99)).rejects.toThrow('larger than 99 bytes');
    expect(fs.existsSync(to('over'))).toBe(false);
    expect(await copyRegularFile(to('nowhere'), to('none'), 100)).toBe('missing');
  });

  const stopEvents = ['SIGINT', 'SIGTERM', 'SIGHUP', 'exit'] as const;
  const listeners = () => stopEvents.map((event) => process.listenerCount(event));

  it('its stop and exit handlers exist only while a copy does: one set for copies read at once, none after', async () => {
    const db = oneFirefoxProfile();
    createFirefoxCookies(db, []);
    const before = listeners();
    const during: number[][] = [];
    const sql = () => {
      during.push(listeners());
      return ok(null);
    };
    const read = { sql, pages: sql };

    await Promise.all([readPrivateCopy(db, 'one', read), readPrivateCopy(db, 'two', read)]);
    expect(during).toEqual([before.map((count) => count + 1), before.map((count) => count + 1)]);
    expect(listeners()).toEqual(before);
    // A copy that fails is released too.
    expect(await readPrivateCopy(`${db}.gone`, 'gone', read)).toMatchObject({ ok: false });
    expect(listeners()).toEqual(before);
  });

  it('a stop signal another listener handles (serve stopping gracefully) is left to it; the copy goes after the read', async () => {
    const db = oneFirefoxProfile();
    createFirefoxCookies(db, []);
    let stops = 0;
    const serveStop = () => {
      stops += 1;
    };
    let copiesDuring: string[] = [];
    process.on('SIGTERM', serveStop);
    try {
      const sql = () => {
        process.emit('SIGTERM', 'SIGTERM');
        copiesDuring = fs.readdirSync(scene.tmp);
        return ok('read on');
      };
      const read = await readPrivateCopy(db, 'db', { sql, pages: sql });
      expect(read).toMatchObject({ ok: true, value: { data: 'read on' } });
    } finally {
      process.off('SIGTERM', serveStop);
    }
    expect(stops).toBe(1);
    expect(copiesDuring).toEqual([expect.stringMatching(/^codexbar-cookies-/)]);
    expect(fs.readdirSync(scene.tmp)).toEqual([]);
  });
});

describe('what a browser session carries for the statusline fast path', () => {
  it('the fingerprint of every file the walk consulted, taken before it was read, and the cookie expiry', async () => {
    const user = await sessionToken('trail_user');
    const expires = new Date('2027-01-01T00:00:00Z');
    addFirefox(scene.home, 'linux', [
      { name: 'default', folder: 'd.default' },
      { name: 'work', folder: 'w.work', session: user.cookieValue, expires },
    ]);
    const root = firefoxRoot(scene.home, 'linux');
    const consulted = [
      path.join(root, 'profiles.ini'),
      path.join(root, 'd.default', 'cookies.sqlite'),
      path.join(root, 'd.default', 'cookies.sqlite-wal'),
      path.join(root, 'w.work', 'cookies.sqlite'),
      path.join(root, 'w.work', 'cookies.sqlite-wal'),
    ];

    const found = session(await run('linux'));

    expect(found.session.cookieFiles).toEqual(
      Object.fromEntries(consulted.map((file) => [file, fileFingerprint(file)])),
    );
    expect(found.session.cookieFiles?.[consulted[2]!]).toBe('missing');
    expect(found.session.cookieExpiresAt).toEqual(expires);
  });

  it('none after a profile passed over for a reason no file shows (a locked keyring)', async () => {
    const user = await sessionToken('after_keyring_user');
    addChromium(scene.home, 'linux', 'chrome', [
      { profile: 'Default', encrypt: (p) => encryptLinuxV11('keyring-pw', p), session: 'x' },
    ]);
    addChromium(scene.home, 'linux', 'brave', [
      { profile: 'Default', encrypt: encryptLinuxV10, session: user.cookieValue },
    ]);

    const found = session(await run('linux'));

    expect(found.notes).toContain('Skipped Chrome profile "Default": the keyring is locked');
    expect(found.session.cookieHeader).toBe(`WorkosCursorSessionToken=${user.cookieValue}`);
    expect(found.session.cookieFiles).toBeUndefined();
  });
});

describe('keys are fetched only when a cursor.com cookie needs one', () => {
  it('Linux v11: a locked keyring is "key unavailable", with the hint kept for the final error', async () => {
    addChromium(scene.home, 'linux', 'chrome', [
      { profile: 'Default', encrypt: (p) => encryptLinuxV11('keyring-pw', p), session: 'x' },
      { profile: 'Profile 1', encrypt: (p) => encryptLinuxV11('keyring-pw', p), session: 'y' },
    ]);
    const { fake, asked } = providers();
    const result = await run('linux', {}, fake);
    expect(result).toMatchObject({
      kind: 'skip',
      reason: 'no usable cursor.com session cookie in Chrome',
      hint: 'Unlock your keyring.',
    });
    expect(result.notes).toContain('Skipped Chrome profile "Default": the keyring is locked');
    expect(asked).toEqual(['keyring:chrome']);
  });

  it('Linux v11 with the keyring password decrypts; profiles without the cookie never ask', async () => {
    const user = await sessionToken('keyring_user');
    addChromium(scene.home, 'linux', 'brave', [
      { profile: 'Default', encrypt: (p) => encryptLinuxV11('pw', p) },
      { profile: 'Profile 1', encrypt: (p) => encryptLinuxV11('pw', p), session: user.cookieValue },
    ]);
    const { fake, asked } = providers({ linux: ok(['pw']) });
    const found = session(await run('linux', {}, fake));
    expect(found.session.cookieHeader).toBe(`WorkosCursorSessionToken=${user.cookieValue}`);
    expect(asked).toEqual(['keyring:brave,chromium']);
  });

  it('macOS without consent: the Keychain is not asked and the hint names --allow-keychain-prompt', async () => {
    addChromium(scene.home, 'darwin', 'arc', [
      { profile: 'Default', encrypt: (p) => encryptMacV10('mac-pw', p), session: 'x' },
    ]);
    const { fake, asked } = providers({ mac: ok('mac-pw') });
    const result = await run('darwin', {}, fake);
    expect(result).toMatchObject({ kind: 'skip', hint: expect.stringContaining('--allow-keychain-prompt') });
    expect(result.notes).toContain(
      'Skipped Arc profile "Default": its key is in the macOS Keychain (“Arc Safe Storage”), and reading it shows a prompt',
    );
    expect(asked).toEqual([]);
  });

  it('macOS with consent: the Keychain password opens the cookie', async () => {
    const user = await sessionToken('mac_user');
    addChromium(scene.home, 'darwin', 'arc', [
      { profile: 'Default', encrypt: (p) => encryptMacV10('mac-pw', p), session: user.cookieValue },
    ]);
    const { fake, asked } = providers({ mac: ok('mac-pw') });
    const found = session(await run('darwin', { allowKeychainPrompt: true }, fake));
    expect(found.session.cookieHeader).toBe(`WorkosCursorSessionToken=${user.cookieValue}`);
    expect(asked).toEqual(['keychain:Arc Safe Storage']);
  });

  it('Windows: v20 is app-bound, the missing Local State is named, and neither leaks a value', async () => {
    const root = chromiumRoot(scene.home, 'win32', 'chrome');
    createChromiumCookies(chromiumProfileDb(root, 'Default'), 24, [
      {
        name: 'WorkosCursorSessionToken',
        host: 'cursor.com',
        encrypted: appBoundValue(),
        created: new Date('2026-11-01T00:00:00Z'),
      },
    ]);
    createChromiumCookies(chromiumProfileDb(root, 'Profile 1'), 24, [
      {
        name: 'WorkosCursorSessionToken',
        host: '.cursor.com',
        encrypted: Buffer.concat([
          Buffer.from('v10'),
          encryptLinuxV10(chromiumPlaintext('x', '.cursor.com', 24)),
        ]),
        created: new Date('2026-11-01T00:00:00Z'),
      },
    ]);
    const { fake, asked } = providers();
    const result = await run('win32', {}, fake);
    expect(result.notes).toContain(
      'Skipped Chrome profile "Default": its cursor.com cookie uses app-bound encryption (v20), which cannot be decrypted outside Chrome',
    );
    expect(result.notes?.find((note) => note.startsWith('Skipped Chrome profile "Profile 1"'))).toMatch(
      /its cookie key would be in .*Local State, which is missing$/,
    );
    expect(result).toMatchObject({ kind: 'skip', hint: expect.stringContaining('`codexbar login`') });
    expect(asked).toEqual([]);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { encryptLinuxV10 } from '../../fixtures/builders/browser-crypto.js';
import { createFirefoxCookies } from '../../fixtures/builders/browser-db.js';
import { firefoxRoot, writeFirefoxProfiles } from '../../fixtures/builders/browser-tree.js';
import { proAccount } from '../helpers/accounts.js';
import { addChromium, sessionToken, snapshotBrowsers } from '../helpers/browser-home.js';
import { spawnCli, startCli } from '../helpers/cli.js';
import { holdOpenEnv, reachedHold } from '../helpers/hold-open.js';
import { useScene } from '../helpers/scene.js';
import { useUnprivileged } from '../helpers/unprivileged.js';

/**
 * The BUILT CLI as a user runs it: the native SQLite addon is loaded lazily from the bundle, and the private
 * copies go to the TMPDIR it is given. (The platform layouts are covered in-process in usage-browser.test.ts.)
 */

const scene = useScene();
const unprivileged = useUnprivileged();

/** The built CLI's environment: only what it needs, and TMPDIR where its private copies go. */
const cliEnv = () => ({ PATH: '/nonexistent', TMPDIR: scene.tmp, CODEXBAR_CURSOR_BASE_URL: scene.fake!.url });

const DAY = 86_400_000;

describe('browser import in the built CLI', () => {
  it('reads a running Firefox (its rows only in the -wal), leaving every browser file and TMPDIR as they were', async () => {
    const user = await sessionToken('firefox_user');
    await scene.serve([proAccount([user.cookieValue], 'firefox@example.com')]);
    const root = firefoxRoot(scene.home, 'linux');
    const dbPath = writeFirefoxProfiles(
      root,
      'linux',
      [{ name: 'default-release', folder: 'q.default-release' }],
      'default-release',
    )['default-release']!;
    const now = Date.now();
    const running = createFirefoxCookies(
      dbPath,
      [
        {
          name: 'WorkosCursorSessionToken',
          value: user.cookieValue,
          created: new Date(now - DAY),
          expires: new Date(now + 30 * DAY),
        },
      ],
      { keepOpen: true },
    );
    try {
      const before = snapshotBrowsers(scene.home);
      const result = await spawnCli(['usage', '--json', '--verbose'], { home: scene.home, env: cliEnv() });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)[0].usage.accountEmail).toBe('firefox@example.com');
      expect(result.stderr).toContain(
        '[cursor] Using browser cookie from Firefox profile "default-release" (~/.mozilla/firefox/q.default-release/cookies.sqlite)',
      );
      expect(result.stderr).not.toContain(user.jwt);
      expect(snapshotBrowsers(scene.home)).toEqual(before);
      expect(fs.readdirSync(scene.tmp)).toEqual([]);
    } finally {
      running?.close();
    }
  });

  it('a profile on a path it may not read is skipped with a reason; the next profile is used', async () => {
    const user = await sessionToken('profile1_user');
    await scene.serve([proAccount([user.cookieValue], 'p1@example.com')]);
    const now = Date.now();
    const root = addChromium(scene.home, 'linux', 'chrome', [
      { profile: 'Default', encrypt: encryptLinuxV10, session: 'never-read', created: new Date(now - DAY) },
      {
        profile: 'Profile 1',
        encrypt: encryptLinuxV10,
        session: user.cookieValue,
        created: new Date(now - DAY),
      },
    ]);
    // Root reads everything: as root, the CLI runs as nobody, who then owns the whole HOME, the locked
    // profile included (from a copy of the build nobody can reach, test/helpers/unprivileged.ts).
    fs.chmodSync(path.join(root, 'Default'), 0o000);
    unprivileged.handOver(scene.root);
    try {
      const result = await unprivileged.runBuilt(['usage', '--json', '--verbose'], {
        env: { HOME: scene.home, TZ: 'UTC', ...cliEnv() },
        cwd: scene.home,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)[0].usage.accountEmail).toBe('p1@example.com');
      expect(result.stderr).toContain(
        '[cursor] Skipped Chrome profile "Default": cannot read ~/.config/google-chrome/Default/Network/Cookies (permission denied)',
      );
      expect(fs.readdirSync(scene.tmp)).toEqual([]);
    } finally {
      fs.chmodSync(path.join(root, 'Default'), 0o755);
    }
  });
});

describe('a run stopped while the private copy exists', () => {
  /**
   * The built CLI reading a Firefox profile, held (test/helpers/hold-open.ts) as it opens the profile's
   * `-wal`: the database, session cookie and all, is then already copied into TMPDIR.
   */
  async function startHeld(exitCode?: number) {
    const user = await sessionToken('held_user');
    await scene.serve([proAccount([user.cookieValue], 'held@example.com')]);
    const dbPath = writeFirefoxProfiles(
      firefoxRoot(scene.home, 'linux'),
      'linux',
      [{ name: 'default-release', folder: 'q.default-release' }],
      'default-release',
    )['default-release']!;
    const now = Date.now();
    createFirefoxCookies(dbPath, [
      {
        name: 'WorkosCursorSessionToken',
        value: user.cookieValue,
        created: new Date(now - DAY),
        expires: new Date(now + 30 * DAY),
      },
    ]);
    const cli = startCli(['usage', '--json'], {
      home: scene.home,
      env: { ...cliEnv(), ...holdOpenEnv(`${dbPath}-wal`, exitCode) },
    });
    await reachedHold(cli.child);
    return { cli, user };
  }

  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)(
    '%s: the copy is removed and the process still ends by that signal',
    async (signal) => {
      const { cli, user } = await startHeld();
      // Looked at before any assertion, so a failing one never leaves the held process running.
      const held = fs.readdirSync(scene.tmp).map((dir) => [dir, fs.readdirSync(path.join(scene.tmp, dir))]);

      cli.child.kill(signal);
      const result = await cli.result;

      expect(held).toEqual([[expect.stringMatching(/^codexbar-cookies-/), ['cookies.db']]]);
      expect(result).toMatchObject({ code: null, signal, stdout: '' });
      expect(result.stderr).not.toContain(user.cookieValue);
      expect(fs.readdirSync(scene.tmp)).toEqual([]);
      expect(scene.fake?.requests).toEqual([]);
    },
  );

  it('an exit while the copy exists removes it too, with the exit code kept', async () => {
    const { cli } = await startHeld(7);
    expect(await cli.result).toMatchObject({ code: 7, signal: null, stdout: '' });
    expect(fs.readdirSync(scene.tmp)).toEqual([]);
  });
});

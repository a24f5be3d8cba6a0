import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encryptLinuxV10 } from '../../fixtures/builders/browser-crypto.js';
import { createFirefoxCookies } from '../../fixtures/builders/browser-db.js';
import { firefoxRoot, writeFirefoxProfiles } from '../../fixtures/builders/browser-tree.js';
import { type FakeCursor, startFakeCursor } from '../fake-cursor/server.js';
import { proAccount } from '../helpers/accounts.js';
import {
  addChromium,
  type BrowserHome,
  makeBrowserHome,
  sessionToken,
  snapshotBrowsers,
} from '../helpers/browser-home.js';
import { type CliResult, repoRoot } from '../helpers/cli.js';

/**
 * The BUILT CLI as a user runs it: the native SQLite addon is loaded lazily from the bundle, and the private
 * copies go to the TMPDIR it is given. (The platform layouts are covered in-process in usage-browser.test.ts.)
 */

let box: BrowserHome;
let fake: FakeCursor | undefined;
beforeEach(() => {
  box = makeBrowserHome();
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  box.cleanup();
});

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

// `nobody` may not reach the checkout: cloned into a `mktemp -d` directory (0700) or under /root, no path in
// it is open to another user. So as root the built CLI runs from a copy of nobody's own, laid out as in the
// checkout: the bin, the bundles, and the native addon with the packages it loads at run time.
let nobodyRoot: string | undefined;
beforeAll(() => {
  if (asRoot) nobodyRoot = copyBuiltCli(NOBODY);
});
afterAll(() => {
  if (nobodyRoot) fs.rmSync(nobodyRoot, { recursive: true, force: true });
});

function copyBuiltCli(uid: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-built-'));
  const packageDir = (from: string, name: string) =>
    path.dirname(createRequire(path.join(from, 'x.js')).resolve(`${name}/package.json`));
  const sqlite = packageDir(path.join(repoRoot, 'dist'), 'better-sqlite3');
  const bindings = packageDir(sqlite, 'bindings');
  const needed = [
    path.join(repoRoot, 'package.json'),
    path.join(repoRoot, 'bin'),
    path.join(repoRoot, 'dist'),
    path.join(sqlite, 'package.json'),
    path.join(sqlite, 'lib'),
    path.join(sqlite, 'build', 'Release', 'better_sqlite3.node'),
    bindings,
    packageDir(bindings, 'file-uri-to-path'),
  ];
  for (const from of needed)
    fs.cpSync(from, path.join(dir, path.relative(repoRoot, from)), { recursive: true });
  chownTree(dir, uid);
  return dir;
}

function runBuilt(args: string[], options: { asNobody?: boolean } = {}): Promise<CliResult> {
  const env = {
    PATH: '/nonexistent',
    HOME: box.home,
    TMPDIR: box.tmp,
    TZ: 'UTC',
    CODEXBAR_CURSOR_BASE_URL: fake!.url,
  };
  const ids = options.asNobody ? { uid: NOBODY, gid: NOBODY } : {};
  return new Promise((resolve, reject) => {
    const root = options.asNobody ? nobodyRoot! : repoRoot;
    const child = spawn(process.execPath, [path.join(root, 'bin', 'codexbar.js'), ...args], {
      env,
      cwd: box.home,
      ...ids,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

const DAY = 86_400_000;

describe('browser import in the built CLI (docs/behaviour.md §24)', () => {
  it('reads a running Firefox (its rows only in the -wal), leaving every browser file and TMPDIR as they were', async () => {
    const user = await sessionToken('firefox_user');
    fake = await startFakeCursor({ accounts: [proAccount([user.cookieValue], 'firefox@example.com')] });
    const root = firefoxRoot(box.home, 'linux');
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
      const before = snapshotBrowsers(box.home);
      const result = await runBuilt(['usage', '--json', '--verbose']);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)[0].usage.accountEmail).toBe('firefox@example.com');
      expect(result.stderr).toContain(
        '[cursor] Using browser cookie from Firefox profile "default-release" (~/.mozilla/firefox/q.default-release/cookies.sqlite)',
      );
      expect(result.stderr).not.toContain(user.jwt);
      expect(snapshotBrowsers(box.home)).toEqual(before);
      expect(fs.readdirSync(box.tmp)).toEqual([]);
    } finally {
      running?.close();
    }
  });

  it('a profile on a path it may not read is skipped with a reason; the next profile is used', async () => {
    const user = await sessionToken('profile1_user');
    fake = await startFakeCursor({ accounts: [proAccount([user.cookieValue], 'p1@example.com')] });
    const now = Date.now();
    const root = addChromium(box.home, 'linux', 'chrome', [
      { profile: 'Default', encrypt: encryptLinuxV10, session: 'never-read', created: new Date(now - DAY) },
      {
        profile: 'Profile 1',
        encrypt: encryptLinuxV10,
        session: user.cookieValue,
        created: new Date(now - DAY),
      },
    ]);
    // Root reads everything, so as root the CLI runs as `nobody`, who owns all but the locked profile.
    if (asRoot) {
      for (const dir of [box.base, box.home, box.tmp]) fs.chownSync(dir, NOBODY, NOBODY);
      chownTree(path.join(box.home, '.config'), NOBODY);
      fs.chownSync(path.join(root, 'Default'), 0, 0);
    }
    fs.chmodSync(path.join(root, 'Default'), 0o700);
    if (!asRoot) fs.chmodSync(path.join(root, 'Default'), 0o000);
    try {
      const result = await runBuilt(['usage', '--json', '--verbose'], { asNobody: asRoot });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)[0].usage.accountEmail).toBe('p1@example.com');
      expect(result.stderr).toContain(
        '[cursor] Skipped Chrome profile "Default": cannot read ~/.config/google-chrome/Default/Network/Cookies (permission denied)',
      );
      expect(fs.readdirSync(box.tmp)).toEqual([]);
    } finally {
      fs.chmodSync(path.join(root, 'Default'), 0o755);
    }
  });
});

function chownTree(dir: string, uid: number): void {
  fs.chownSync(dir, uid, uid);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(full, uid);
    else fs.chownSync(full, uid, uid);
  }
}

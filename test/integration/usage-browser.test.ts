import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  appBoundValue,
  encryptLinuxV10,
  encryptLinuxV11,
  encryptMacV10,
  encryptWindowsV10,
  localStateEncryptedKey,
} from '../../fixtures/builders/browser-crypto.js';
import { createFirefoxCookies } from '../../fixtures/builders/browser-db.js';
import { firefoxRoot, writeLocalState } from '../../fixtures/builders/browser-tree.js';
import { createStateVscdb } from '../../fixtures/builders/vscdb.js';
import { MAX_PROFILES } from '../../src/auth/sources/browser/profiles.js';
import type { Platform } from '../../src/local/environment.js';
import { fastStatusline } from '../../src/statusline/fast-path.js';
import type { FakeAccount } from '../fake-cursor/server.js';
import { proAccount } from '../helpers/accounts.js';
import { runBrowserImport } from '../helpers/browser-cli.js';
import { addChromium, addFirefox, sessionToken } from '../helpers/browser-home.js';
import { type FakeToolConfig, type FakeTools, installFakeTools } from '../helpers/fake-tools.js';
import type { TestToken } from '../helpers/home.js';
import { useScene } from '../helpers/scene.js';

const NOW = new Date('2026-11-20T12:00:00Z');
const scene = useScene({ now: NOW, tmpdir: true });
let tools: FakeTools | undefined;
const secrets: string[] = [];

beforeEach(() => {
  secrets.length = 0;
});
afterEach(() => {
  tools?.cleanup();
  tools = undefined;
});

async function token(userId: string): Promise<TestToken> {
  const made = await sessionToken(userId);
  secrets.push(made.jwt);
  return made;
}

async function usage(
  platform: Platform,
  accounts: FakeAccount[],
  options: { args?: string[]; tools?: FakeToolConfig; env?: Record<string, string | undefined> } = {},
) {
  await scene.serve(accounts);
  tools = installFakeTools(options.tools ?? {}, scene.root);
  for (const password of [
    ...Object.values(options.tools?.secretTool ?? {}),
    ...Object.values(options.tools?.keychain ?? {}),
  ]) {
    if (password) secrets.push(password);
  }
  return runBrowserImport(
    scene,
    ['usage', '--provider', 'cursor', '--json', '--verbose', ...(options.args ?? [])],
    { platform, path: tools.path, env: options.env, secrets },
  );
}

/** The Cookie headers the fake saw on usage-summary, in order. */
function summaryCookies(): string[] {
  return (scene.fake?.requests ?? [])
    .filter((r) => r.path === '/api/usage-summary')
    .map((r) => r.headers.cookie ?? '');
}

const email = (stdout: string) => JSON.parse(stdout)[0].usage.accountEmail;

function writeFile(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content, { mode: 0o600 });
}

describe('Linux: browser import comes after the cursor-agent token', () => {
  it('a cursor-agent login wins; when cursor.com rejects it, the Firefox cookie is used', async () => {
    const agent = await token('agent_user');
    const browser = await token('firefox_user');
    writeFile(
      path.join(scene.home, '.config', 'cursor', 'auth.json'),
      JSON.stringify({ accessToken: agent.jwt }),
    );
    addFirefox(scene.home, 'linux', [
      { name: 'default-release', folder: 'x.default-release', session: browser.cookieValue },
    ]);

    const result = await usage('linux', [
      proAccount([agent.cookieValue], 'agent@example.com', { usageSummary: { status: 401, json: {} } }),
      proAccount([browser.cookieValue], 'firefox@example.com'),
    ]);

    expect(result.code, result.stderr).toBe(0);
    expect(email(result.stdout)).toBe('firefox@example.com');
    expect(summaryCookies()).toEqual([
      `WorkosCursorSessionToken=${agent.cookieValue}`,
      `WorkosCursorSessionToken=${browser.cookieValue}`,
    ]);
    expect(result.stderr).toContain(
      '[cursor] Cursor-agent token was rejected (HTTP 401); trying the next source',
    );
    expect(result.stderr).toContain(
      '[cursor] Using browser cookie from Firefox profile "default-release" (~/.mozilla/firefox/x.default-release/cookies.sqlite)',
    );
  });

  it('Chrome v11: the key comes from the keyring through secret-tool; a rejected profile moves on to the next', async () => {
    const first = await token('first_user');
    const second = await token('second_user');
    const v11 = (plain: Buffer) => encryptLinuxV11('keyring-secret-pw', plain);
    addChromium(scene.home, 'linux', 'chrome', [
      { profile: 'Default', encrypt: v11, session: first.cookieValue },
      { profile: 'Profile 3', encrypt: v11, session: second.cookieValue },
    ]);

    const result = await usage(
      'linux',
      [
        proAccount([first.cookieValue], 'first@example.com', { usageSummary: { status: 401, json: {} } }),
        proAccount([second.cookieValue], 'second@example.com'),
      ],
      { tools: { secretTool: { chrome: 'keyring-secret-pw' } } },
    );

    expect(result.code, result.stderr).toBe(0);
    expect(email(result.stdout)).toBe('second@example.com');
    expect(result.stderr).toContain(
      '[cursor] Browser cookie was rejected (HTTP 401); trying the next browser cookie',
    );
    expect(result.stderr).toContain('[cursor] Using browser cookie from Chrome profile "Profile 3"');
    // One keyring lookup for both profiles, and the password was never an argument.
    expect(tools?.calls()).toEqual([
      { tool: 'secret-tool', argv: ['lookup', 'application', 'chrome'], stdin: '' },
    ]);
  });

  it('Chrome v11 outside a desktop session: says there is no D-Bus session, and asks no keyring helper', async () => {
    const user = await token('cron_user');
    addChromium(scene.home, 'linux', 'chrome', [
      {
        profile: 'Default',
        encrypt: (plain) => encryptLinuxV11('keyring-secret-pw', plain),
        session: user.cookieValue,
      },
    ]);
    const options = {
      tools: { secretTool: { chrome: 'keyring-secret-pw' } },
      env: { DBUS_SESSION_BUS_ADDRESS: undefined },
    };

    const result = await usage('linux', [proAccount([user.cookieValue])], options);
    const line = await runBrowserImport(scene, ['statusline'], {
      platform: 'linux',
      path: tools!.path,
      env: options.env,
      secrets,
    });

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'there is no desktop session (DBUS_SESSION_BUS_ADDRESS is unset); run from the desktop or unlock the keyring there',
    );
    expect(result.stderr).not.toContain('Unlock your keyring');
    expect(line.stdout).toBe('Cursor: no desktop session\n');
    expect(tools?.calls()).toEqual([]);
  });

  it('--source web never reads the Cursor app, but does import from the browser', async () => {
    const app = await token('app_user');
    const browser = await token('chromium_user');
    const dbPath = path.join(scene.home, '.config', 'Cursor', 'User', 'globalStorage', 'state.vscdb');
    fs.mkdirSync(path.dirname(dbPath), { recursive: true });
    createStateVscdb(dbPath, { token: app.jwt, storage: 'text' });
    addChromium(scene.home, 'linux', 'chromium', [
      { profile: 'Default', encrypt: encryptLinuxV10, session: browser.cookieValue },
    ]);

    const result = await usage(
      'linux',
      [
        proAccount([app.cookieValue], 'app@example.com'),
        proAccount([browser.cookieValue], 'web@example.com'),
      ],
      { args: ['--source', 'web'] },
    );

    expect(result.code, result.stderr).toBe(0);
    expect(email(result.stdout)).toBe('web@example.com');
    expect(summaryCookies()).toEqual([`WorkosCursorSessionToken=${browser.cookieValue}`]);
  });

  it('nothing usable: the error lists the browsers and their skip reasons', async () => {
    addFirefox(scene.home, 'linux', [{ name: 'default', folder: 'd.default' }]);
    const old = await token('old_user');
    addChromium(scene.home, 'linux', 'brave', [
      {
        profile: 'Default',
        encrypt: encryptLinuxV10,
        session: old.cookieValue,
        created: new Date('2026-01-01T00:00:00Z'),
        expires: new Date('2026-06-01T00:00:00Z'),
      },
    ]);

    const result = await usage('linux', [proAccount(['nobody'])], { args: ['--source', 'web'] });

    expect(result.code).toBe(1);
    const [row] = JSON.parse(result.stdout);
    expect(row.error.message).toContain(
      'browser cookie (no usable cursor.com session cookie in Firefox, Brave)',
    );
    expect(result.stderr).toContain(
      '[cursor] Skipped Firefox profile "default": no cursor.com session cookie',
    );
    expect(result.stderr).toContain(
      '[cursor] Skipped Brave profile "Default": its cursor.com session cookie expired 2026-06-01T00:00:00Z',
    );
    expect(result.stderr).toContain('[cursor] Skipped Chrome: not installed');
    expect(scene.fake?.requests).toEqual([]);
  });

  it('--browser picks one browser; an unknown name is refused with the choices', async () => {
    const browser = await token('firefox_user');
    addFirefox(scene.home, 'linux', [{ name: 'default', folder: 'd.default', session: browser.cookieValue }]);
    const chromeOnly = await usage('linux', [proAccount([browser.cookieValue])], {
      args: ['--browser', 'chrome'],
    });
    expect(chromeOnly.code).toBe(1);
    expect(chromeOnly.stderr).toContain('[cursor] Skipped browser cookie: Chrome is not installed');
    expect(chromeOnly.stderr).not.toContain('Firefox');

    const opera = await usage('linux', [proAccount([browser.cookieValue])], { args: ['--browser', 'opera'] });
    expect(opera.code).toBe(1);
    expect(JSON.parse(opera.stdout)[0].error.message).toBe(
      "--browser must be one of firefox, chrome, chromium, brave, edge, vivaldi, arc (got 'opera').",
    );
  });
});

describe('many Firefox profiles: the work is bounded', () => {
  /** Firefox with `count` profiles, the install default first; only the last one holds the session. */
  async function profiles(count: number) {
    const user = await token('last_profile_user');
    const names = Array.from({ length: count }, (_, index) => `p${index + 1}`);
    addFirefox(
      scene.home,
      'linux',
      names.map((name) => ({
        name,
        folder: `${name}.x`,
        session: name === names.at(-1) ? user.cookieValue : undefined,
      })),
    );
    return usage('linux', [proAccount([user.cookieValue], 'last@example.com')]);
  }

  it('MAX_PROFILES profiles are all read: the cookie in the last one is used', async () => {
    const result = await profiles(MAX_PROFILES);

    expect(result.code, result.stderr).toBe(0);
    expect(email(result.stdout)).toBe('last@example.com');
    expect(result.stderr).toContain(`[cursor] Using browser cookie from Firefox profile "p${MAX_PROFILES}"`);
    expect(result.stderr.match(/Skipped Firefox profile/g)).toHaveLength(MAX_PROFILES - 1);
    expect(result.stderr).not.toContain('more Firefox profile');
  });

  it('one profile more is not read, and --verbose says how many were skipped', async () => {
    const result = await profiles(MAX_PROFILES + 1);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `[cursor] Skipped 1 more Firefox profile: only the first ${MAX_PROFILES} are read, the default first`,
    );
    expect(result.stderr.match(/Skipped Firefox profile/g)).toHaveLength(MAX_PROFILES);
    expect(result.stderr).not.toContain(`profile "p${MAX_PROFILES + 1}"`);
    expect(scene.fake?.requests).toEqual([]);
  });

  it('an accepted cookie in the first profile ends the search: the others are never read', async () => {
    const user = await token('first_profile_user');
    addFirefox(scene.home, 'linux', [
      { name: 'default-release', folder: 'a.default-release', session: user.cookieValue },
      { name: 'second', folder: 'b.second' },
    ]);
    // Read, the second profile's "database" would be skipped loudly: it is a directory.
    const second = path.join(firefoxRoot(scene.home, 'linux'), 'b.second', 'cookies.sqlite');
    fs.rmSync(second);
    fs.mkdirSync(second);

    const result = await usage('linux', [proAccount([user.cookieValue], 'first@example.com')]);

    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('[cursor] Using browser cookie from Firefox profile "default-release"');
    expect(result.stderr).not.toContain('second');
  });
});

describe('the statusline fast path vouches for a browser cookie by its files', () => {
  /** fastStatusline as bin/codexbar.js calls it, in the scene's HOME, 10 s after the live run. */
  async function fast() {
    let stdout = '';
    const code = await fastStatusline(['statusline'], {
      stdout: {
        write: (text: string) => {
          stdout += text;
        },
        isTTY: false,
      },
      env: { HOME: scene.home, TZ: 'UTC', CODEXBAR_CURSOR_BASE_URL: scene.fake!.url, PATH: tools!.path },
      platform: 'linux',
      homeDir: scene.home,
      now: () => new Date(NOW.getTime() + 10_000),
      spawnRefresh: () => undefined,
    });
    return { code, stdout };
  }

  /** A live `statusline` of the browser's session, as the fast path's record is written by. */
  const liveStatusline = async (cookieValue: string) => {
    await scene.serve([proAccount([cookieValue], 'fast@example.com')]);
    tools = installFakeTools({}, scene.root);
    const live = await runBrowserImport(scene, ['statusline'], {
      platform: 'linux',
      path: tools.path,
      secrets,
    });
    expect(live.code, live.stderr).toBe(0);
    return live;
  };

  it('a fresh snapshot is answered without the CLI, until the cookie database changes', async () => {
    const user = await token('fast_browser_user');
    addFirefox(scene.home, 'linux', [
      { name: 'default', folder: 'd.default' },
      { name: 'work', folder: 'w.work', session: user.cookieValue },
    ]);
    const live = await liveStatusline(user.cookieValue);

    // Answered by the fast path itself (the full CLI, which reads the browser, was never asked), with the
    // bytes the full command printed and no request.
    expect(await fast()).toEqual({ code: 0, stdout: live.stdout });
    expect(summaryCookies()).toHaveLength(1);

    // The browser writes its cookie database: the account is no longer vouched for.
    const db = createFirefoxCookies(
      path.join(firefoxRoot(scene.home, 'linux'), 'w.work', 'cookies.sqlite.new'),
      [],
    );
    db?.close();
    fs.renameSync(
      path.join(firefoxRoot(scene.home, 'linux'), 'w.work', 'cookies.sqlite.new'),
      path.join(firefoxRoot(scene.home, 'linux'), 'w.work', 'cookies.sqlite'),
    );
    expect(await fast()).toEqual({ code: undefined, stdout: '' });
  });

  it('a profile before the winner that gains a database hands over too', async () => {
    const user = await token('earlier_profile_user');
    addFirefox(scene.home, 'linux', [
      { name: 'default', folder: 'd.default' },
      { name: 'work', folder: 'w.work', session: user.cookieValue },
    ]);
    const earlier = path.join(firefoxRoot(scene.home, 'linux'), 'd.default', 'cookies.sqlite');
    fs.rmSync(earlier);
    await liveStatusline(user.cookieValue);
    expect((await fast()).code).toBe(0);

    createFirefoxCookies(earlier, []);
    expect(await fast()).toEqual({ code: undefined, stdout: '' });
  });
});

describe('macOS: browser import sits between the cached cookie and the stored session', () => {
  const support = () => path.join(scene.home, 'Library', 'Application Support');

  async function macHome() {
    const cached = await token('cached_user');
    const browser = await token('chrome_user');
    const stored = await token('stored_user');
    writeFile(
      path.join(support(), 'CodexBar', 'cursor-cookie.json'),
      JSON.stringify({
        cookieHeader: `WorkosCursorSessionToken=${cached.cookieValue}`,
        storedAt: '2026-11-01T00:00:00Z',
        sourceLabel: 'Chrome',
      }),
    );
    writeFile(
      path.join(support(), 'CodexBar', 'cursor-session.json'),
      JSON.stringify([{ Name: 'WorkosCursorSessionToken', Value: stored.cookieValue }]),
    );
    addChromium(scene.home, 'darwin', 'chrome', [
      {
        profile: 'Default',
        encrypt: (plain) => encryptMacV10('mac-safe-storage', plain),
        session: browser.cookieValue,
      },
    ]);
    const accounts = [
      proAccount([cached.cookieValue], 'cached@example.com', { usageSummary: { status: 401, json: {} } }),
      proAccount([browser.cookieValue], 'browser@example.com'),
      proAccount([stored.cookieValue], 'stored@example.com'),
    ];
    return { cached, browser, stored, accounts };
  }
  const keychain = { keychain: { 'Chrome Safe Storage': 'mac-safe-storage' } };

  it('with --allow-keychain-prompt: cached (401) → Chrome, before the stored session', async () => {
    const { cached, browser, accounts } = await macHome();
    const result = await usage('darwin', accounts, { args: ['--allow-keychain-prompt'], tools: keychain });
    expect(result.code, result.stderr).toBe(0);
    expect(email(result.stdout)).toBe('browser@example.com');
    expect(summaryCookies()).toEqual([
      `WorkosCursorSessionToken=${cached.cookieValue}`,
      `WorkosCursorSessionToken=${browser.cookieValue}`,
    ]);
    expect(tools?.calls().map((call) => call.argv)).toEqual([
      ['find-generic-password', '-w', '-s', 'Chrome Safe Storage'],
    ]);
  });

  it('config consent ("allowKeychainPrompt": true) works like the flag', async () => {
    const { accounts } = await macHome();
    writeFile(
      path.join(scene.home, '.config', 'codexbar', 'config.json'),
      JSON.stringify({ version: 1, providers: [{ id: 'cursor', allowKeychainPrompt: true }] }),
    );
    const result = await usage('darwin', accounts, { tools: keychain });
    expect(email(result.stdout)).toBe('browser@example.com');
  });

  it('without consent the Keychain is never asked: the stored session is used and --verbose says why', async () => {
    const { accounts } = await macHome();
    const result = await usage('darwin', accounts, { tools: keychain });
    expect(result.code, result.stderr).toBe(0);
    expect(email(result.stdout)).toBe('stored@example.com');
    expect(tools?.calls()).toEqual([]);
    expect(result.stderr).toContain(
      '[cursor] Skipped Chrome profile "Default": its key is in the macOS Keychain (“Chrome Safe Storage”), and reading it shows a prompt',
    );
  });
});

describe('Windows: the Local State key through DPAPI, and app-bound cookies named as such', () => {
  it('Edge v10 (AES-256-GCM) is decrypted with the key PowerShell unwraps from stdin', async () => {
    const browser = await token('edge_user');
    const aesKey = randomBytes(32);
    const root = addChromium(scene.home, 'win32', 'edge', [
      {
        profile: 'Default',
        encrypt: (plain) => encryptWindowsV10(aesKey, plain),
        session: browser.cookieValue,
      },
    ]);
    const encryptedKey = localStateEncryptedKey(aesKey);
    writeLocalState(root, encryptedKey);
    secrets.push(aesKey.toString('base64'));

    const result = await usage('win32', [proAccount([browser.cookieValue], 'edge@example.com')]);

    expect(result.code, result.stderr).toBe(0);
    expect(email(result.stdout)).toBe('edge@example.com');
    const [call] = tools?.calls() ?? [];
    expect(call?.tool).toBe('powershell.exe');
    expect(call?.argv.join(' ')).not.toContain(
      Buffer.from(encryptedKey, 'base64').subarray(5).toString('base64'),
    );
    expect(result.stderr).toContain('[cursor] Using browser cookie from Edge profile "Default"');
  });

  it('Chrome v20 only: "No Cursor session found", naming app-bound encryption and the fixes', async () => {
    const root = addChromium(scene.home, 'win32', 'chrome', [
      { profile: 'Default', encrypt: () => appBoundValue(), session: 'x' },
    ]);
    writeLocalState(root, localStateEncryptedKey(randomBytes(32)));

    const result = await usage('win32', [proAccount(['nobody'])], { args: ['--format', 'text'] });

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '[cursor] Skipped Chrome profile "Default": its cursor.com cookie uses app-bound encryption (v20), which cannot be decrypted outside Chrome',
    );
    expect(result.stderr).toMatch(
      /No Cursor session found\. Looked at: .*browser cookie \(no usable cursor\.com session cookie in Chrome\)/,
    );
    expect(result.stderr).toContain(
      'Chrome protects its cookies with app-bound encryption, which only Chrome itself can decrypt: sign in to cursor.com in Firefox, sign in to the Cursor app (its token is read directly), or run `codexbar login`.',
    );
    expect(tools?.calls()).toEqual([]);
  });
});

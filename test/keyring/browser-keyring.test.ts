import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptLinuxV11 } from '../../fixtures/builders/browser-crypto.js';
import { installLocations } from '../../src/auth/sources/browser/catalog.js';
import { systemKeyProviders } from '../../src/auth/sources/browser/key-providers.js';
import type { LocalEnvironment } from '../../src/local/environment.js';
import { proAccount } from '../helpers/accounts.js';
import { addChromium, sessionToken, snapshotBrowsers } from '../helpers/browser-home.js';
import { type OpenScene, openScene } from '../helpers/scene.js';

/**
 * Linux `v11` against a REAL GNOME Keyring: the password is stored with
 * `secret-tool store`, then read back by codexbar's own code and by the built CLI. Run it with
 * `npm run test:keyring`, inside a private D-Bus session (`dbus-run-session -- npm run test:keyring`, as .ci/run
 * does). Its keyring daemon keeps its files in a temporary directory, never in the user's keyring.
 */

const TOOLS = ['secret-tool', 'gnome-keyring-daemon', 'dbus-send'] as const;
const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const missing = TOOLS.filter((tool) => !has(tool));
const aptAvailable = has('apt-get');
// Only where apt is unavailable may this suite skip; anywhere else the missing packages are a failure.
const skipSuite = missing.length > 0 && !aptAvailable;
if (skipSuite) {
  console.warn(
    `Skipping the real-keyring tests: ${missing.join(', ')} not installed and apt-get is unavailable to install gnome-keyring, libsecret-tools and dbus.`,
  );
}

const KEYRING_PASSWORD = 'codexbar-test-keyring';
const SAFE_STORAGE_PASSWORD = 'v11-password-from-gnome-keyring';

describe.skipIf(skipSuite)('a real GNOME Keyring holds the v11 password', () => {
  let daemon: ChildProcess | undefined;
  let daemonHome: string;
  let box: OpenScene | undefined;

  beforeAll(async () => {
    expect(
      missing,
      'install them: apt-get install -y gnome-keyring libsecret-tools dbus (.ci/run does)',
    ).toEqual([]);
    expect(
      process.env.DBUS_SESSION_BUS_ADDRESS,
      'run inside a D-Bus session: dbus-run-session -- npm run test:keyring',
    ).toBeTruthy();
    daemonHome = fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-keyring-'));
    const runtime = path.join(daemonHome, 'run');
    fs.mkdirSync(runtime, { mode: 0o700 });
    // `--unlock` reads the new login keyring's password from stdin; an empty one would need a prompt.
    daemon = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
      env: {
        ...process.env,
        HOME: daemonHome,
        XDG_DATA_HOME: path.join(daemonHome, 'data'),
        XDG_RUNTIME_DIR: runtime,
      },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    daemon.stdin?.end(KEYRING_PASSWORD);
    await waitForSecretService();
    store('Chrome Safe Storage', 'chrome', SAFE_STORAGE_PASSWORD);
  }, 30_000);

  afterAll(async () => {
    daemon?.kill();
    await box?.close();
    if (daemonHome) fs.rmSync(daemonHome, { recursive: true, force: true });
  });

  const environment = (): LocalEnvironment => ({
    platform: 'linux',
    env: process.env,
    homeDir: os.homedir(),
    now: () => new Date(),
  });
  const chromeKeys = (browser: 'chrome' | 'brave') => {
    const [install] = installLocations(environment(), browser);
    if (install?.kind !== 'chromium') throw new Error('no Chromium install');
    return install.keys;
  };

  it('codexbar reads the password back through secret-tool', async () => {
    const result = await systemKeyProviders(environment()).linuxPasswords(chromeKeys('chrome'));
    expect(result).toEqual({ ok: true, value: [SAFE_STORAGE_PASSWORD] });
  });

  it('a browser with no entry in the keyring is "key unavailable"', async () => {
    const result = await systemKeyProviders(environment()).linuxPasswords(chromeKeys('brave'));
    expect(result).toMatchObject({ ok: false, skip: { kind: 'key-unavailable' } });
  });

  it('the built CLI decrypts a Chrome v11 cookie with it and uses the session', async () => {
    box = openScene();
    const user = await sessionToken('keyring_user');
    await box.serve([proAccount([user.cookieValue], 'keyring@example.com')]);
    const now = Date.now();
    addChromium(box.home, 'linux', 'chrome', [
      {
        profile: 'Default',
        encrypt: (plain) => encryptLinuxV11(SAFE_STORAGE_PASSWORD, plain),
        session: user.cookieValue,
        created: new Date(now - 86_400_000),
      },
    ]);
    const before = snapshotBrowsers(box.home);
    const result = await box.run(['usage', '--json', '--verbose'], {
      env: { DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS, TMPDIR: box.tmp },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)[0].usage.accountEmail).toBe('keyring@example.com');
    expect(result.stderr).toContain('[cursor] Using browser cookie from Chrome profile "Default"');
    expect(`${result.stdout}${result.stderr}`).not.toContain(SAFE_STORAGE_PASSWORD);
    expect(snapshotBrowsers(box.home)).toEqual(before);
    expect(fs.readdirSync(box.tmp)).toEqual([]);
  });

  it('a locked keyring is "key unavailable", with the unlock hint (run last: it locks the keyring)', async () => {
    execFileSync('dbus-send', [
      '--session',
      '--dest=org.freedesktop.secrets',
      '--print-reply',
      '/org/freedesktop/secrets',
      'org.freedesktop.Secret.Service.Lock',
      'array:objpath:/org/freedesktop/secrets/collection/login',
    ]);
    const result = await systemKeyProviders(environment()).linuxPasswords(chromeKeys('chrome'));
    expect(result).toMatchObject({
      ok: false,
      skip: { kind: 'key-unavailable', hint: expect.stringContaining('Unlock your keyring') },
    });
  });
});

/**
 * The daemon takes a moment to claim the Secret Service name. Until it has, a secret-tool call would make
 * D-Bus start another keyring daemon (with the real HOME), so readiness is asked of the bus itself.
 */
async function waitForSecretService(): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const answer = spawnSync(
      'dbus-send',
      [
        '--session',
        '--print-reply',
        '--dest=org.freedesktop.DBus',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus.NameHasOwner',
        'string:org.freedesktop.secrets',
      ],
      { encoding: 'utf8', timeout: 10_000 },
    );
    if (answer.stdout.includes('boolean true')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('gnome-keyring-daemon did not claim org.freedesktop.secrets');
}

function store(label: string, application: string, password: string): void {
  const stored = spawnSync('secret-tool', ['store', `--label=${label}`, 'application', application], {
    input: password,
    timeout: 10_000,
  });
  if (stored.status !== 0) throw new Error(`secret-tool store failed (exit ${stored.status})`);
}

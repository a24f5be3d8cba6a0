import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localStateEncryptedKey } from '../../fixtures/builders/browser-crypto.js';
import { writeLocalState } from '../../fixtures/builders/browser-tree.js';
import { type ChromiumInstall, installLocations } from '../../src/auth/sources/browser/catalog.js';
import { installKeys, systemKeyProviders } from '../../src/auth/sources/browser/key-providers.js';
import { readLocalStateKey } from '../../src/auth/sources/browser/local-state.js';
import { runCommand } from '../../src/auth/sources/browser/run-command.js';
import type { LocalEnvironment, Platform } from '../../src/local/environment.js';
import { DESKTOP_BUS } from '../helpers/browser-cli.js';
import { type FakeTools, installFakeTools } from '../helpers/fake-tools.js';
import { useScene } from '../helpers/scene.js';

let tools: FakeTools | undefined;
const scene = useScene();
let home: string;
beforeEach(() => {
  home = scene.home;
});
afterEach(() => {
  tools?.cleanup();
  tools = undefined;
});

function environment(
  platform: Platform,
  pathValue: string,
  extra: Record<string, string | undefined> = {},
): LocalEnvironment {
  const env: Record<string, string | undefined> = {
    HOME: home,
    PATH: pathValue,
    DBUS_SESSION_BUS_ADDRESS: DESKTOP_BUS,
  };
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return { platform, env, homeDir: home, now: () => new Date() };
}

function chromium(env: LocalEnvironment, browser: 'chrome' | 'brave' | 'edge' = 'chrome'): ChromiumInstall {
  const [install] = installLocations(env, browser);
  if (install?.kind !== 'chromium') throw new Error('no install');
  return install;
}

describe('Linux: the Secret Service and KWallet through their command-line helpers', () => {
  it('secret-tool gives the password on stdout; nothing secret is in its arguments', async () => {
    tools = installFakeTools({ secretTool: { chrome: 'p4ss-from-keyring' } });
    const env = environment('linux', tools.path);
    const result = await systemKeyProviders(env).linuxPasswords(chromium(env).keys);
    expect(result).toEqual({ ok: true, value: ['p4ss-from-keyring'] });
    expect(tools.calls()).toEqual([
      { tool: 'secret-tool', argv: ['lookup', 'application', 'chrome'], stdin: '' },
    ]);
  });

  it('Brave is looked up under its own name, then under chromium', async () => {
    tools = installFakeTools({ secretTool: { chromium: 'shared' } });
    const env = environment('linux', tools.path);
    expect(await systemKeyProviders(env).linuxPasswords(chromium(env, 'brave').keys)).toEqual({
      ok: true,
      value: ['shared'],
    });
    expect(tools.calls().map((call) => call.argv[2])).toEqual(['brave', 'chromium']);
  });

  it('on KDE, KWallet is asked first (folder "<Product> Keys", entry "<Product> Safe Storage")', async () => {
    tools = installFakeTools({ kwallet: { 'Chrome Keys/Chrome Safe Storage': 'from-kwallet' } });
    const env = environment('linux', tools.path, { XDG_CURRENT_DESKTOP: 'KDE' });
    expect(await systemKeyProviders(env).linuxPasswords(chromium(env).keys)).toEqual({
      ok: true,
      value: ['from-kwallet'],
    });
    expect(tools.calls()).toEqual([
      {
        tool: 'kwallet-query',
        argv: ['--read-password', 'Chrome Safe Storage', '--folder', 'Chrome Keys', 'kdewallet'],
        stdin: '',
      },
    ]);
  });

  it('an empty keyring is "key unavailable", naming what was asked', async () => {
    tools = installFakeTools({});
    const env = environment('linux', tools.path);
    const result = await systemKeyProviders(env).linuxPasswords(chromium(env).keys);
    expect(result).toMatchObject({ ok: false, skip: { kind: 'key-unavailable' } });
    expect(!result.ok && result.skip.reason).toBe(
      'could not read its “Chrome Safe Storage” key from the system keyring (secret-tool found nothing (exit 1); kwallet-query found nothing (exit 1))',
    );
  });

  it('no helper installed is "key unavailable" with an install hint', async () => {
    const empty = fs.mkdtempSync(path.join(home, 'empty-bin-'));
    const env = environment('linux', empty);
    const result = await systemKeyProviders(env).linuxPasswords(chromium(env).keys);
    expect(result).toMatchObject({
      ok: false,
      skip: { kind: 'key-unavailable', hint: expect.stringContaining('libsecret-tools') },
    });
  });
});

describe('Linux: without a desktop session no keyring can answer', () => {
  const NO_SESSION =
    'its “Chrome Safe Storage” key is in the system keyring, and there is no desktop session ' +
    '(DBUS_SESSION_BUS_ADDRESS is unset); run from the desktop or unlock the keyring there';

  async function lookup(extra: Record<string, string | undefined>) {
    tools = installFakeTools({ secretTool: { chrome: 'p4ss' } });
    const env = environment('linux', tools.path, extra);
    return systemKeyProviders(env).linuxPasswords(chromium(env).keys);
  }

  it.each([
    ['unset', { DBUS_SESSION_BUS_ADDRESS: undefined }],
    ['blank', { DBUS_SESSION_BUS_ADDRESS: '  ' }],
    [
      'unset, and XDG_RUNTIME_DIR has no bus',
      { DBUS_SESSION_BUS_ADDRESS: undefined, XDG_RUNTIME_DIR: '/nonexistent' },
    ],
    [
      'unset, and XDG_RUNTIME_DIR is relative',
      { DBUS_SESSION_BUS_ADDRESS: undefined, XDG_RUNTIME_DIR: 'run' },
    ],
  ])('DBUS_SESSION_BUS_ADDRESS %s: says so, and runs no helper', async (_what, extra) => {
    expect(await lookup(extra)).toEqual({
      ok: false,
      skip: {
        kind: 'no-desktop-session',
        reason: NO_SESSION,
        hint: expect.stringContaining('desktop session'),
      },
    });
    expect(tools!.calls()).toEqual([]);
  });

  it('a regular file at $XDG_RUNTIME_DIR/bus is no bus', async () => {
    const runtime = fs.mkdtempSync(path.join(home, 'run-'));
    fs.writeFileSync(path.join(runtime, 'bus'), '');
    expect(await lookup({ DBUS_SESSION_BUS_ADDRESS: undefined, XDG_RUNTIME_DIR: runtime })).toMatchObject({
      ok: false,
      skip: { kind: 'no-desktop-session' },
    });
  });

  it('the socket at $XDG_RUNTIME_DIR/bus is the session bus, as libdbus finds it', async () => {
    const runtime = fs.mkdtempSync(path.join(home, 'run-'));
    const bus = net.createServer();
    await new Promise<void>((resolve) => bus.listen(path.join(runtime, 'bus'), resolve));
    try {
      expect(await lookup({ DBUS_SESSION_BUS_ADDRESS: undefined, XDG_RUNTIME_DIR: runtime })).toEqual({
        ok: true,
        value: ['p4ss'],
      });
    } finally {
      await new Promise((resolve) => bus.close(resolve));
    }
  });
});

describe('macOS: the Keychain through `security`, only with consent', () => {
  it('asks for "<Product> Safe Storage" with -w and drops the trailing newline', async () => {
    tools = installFakeTools({ keychain: { 'Chrome Safe Storage': 'k3ychain' } });
    const env = environment('darwin', tools.path);
    const keys = installKeys(chromium(env), {
      providers: systemKeyProviders(env),
      allowKeychainPrompt: true,
      show: (p) => p,
    });
    expect(await keys.macPassword()).toEqual({ ok: true, value: 'k3ychain' });
    // Asked once per run, however many values need it.
    expect(await keys.macPassword()).toEqual({ ok: true, value: 'k3ychain' });
    expect(tools.calls()).toEqual([
      { tool: 'security', argv: ['find-generic-password', '-w', '-s', 'Chrome Safe Storage'], stdin: '' },
    ]);
  });

  it('without consent, `security` is never run and the reason says how to allow it', async () => {
    tools = installFakeTools({ keychain: { 'Chrome Safe Storage': 'k3ychain' } });
    const env = environment('darwin', tools.path);
    const keys = installKeys(chromium(env), {
      providers: systemKeyProviders(env),
      allowKeychainPrompt: false,
      show: (p) => p,
    });
    expect(await keys.macPassword()).toMatchObject({
      ok: false,
      skip: { kind: 'consent-needed', hint: expect.stringContaining('--allow-keychain-prompt') },
    });
    expect(tools.calls()).toEqual([]);
  });

  it.each([
    ['a missing item', {}, 'no “Chrome Safe Storage” item in the Keychain'],
    [
      'a denied prompt',
      { 'Chrome Safe Storage': null },
      'the Keychain did not give out “Chrome Safe Storage” (security exited with 51)',
    ],
  ])('%s is "key unavailable"', async (_what, keychain, reason) => {
    tools = installFakeTools({ keychain });
    const env = environment('darwin', tools.path);
    expect(await systemKeyProviders(env).keychainPassword(chromium(env).keys)).toMatchObject({
      ok: false,
      skip: { kind: 'key-unavailable', reason },
    });
  });
});

describe('Windows: the Local State key, unwrapped by DPAPI through PowerShell', () => {
  it('the DPAPI blob goes to PowerShell on stdin, never in argv; the AES key comes back', async () => {
    tools = installFakeTools({});
    const env = environment('win32', tools.path);
    const install = chromium(env, 'edge');
    const aesKey = randomBytes(32);
    const encryptedKey = localStateEncryptedKey(aesKey);
    writeLocalState(install.root, encryptedKey);

    const result = await readLocalStateKey(install.root, systemKeyProviders(env), (p) => p);

    expect(result).toEqual({ ok: true, value: aesKey });
    const [call, ...more] = tools.calls();
    expect(more).toEqual([]);
    expect(call?.tool).toBe('powershell.exe');
    const blob = Buffer.from(encryptedKey, 'base64').subarray(5).toString('base64');
    expect(call?.stdin).toBe(blob);
    expect(call?.argv.join(' ')).not.toContain(blob);
    expect(call?.argv.join(' ')).toContain('ProtectedData]::Unprotect');
  });

  it('a key protected for another user is "key unavailable"', async () => {
    tools = installFakeTools({});
    const env = environment('win32', tools.path);
    const install = chromium(env, 'edge');
    writeLocalState(install.root, localStateEncryptedKey(randomBytes(32), Buffer.alloc(32, 9)));
    expect(await readLocalStateKey(install.root, systemKeyProviders(env), (p) => p)).toMatchObject({
      ok: false,
      skip: { kind: 'key-unavailable', reason: expect.stringContaining('would not unwrap') },
    });
  });

  it('no Local State, or one without os_crypt.encrypted_key, is "missing Local State"; PowerShell is not run', async () => {
    tools = installFakeTools({});
    const env = environment('win32', tools.path);
    const install = chromium(env);
    expect(await readLocalStateKey(install.root, systemKeyProviders(env), (p) => p)).toMatchObject({
      ok: false,
      skip: { kind: 'missing-local-state' },
    });
    writeLocalState(install.root);
    expect(await readLocalStateKey(install.root, systemKeyProviders(env), (p) => p)).toMatchObject({
      ok: false,
      skip: { kind: 'missing-local-state' },
    });
    expect(tools.calls()).toEqual([]);
  });
});

describe('runCommand', () => {
  it('a helper that hangs is stopped after the timeout it was given', async () => {
    const script = path.join(home, 'hangs');
    fs.writeFileSync(script, `#!${process.execPath}\nsetInterval(() => {}, 1000);\n`, { mode: 0o755 });
    expect(await runCommand(script, [], { env: {}, timeoutMs: 50 })).toEqual({ kind: 'timeout' });
  });

  it('a program that is not installed is "missing"', async () => {
    expect(await runCommand('codexbar-no-such-helper', [], { env: { PATH: home }, timeoutMs: 5000 })).toEqual(
      {
        kind: 'missing',
      },
    );
  });
});

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  appBoundValue,
  chromiumPlaintext,
  encryptCbc,
  encryptLinuxV10,
  encryptLinuxV11,
  encryptMacV10,
  encryptWindowsV10,
  fakeDpapiProtect,
} from '../../fixtures/builders/browser-crypto.js';
import { decryptChromiumValue } from '../../src/auth/sources/browser/decrypt.js';
import type { InstallKeys } from '../../src/auth/sources/browser/key-providers.js';
import { type Outcome, ok, skip } from '../../src/auth/sources/browser/outcome.js';
import type { Platform } from '../../src/local/environment.js';

const VALUE = 'user_abc%3A%3AeyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig';
const HOST = '.cursor.com';
const WINDOWS_KEY = randomBytes(32);

/** Keys as the OS would hand them out; each lookup is counted so tests see what was asked. */
function keys(
  overrides: Partial<
    Record<'linuxPasswords' | 'macPassword' | 'windowsKey', () => Promise<Outcome<unknown>>>
  > = {},
) {
  const asked: string[] = [];
  const answer =
    <T>(name: 'linuxPasswords' | 'macPassword' | 'windowsKey', value: Outcome<T>) =>
    async (): Promise<Outcome<T>> => {
      asked.push(name);
      return ((await overrides[name]?.()) as Outcome<T> | undefined) ?? value;
    };
  const installKeys: InstallKeys = {
    linuxPasswords: answer('linuxPasswords', ok(['keyring-password'])),
    macPassword: answer('macPassword', ok('keychain-password')),
    windowsKey: answer('windowsKey', ok(WINDOWS_KEY)),
    dpapi: async () => {
      asked.push('dpapi');
      return skip('key-unavailable', 'no DPAPI in this test');
    },
  };
  return { installKeys, asked };
}

const decrypt = (
  platform: Platform,
  blob: Buffer,
  installKeys: InstallKeys,
  metaVersion = 24,
  hostKey = HOST,
) => decryptChromiumValue(platform, { blob, hostKey, metaVersion }, installKeys, 'Chrome');

describe('Chromium values decrypt by each platform scheme', () => {
  it.each([23, 24])(
    'Linux v10 (fixed key "peanuts") at meta version %i, without asking the keyring',
    async (meta) => {
      const { installKeys, asked } = keys();
      const blob = encryptLinuxV10(chromiumPlaintext(VALUE, HOST, meta));
      expect(await decrypt('linux', blob, installKeys, meta)).toEqual(ok(VALUE));
      expect(asked).toEqual([]);
    },
  );

  it('Linux v10 made with an empty password (some builds) decrypts too', async () => {
    const blob = encryptCbc('v10', '', 1, chromiumPlaintext(VALUE, HOST, 24));
    expect(await decrypt('linux', blob, keys().installKeys)).toEqual(ok(VALUE));
  });

  it('Linux v11 uses the keyring password, trying each candidate until one decrypts', async () => {
    const { installKeys, asked } = keys({ linuxPasswords: async () => ok(['wrong-one', 'right-one']) });
    const blob = encryptLinuxV11('right-one', chromiumPlaintext(VALUE, HOST, 24));
    expect(await decrypt('linux', blob, installKeys)).toEqual(ok(VALUE));
    expect(asked).toEqual(['linuxPasswords']);
  });

  it('Linux v11 with a locked keyring is skipped as "key unavailable"', async () => {
    const locked = skip('key-unavailable', 'could not read its key', 'Unlock your keyring');
    const { installKeys } = keys({ linuxPasswords: async () => locked });
    const blob = encryptLinuxV11('right-one', chromiumPlaintext(VALUE, HOST, 24));
    expect(await decrypt('linux', blob, installKeys)).toEqual(locked);
  });

  it('Linux v11 under the wrong password never yields a value', async () => {
    const { installKeys } = keys({ linuxPasswords: async () => ok(['not-it']) });
    const blob = encryptLinuxV11('right-one', chromiumPlaintext(VALUE, HOST, 24));
    const result = await decrypt('linux', blob, installKeys);
    expect(result).toMatchObject({ ok: false, skip: { kind: 'undecryptable' } });
  });

  it('macOS v10 uses the Keychain password with 1003 iterations', async () => {
    const { installKeys, asked } = keys();
    const blob = encryptMacV10('keychain-password', chromiumPlaintext(VALUE, HOST, 24));
    expect(await decrypt('darwin', blob, installKeys)).toEqual(ok(VALUE));
    expect(asked).toEqual(['macPassword']);
    // The Linux iteration count does not open a macOS value.
    const linuxStyle = encryptCbc('v10', 'keychain-password', 1, chromiumPlaintext(VALUE, HOST, 24));
    expect(await decrypt('darwin', linuxStyle, installKeys)).toMatchObject({ ok: false });
  });

  it('Windows v10 is AES-256-GCM with the Local State key', async () => {
    const { installKeys, asked } = keys();
    const blob = encryptWindowsV10(WINDOWS_KEY, chromiumPlaintext(VALUE, HOST, 24));
    expect(await decrypt('win32', blob, installKeys)).toEqual(ok(VALUE));
    expect(asked).toEqual(['windowsKey']);
  });

  it('Windows v10 with one changed byte is rejected by the GCM tag: no partial cookie', async () => {
    const blob = encryptWindowsV10(WINDOWS_KEY, chromiumPlaintext(VALUE, HOST, 24));
    blob[20] = (blob[20] ?? 0) ^ 1;
    expect(await decrypt('win32', blob, keys().installKeys)).toMatchObject({
      ok: false,
      skip: { kind: 'undecryptable' },
    });
  });

  it('Windows v20 (app-bound) is named as such, with the fixes, and no key is fetched', async () => {
    const { installKeys, asked } = keys();
    const result = await decrypt('win32', appBoundValue(), installKeys);
    expect(result).toMatchObject({ ok: false, skip: { kind: 'app-bound' } });
    if (result.ok) return;
    expect(result.skip.reason).toBe(
      'its cursor.com cookie uses app-bound encryption (v20), which cannot be decrypted outside Chrome',
    );
    expect(result.skip.hint).toContain('Firefox');
    expect(result.skip.hint).toContain('Cursor app');
    expect(result.skip.hint).toContain('`codexbar login`');
    expect(asked).toEqual([]);
  });

  it('Windows values from before Chrome 80 are bare DPAPI blobs, unwrapped through DPAPI', async () => {
    const header = Buffer.from('01000000d08c9ddf0115d1118c7a00c04fc297eb', 'hex');
    // A real DPAPI blob starts with this header; the fake's payload follows it.
    const protectedValue = fakeDpapiProtect(Buffer.from(VALUE));
    const { installKeys, asked } = keys();
    const handed: Buffer[] = [];
    installKeys.dpapi = async (blob) => {
      asked.push('dpapi');
      handed.push(blob);
      return ok(Buffer.from(VALUE));
    };
    const result = await decrypt('win32', Buffer.concat([header, protectedValue]), installKeys, 12);
    expect(result).toEqual(ok(VALUE));
    expect(asked).toEqual(['dpapi']);
    expect(handed).toEqual([Buffer.concat([header, protectedValue])]);
  });
});

describe('the host-hash prefix of meta version 24', () => {
  it('is checked against the row host: a value moved to another host does not decrypt', async () => {
    const blob = encryptLinuxV10(chromiumPlaintext(VALUE, 'evil.example', 24));
    expect(await decrypt('linux', blob, keys().installKeys, 24, HOST)).toMatchObject({
      ok: false,
      skip: { kind: 'undecryptable' },
    });
  });

  it('is not expected at version 23: a v23 value is the cookie itself', async () => {
    const v23 = encryptLinuxV10(chromiumPlaintext(VALUE, HOST, 23));
    expect(await decrypt('linux', v23, keys().installKeys, 23)).toEqual(ok(VALUE));
    // Read as if it were v24, the first 32 bytes are not the hash, so nothing is used.
    expect(await decrypt('linux', v23, keys().installKeys, 24)).toMatchObject({ ok: false });
  });
});

describe('values that are not cookies are never used', () => {
  it.each([
    ['a control character', 'abc\u0001def'],
    ['a semicolon that would end the pair', 'abc; other=1'],
    ['a space', 'abc def'],
  ])('a plaintext with %s', async (_what, text) => {
    const blob = encryptLinuxV10(chromiumPlaintext(text, HOST, 24));
    expect(await decrypt('linux', blob, keys().installKeys)).toMatchObject({
      ok: false,
      skip: { kind: 'undecryptable' },
    });
  });

  it('an unknown version tag', async () => {
    const result = await decrypt('linux', Buffer.from('x99garbage-bytes'), keys().installKeys);
    expect(result).toMatchObject({ ok: false, skip: { kind: 'undecryptable' } });
  });

  it('ciphertext cut short', async () => {
    const blob = encryptLinuxV10(chromiumPlaintext(VALUE, HOST, 24)).subarray(0, 20);
    expect(await decrypt('linux', blob, keys().installKeys)).toMatchObject({ ok: false });
  });
});

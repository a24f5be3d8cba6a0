import type { Platform } from '../../../local/environment.js';
import {
  cbcKey,
  cookieText,
  decryptCbc,
  decryptGcm,
  LINUX_FIXED_PASSWORD,
  LINUX_ITERATIONS,
  MAC_ITERATIONS,
  valueScheme,
} from './chromium-crypto.js';
import type { InstallKeys } from './key-providers.js';
import { type Outcome, ok, skip } from './outcome.js';

export interface EncryptedValue {
  /** `encrypted_value` as stored. */
  blob: Buffer;
  /** The row's `host_key`, whose SHA-256 prefixes the plaintext at meta version 24+. */
  hostKey: string;
  metaVersion: number;
}

/** The fixes that work whatever the browser encrypts with. */
const OTHER_WAYS =
  'sign in to cursor.com in Firefox, sign in to the Cursor app (its token is read directly), or run `codexbar login`';

/**
 * One Chromium cookie value, decrypted by its platform's scheme. The keys are fetched only here, so a profile
 * without a cursor.com cookie never causes a keyring lookup or a prompt.
 */
export async function decryptChromiumValue(
  platform: Platform,
  value: EncryptedValue,
  keys: InstallKeys,
  browser: string,
): Promise<Outcome<string>> {
  const scheme = valueScheme(value.blob);
  if (platform === 'win32') return decryptWindows(scheme, value, keys, browser);
  if (platform === 'darwin') {
    if (scheme !== 'v10') return unknownScheme(scheme);
    const password = await keys.macPassword();
    if (!password.ok) return password;
    return firstThatDecrypts(value, [cbcKey(password.value, MAC_ITERATIONS)], 'the Keychain key');
  }
  if (scheme === 'v10') {
    // Chromium builds that lost their keyring password fell back to an empty one, so both are tried.
    const candidates = [LINUX_FIXED_PASSWORD, ''].map((p) => cbcKey(p, LINUX_ITERATIONS));
    return firstThatDecrypts(value, candidates, 'the built-in v10 key');
  }
  if (scheme === 'v11') {
    const passwords = await keys.linuxPasswords();
    if (!passwords.ok) return passwords;
    const candidates = passwords.value.map((p) => cbcKey(p, LINUX_ITERATIONS));
    return firstThatDecrypts(value, candidates, 'the key from the system keyring');
  }
  return unknownScheme(scheme);
}

async function decryptWindows(
  scheme: ReturnType<typeof valueScheme>,
  value: EncryptedValue,
  keys: InstallKeys,
  browser: string,
): Promise<Outcome<string>> {
  if (scheme === 'v20') {
    return skip(
      'app-bound',
      `its cursor.com cookie uses app-bound encryption (v20), which cannot be decrypted outside ${browser}`,
      `${browser} protects its cookies with app-bound encryption, which only ${browser} itself can decrypt: ${OTHER_WAYS}.`,
    );
  }
  if (scheme === 'v10' || scheme === 'v11') {
    const key = await keys.windowsKey();
    if (!key.ok) return key;
    const plain = decryptGcm(key.value, value.blob);
    const text = plain && cookieText(plain, value.hostKey, value.metaVersion);
    return text === undefined ? notDecrypted('the key from Local State') : ok(text);
  }
  if (scheme === 'dpapi') {
    const plain = await keys.dpapi(value.blob);
    if (!plain.ok) return plain;
    const text = cookieText(plain.value, value.hostKey, value.metaVersion);
    return text === undefined ? notDecrypted('DPAPI') : ok(text);
  }
  return unknownScheme(scheme);
}

function firstThatDecrypts(value: EncryptedValue, candidates: Buffer[], which: string): Outcome<string> {
  for (const key of candidates) {
    const plain = decryptCbc(key, value.blob);
    const text = plain && cookieText(plain, value.hostKey, value.metaVersion);
    if (text !== undefined) return ok(text);
  }
  return notDecrypted(which);
}

function notDecrypted(which: string): Outcome<string> {
  return skip('undecryptable', `its cursor.com cookie did not decrypt with ${which}`);
}

function unknownScheme(scheme: string): Outcome<string> {
  const what = scheme === 'unknown' ? 'an unknown format' : `a format (${scheme}) this platform does not use`;
  return skip('undecryptable', `its cursor.com cookie is encrypted in ${what}`);
}

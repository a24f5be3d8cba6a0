import { createDecipheriv, createHash, pbkdf2Sync } from 'node:crypto';

/**
 * The Chromium cookie encryption schemes, decryption only, node:crypto only.
 * Every function answers `undefined` rather than throwing when the bytes do not decrypt, so a wrong key or
 * a damaged value can never produce a partial cookie.
 */

/** Linux and macOS: AES-128-CBC with a PBKDF2-SHA1 key (salt `saltysalt`) and an IV of 16 spaces. */
const CBC_SALT = 'saltysalt';
const CBC_IV = Buffer.alloc(16, 0x20);
const CBC_KEY_BYTES = 16;
/** Linux derives its key with 1 iteration, macOS with 1003. */
export const LINUX_ITERATIONS = 1;
export const MAC_ITERATIONS = 1003;
/** Linux `v10`: the fixed password Chromium uses when no keyring holds one. */
export const LINUX_FIXED_PASSWORD = 'peanuts';

/** Windows: AES-256-GCM, a 12-byte nonce after the version tag and a 16-byte tag at the end. */
const GCM_NONCE_BYTES = 12;
const GCM_TAG_BYTES = 16;
const GCM_KEY_BYTES = 32;

/** Since cookie database version 24 the plaintext starts with SHA-256 of the cookie's host key. */
const HOST_HASH_META_VERSION = 24;
const HOST_HASH_BYTES = 32;

/** Windows values from before Chrome 80 are bare DPAPI blobs, which start with this version and provider GUID. */
const DPAPI_BLOB_HEADER = Buffer.from('01000000d08c9ddf0115d1118c7a00c04fc297eb', 'hex');

export type ValueScheme = 'v10' | 'v11' | 'v20' | 'dpapi' | 'unknown';

export function valueScheme(blob: Buffer): ValueScheme {
  const tag = blob.subarray(0, 3).toString('latin1');
  if (tag === 'v10' || tag === 'v11' || tag === 'v20') return tag;
  if (blob.subarray(0, DPAPI_BLOB_HEADER.length).equals(DPAPI_BLOB_HEADER)) return 'dpapi';
  return 'unknown';
}

export function cbcKey(password: string, iterations: number): Buffer {
  return pbkdf2Sync(password, CBC_SALT, iterations, CBC_KEY_BYTES, 'sha1');
}

/** `v10`/`v11` on Linux and macOS: the bytes after the 3-byte version tag. */
export function decryptCbc(key: Buffer, blob: Buffer): Buffer | undefined {
  const data = blob.subarray(3);
  if (data.length === 0 || data.length % 16 !== 0) return undefined;
  try {
    const decipher = createDecipheriv('aes-128-cbc', key, CBC_IV);
    return Buffer.concat([decipher.update(data), decipher.final()]);
  } catch {
    return undefined;
  }
}

/** `v10`/`v11` on Windows: authenticated, so a wrong key or a changed byte is always detected. */
export function decryptGcm(key: Buffer, blob: Buffer): Buffer | undefined {
  if (key.length !== GCM_KEY_BYTES) return undefined;
  const data = blob.subarray(3);
  if (data.length < GCM_NONCE_BYTES + GCM_TAG_BYTES) return undefined;
  const nonce = data.subarray(0, GCM_NONCE_BYTES);
  const tag = data.subarray(data.length - GCM_TAG_BYTES);
  const ciphertext = data.subarray(GCM_NONCE_BYTES, data.length - GCM_TAG_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, nonce);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    return undefined;
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
// A cookie value we can put in a header: visible ASCII, no `;` (it would end the pair).
const COOKIE_VALUE = /^[\x21-\x3a\x3c-\x7e]+$/;

/**
 * The cookie value inside decrypted bytes: the host-hash prefix checked and removed at meta version 24+,
 * then strict UTF-8 that is a valid header value. Anything else means a wrong key or a damaged value.
 */
export function cookieText(plain: Buffer, hostKey: string, metaVersion: number): string | undefined {
  let bytes = plain;
  if (metaVersion >= HOST_HASH_META_VERSION) {
    const expected = createHash('sha256').update(hostKey, 'utf8').digest();
    if (bytes.length < HOST_HASH_BYTES || !bytes.subarray(0, HOST_HASH_BYTES).equals(expected))
      return undefined;
    bytes = bytes.subarray(HOST_HASH_BYTES);
  }
  return plainCookieText(bytes);
}

/** A stored plaintext value (Firefox, or Chromium's unencrypted `value` column) checked the same way. */
export function plainCookieText(bytes: Buffer | string): string | undefined {
  let text: string;
  try {
    text = typeof bytes === 'string' ? bytes : strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
  return COOKIE_VALUE.test(text) ? text : undefined;
}

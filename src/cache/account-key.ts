import { sha256Hex } from '../lib/hash.js';

/** Who a cached figure belongs to: never a token, only the account's identity. */
export interface AccountIdentity {
  /** The cursor.com user id: the JWT `sub`'s last segment, or the user-id part of the session cookie. */
  userId: string;
  /** The token-account label, when a token account supplied the session. */
  label?: string;
}

/**
 * docs/invariants.md, "Keyed by account, never by credential": the file-name key of an account's cache
 * entries is a SHA-256 of the identity, so a file name reveals neither the user id nor the label, and two
 * accounts never share a file. The user id is compared case-sensitively (cursor.com's ids are), the label
 * trimmed and case-insensitively.
 */
export function accountKey(identity: AccountIdentity): string {
  const label = identity.label?.trim().toLowerCase() ?? '';
  return sha256Hex(`cursor\0${identity.userId}\0${label}`).slice(0, 32);
}

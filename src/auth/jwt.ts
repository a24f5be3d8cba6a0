import { decodeJwt, type JWTPayload } from 'jose';
import type { JwtIdentity } from './types.js';

/** docs/invariants.md, "Tokens used as found, with 60 s to spare": the margin an expiry must exceed. */
const EXPIRY_MARGIN_SECONDS = 60;

export type TokenInspection =
  | { kind: 'usable'; identity: JwtIdentity }
  | { kind: 'expired'; identity: JwtIdentity }
  | { kind: 'malformed'; reason: string };

export type TokenDecoding = { kind: 'ok'; identity: JwtIdentity } | { kind: 'malformed'; reason: string };

// A user ID is Foundation's alphanumerics (letters, marks, digits) plus `. _ -`.
const USER_ID_PATTERN = /^[\p{L}\p{M}\p{N}._-]+$/u;
// jose falls back to `atob`, which skips whitespace; CodexBar's strict base64 does not.
const BASE64URL_PATTERN = /^[A-Za-z0-9_-]*={0,2}$/;
// Keeps `new Date()` valid for absurd `exp` values (ECMAScript's maximum time value).
const MAX_DATE_MS = 8.64e15;

/**
 * Decodes a Cursor access token without verifying its signature and checks its expiry against `now`. Reasons
 * are short phrases (e.g. `invalid user ID`) and never contain the token.
 */
export function inspectAccessToken(token: string, now: Date): TokenInspection {
  const decoded = decodeAccessToken(token);
  if (decoded.kind === 'malformed') return decoded;
  const { identity } = decoded;
  const secondsLeft = (identity.expiresAt.getTime() - now.getTime()) / 1000;
  return secondsLeft > EXPIRY_MARGIN_SECONDS ? { kind: 'usable', identity } : { kind: 'expired', identity };
}

/** Every structural check of inspectAccessToken, without the expiry comparison. */
export function decodeAccessToken(token: string): TokenDecoding {
  if (token.trim() === '') return malformed('empty');
  const parts = token.split('.');
  if (parts.length < 2) return malformed('not a JWT');
  const payload = parts[1] ?? '';
  if (!BASE64URL_PATTERN.test(payload)) return malformed('invalid payload');

  let claims: JWTPayload;
  try {
    // A token needs only two `.`-parts, and the second is read; jose insists on exactly three, so it gets the
    // first two plus an empty signature (it never looks at the signature here).
    claims = decodeJwt(`${parts[0]}.${payload}.`);
  } catch {
    return malformed('invalid payload');
  }

  const subject = claims.sub;
  if (typeof subject !== 'string') return malformed('missing a user ID');
  const userId = lastSegment(subject);
  if (userId === undefined) return malformed('missing a user ID');
  if (!USER_ID_PATTERN.test(userId)) return malformed('invalid user ID');

  const exp = expirySeconds(claims.exp);
  if (exp === 'missing') return malformed('missing an expiry');
  if (exp === 'invalid') return malformed('invalid expiry');

  const identity: JwtIdentity = {
    userId,
    subject,
    expiresAt: new Date(Math.max(-MAX_DATE_MS, Math.min(MAX_DATE_MS, exp * 1000))),
  };
  if (typeof claims.email === 'string') identity.email = claims.email;
  return { kind: 'ok', identity };
}

function malformed(reason: string): { kind: 'malformed'; reason: string } {
  return { kind: 'malformed', reason };
}

function expirySeconds(exp: unknown): number | 'missing' | 'invalid' {
  if (exp === undefined) return 'missing';
  if (typeof exp === 'number') return exp;
  // Apple Foundation decodes JSON booleans as NSNumber, so `true` is epoch second 1 (long expired).
  if (typeof exp === 'boolean') return exp ? 1 : 0;
  return 'invalid';
}

/** The last non-empty `|` segment, case kept (`auth0|` gives `auth0`, `|` gives none). */
function lastSegment(subject: string): string | undefined {
  return subject
    .split('|')
    .filter((segment) => segment !== '')
    .at(-1);
}

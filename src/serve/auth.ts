/**
 * Bearer auth (docs/behaviour.md §29.6): `Authorization: Bearer <token>` only, scheme in any case,
 * token trimmed. Both sides are SHA-256 digests compared with timingSafeEqual, so the comparison takes
 * the same time whatever the token's length or content. No configured token means nobody gets in.
 */
import { timingSafeEqual } from 'node:crypto';
import { sha256 } from './settings.js';

const BEARER = /^\s*bearer\s+(.*)$/is;

export function bearerAuthorized(
  authorization: string | undefined,
  tokenDigest: Buffer | undefined,
): boolean {
  if (tokenDigest === undefined || authorization === undefined) return false;
  const match = BEARER.exec(authorization);
  const presented = match?.[1]?.trim();
  if (!presented) return false;
  return timingSafeEqual(sha256(presented), tokenDigest);
}

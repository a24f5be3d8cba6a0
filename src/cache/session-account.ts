import { parseCookiePairs } from '../auth/cookie.js';
import type { Session } from '../auth/types.js';
import { accountKey } from './account-key.js';

/**
 * The cache key of the account a session belongs to: its cursor.com user id — the access token's, or the
 * user-id part of the `WorkosCursorSessionToken` cookie — and the token-account label. Undefined, so nothing
 * is cached, when the session names no user id (docs/invariants.md, "Keyed by account, never by credential").
 */
export function sessionAccountKey(
  session: Pick<Session, 'jwt' | 'cookieHeader'>,
  label: string | undefined,
): string | undefined {
  const userId = session.jwt?.userId ?? cookieUserId(session.cookieHeader);
  return userId === undefined ? undefined : accountKey({ userId, label });
}

/** `WorkosCursorSessionToken=<userId>%3A%3A<token>`: the text before the first `::`, when there is one. */
function cookieUserId(header: string): string | undefined {
  const pair = parseCookiePairs(header).find((candidate) => candidate.name === 'WorkosCursorSessionToken');
  if (pair === undefined) return undefined;
  let value = pair.value;
  try {
    value = decodeURIComponent(value);
  } catch {
    // Not percent-encoded text: used as it is.
  }
  const separator = value.indexOf('::');
  const userId = separator > 0 ? value.slice(0, separator).trim() : '';
  return userId === '' ? undefined : userId;
}

import { sessionTokenFromCookie } from '../auth/cookie.js';
import type { Session } from '../auth/types.js';
import { accountKey } from './account-key.js';

/**
 * The cache key of the account a session belongs to (docs/behaviour.md §25.2): the JWT's user id, else the
 * user-id part of the session cookie, plus the token-account label. Undefined when the session names no
 * user: such a session is never cached, so its figures can never be shown for someone else.
 */
export function sessionAccountKey(
  session: Pick<Session, 'jwt' | 'cookieHeader'>,
  label: string | undefined,
): string | undefined {
  const userId = session.jwt?.userId ?? sessionTokenFromCookie(session.cookieHeader)?.userPart.trim();
  if (!userId) return undefined;
  return accountKey({ userId, label });
}

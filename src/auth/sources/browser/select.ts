import { cookieHeaderProblem } from '../../../api/header-value.js';
import { isoSeconds } from '../../../lib/iso-date.js';
import { sessionTokenFromCookie } from '../../cookie.js';
import { inspectAccessToken } from '../../jwt.js';
import { type CookieRow, SESSION_COOKIE_NAMES, TEAM_COOKIE_NAMES } from './catalog.js';
import { type BrowserSkip, type Outcome, ok, type SkipKind, skip } from './outcome.js';

/** A stored cookie whose value is read (or decrypted) only when it is the one being considered. */
export interface CandidateCookie extends CookieRow {
  read: () => Promise<Outcome<string>>;
}

/** Which failure to report when no cookie could be used: the one the user can act on first. */
const FAILURE_ORDER: readonly SkipKind[] = [
  'app-bound',
  'consent-needed',
  'missing-local-state',
  'no-desktop-session',
  'key-unavailable',
  'unreadable',
  'undecryptable',
];

/** The Cookie header to send, and when the session cookie in it expires (none: when the browser closes). */
export interface PickedSession {
  header: string;
  expiresMs?: number;
}

/**
 * Among one profile's cursor.com session cookies the newest unexpired one wins (by creation time). A value
 * that does not decrypt, whose session token has expired, or that makes a header that cannot be sent, passes
 * the turn to the next newest. The team-selection cookies of the same profile ride along when they are
 * readable. The answer is the Cookie header to send, or why there is none.
 */
export async function pickSessionHeader(
  cookies: readonly CandidateCookie[],
  now: Date,
): Promise<Outcome<PickedSession>> {
  const sessions = cookies.filter((cookie) => SESSION_COOKIE_NAMES.includes(cookie.name));
  if (sessions.length === 0) return skip('no-cookie', 'no cursor.com session cookie');
  const live = newestFirst(sessions.filter((cookie) => isLive(cookie, now)));
  if (live.length === 0) {
    const latest = Math.max(...sessions.map((cookie) => cookie.expiresMs ?? 0));
    return skip('expired', `its cursor.com session cookie expired ${isoSeconds(new Date(latest))}`);
  }

  const failures: BrowserSkip[] = [];
  let expiredToken = false;
  for (const cookie of live) {
    const value = await cookie.read();
    if (!value.ok) {
      failures.push(value.skip);
      continue;
    }
    const pair = `${cookie.name}=${value.value}`;
    if (tokenExpired(pair, now)) {
      expiredToken = true;
      continue;
    }
    const header = [pair, ...(await teamPairs(cookies, now))].join('; ');
    // docs/invariants.md, "Credentials only to their own server, over HTTPS": a header that cannot be sent
    // (over 8 KiB) is no session; the next cookie, or the next profile, gets its turn instead of the run
    // failing on the first request.
    const refused = cookieHeaderProblem(header);
    if (refused) {
      failures.push({ kind: 'undecryptable', reason: `its cursor.com cookie cannot be sent: ${refused}` });
      continue;
    }
    return ok(cookie.expiresMs === undefined ? { header } : { header, expiresMs: cookie.expiresMs });
  }
  const failure = [...failures].sort(
    (a, b) => FAILURE_ORDER.indexOf(a.kind) - FAILURE_ORDER.indexOf(b.kind),
  )[0];
  if (failure !== undefined && !(expiredToken && failure.kind === 'undecryptable'))
    return { ok: false, skip: failure };
  return skip('expired', 'the session token in its cursor.com cookie has expired');
}

function isLive(cookie: CookieRow, now: Date): boolean {
  return cookie.expiresMs === undefined || cookie.expiresMs > now.getTime();
}

function newestFirst<T extends CookieRow>(cookies: T[]): T[] {
  const rank = (name: string) => SESSION_COOKIE_NAMES.indexOf(name);
  return [...cookies].sort((a, b) => b.createdMs - a.createdMs || rank(a.name) - rank(b.name));
}

/**
 * As for the Cursor app's token (docs/invariants.md, "Tokens used as found, with 60 s to spare"): a
 * `WorkosCursorSessionToken` whose JWT expires within 60 s is not sent. A value that does not parse is left
 * for cursor.com to judge.
 */
function tokenExpired(pair: string, now: Date): boolean {
  const parsed = sessionTokenFromCookie(pair);
  return parsed !== undefined && inspectAccessToken(parsed.token, now).kind === 'expired';
}

async function teamPairs(cookies: readonly CandidateCookie[], now: Date): Promise<string[]> {
  const pairs: string[] = [];
  for (const name of TEAM_COOKIE_NAMES) {
    for (const cookie of newestFirst(cookies.filter((c) => c.name === name && isLive(c, now)))) {
      const value = await cookie.read();
      if (value.ok) {
        pairs.push(`${name}=${value.value}`);
        break;
      }
    }
  }
  return pairs;
}

import { cleanValue, stripWrappingQuotes } from '../config/clean.js';
import { decodeAccessToken } from './jwt.js';
import type { JwtIdentity } from './types.js';

/** The one cookie cursor.com reads the session from. */
const SESSION_COOKIE_NAME = 'WorkosCursorSessionToken';

/**
 * `WorkosCursorSessionToken=<userId>%3A%3A<jwt>`. The user ID keeps its case and the JWT is sent as is, not
 * percent-encoded (docs/invariants.md, "Tokens used as found, with 60 s to spare").
 */
export function cookieForToken(identity: Pick<JwtIdentity, 'userId'>, token: string): string {
  return `${SESSION_COOKIE_NAME}=${identity.userId}%3A%3A${token}`;
}

// The pasted forms, tried in this order; the first pattern that matches anywhere wins. Flags must
// start a word so that `-b` inside a cookie value (e.g. `a=x-by=1`) is not mistaken for curl's flag.
// `--header` is accepted next to `-H` (curl's long form), and `$'…'` (bash quoting in "Copy as cURL").
const PASTED_FORMS: readonly RegExp[] = [
  /(?:^|\s)(?:-H|--header)\s*\$?'Cookie:\s*([^']*)'/i,
  /(?:^|\s)(?:-H|--header)\s*"Cookie:\s*([^"]*)"/i,
  /cookie:\s*'([^']*)'/i,
  /cookie:\s*"([^"]*)"/i,
  /cookie:\s*([^\r\n]*)/i,
  /(?:^|\s)(?:--cookie|-b)\s*\$?'([^']*)'/i,
  /(?:^|\s)(?:--cookie|-b)\s*"([^"]*)"/i,
  /(?:^|\s)-b([^\s'"=]+=[^\s'"]*)/i,
  /(?:^|\s)(?:--cookie|-b)\s+([^\s'"]+)/i,
];

/**
 * Turns whatever the user pasted (a header value, a `Cookie:` line, a whole curl command) into the header to
 * send verbatim; `undefined` when nothing is left.
 */
export function normalizeCookieHeader(raw: string | undefined): string | undefined {
  const trimmed = raw?.trim() ?? '';
  if (trimmed === '') return undefined;
  let value = trimmed;
  for (const pattern of PASTED_FORMS) {
    const captured = pattern.exec(trimmed)?.[1];
    if (captured !== undefined) {
      value = captured;
      break;
    }
  }
  value = value.trim().replace(/^cookie:/i, '');
  value = stripWrappingQuotes(value.trim()).trim();
  return value === '' ? undefined : value;
}

/** A config or flag value cleaned, then normalised as a Cookie header. */
export function cleanCookieHeader(value: string | undefined): string | undefined {
  return normalizeCookieHeader(cleanValue(value));
}

export interface CookiePair {
  name: string;
  value: string;
}

/** Split on `;`, then on the first `=`; whitespace around names and values is dropped. */
export function parseCookiePairs(header: string): CookiePair[] {
  const pairs: CookiePair[] = [];
  for (const part of header.split(';')) {
    const equals = part.indexOf('=');
    const name = (equals === -1 ? part : part.slice(0, equals)).trim();
    const value = equals === -1 ? '' : part.slice(equals + 1).trim();
    if (name !== '' || value !== '') pairs.push({ name, value });
  }
  return pairs;
}

export interface SessionCookieToken {
  /** The text before the first `::`, usually the user ID. */
  userPart: string;
  /** The last `::` part: a JWT-looking string (at least two `.`-parts). */
  token: string;
}

/**
 * The first `WorkosCursorSessionToken` pair, percent-decoded and split on `::`. It needs at least two parts
 * and a last part with at least two `.`-parts; later pairs are not consulted.
 */
export function sessionTokenFromCookie(header: string): SessionCookieToken | undefined {
  const pair = parseCookiePairs(header).find((candidate) => candidate.name === SESSION_COOKIE_NAME);
  if (pair === undefined) return undefined;
  const parts = percentDecode(pair.value).split('::');
  const token = parts.at(-1);
  if (parts.length < 2 || token === undefined || token.split('.').length < 2) return undefined;
  return { userPart: parts[0] ?? '', token };
}

/**
 * The JWT identity inside a session cookie, when it decodes (expiry not checked: cursor.com decides whether a
 * pasted or cached cookie still works). Used for `--verbose` identity and for the `/api/usage?user=` fallback.
 */
export function sessionTokenIdentityFromCookie(header: string): JwtIdentity | undefined {
  const parsed = sessionTokenFromCookie(header);
  if (parsed === undefined) return undefined;
  const decoded = decodeAccessToken(parsed.token);
  return decoded.kind === 'ok' ? decoded.identity : undefined;
}

function percentDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

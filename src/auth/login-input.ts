import { cookieHeaderProblem } from '../api/header-value.js';
import { ArgumentError } from '../errors.js';
import { cookieForToken, normalizeCookieHeader } from './cookie.js';
import { decodeAccessToken } from './jwt.js';

/**
 * What `codexbar login` accepts, turned into the Cookie header to verify and store:
 * - a Cookie header or `Cookie:` line, or a whole "Copy as cURL" command (`-H 'cookie: …'`, `-b …`), the
 *   pasted-header rules of normalizeCookieHeader, line continuations included;
 * - a bare `WorkosCursorSessionToken` value (`<user id>%3A%3A<jwt>`, or with a literal `::`);
 * - a bare Cursor access token (a JWT), which becomes the session cookie of cookieForToken.
 * Errors never quote the input: it is a credential.
 */
export function loginCookieHeader(pasted: string): string {
  const header = normalizeCookieHeader(pasted.replace(/\\\r?\n/g, ' '));
  if (header === undefined) {
    throw new ArgumentError(
      'Nothing to sign in with: the input was empty.',
      'Paste the Cookie header of a request to cursor.com, a "Copy as cURL" command, or the WorkosCursorSessionToken value.',
    );
  }
  const cookie = header.includes('=') ? header : bareValueCookie(header);
  // What a header may hold (visible ASCII and spaces) and how long it may be.
  if (cookieHeaderProblem(cookie) !== undefined) {
    throw new ArgumentError(
      'The pasted text is not a Cookie header: a header is at most 8 KiB of visible ASCII on one line.',
      'Copy the value of the cookie request header (or use "Copy as cURL") from a signed-in cursor.com tab.',
    );
  }
  return cookie;
}

function bareValueCookie(value: string): string {
  if (!value.includes('::') && !/%3A%3A/i.test(value)) {
    const decoded = decodeAccessToken(value);
    if (decoded.kind === 'ok') return cookieForToken(decoded.identity, value);
  }
  return `WorkosCursorSessionToken=${value.replace(/::/g, '%3A%3A')}`;
}

import type { CursorCredentialsConfig } from '../../config/credentials.js';
import { sessionTokenIdentityFromCookie } from '../cookie.js';
import type { Session, SourceResult } from '../types.js';

/**
 * docs/behaviour.md §6.5, §7.4: the manual header (from `--cookie`, `CODEXBAR_CURSOR_COOKIE`, a token account
 * or the config file) is sent verbatim and is final: a rejection never falls back to another source.
 */
export async function load(credentials: CursorCredentialsConfig): Promise<SourceResult> {
  if (credentials.cookieSource !== 'manual') {
    return { kind: 'skip', cause: 'not-applicable', reason: `cookie source is ${credentials.cookieSource}` };
  }
  const where = describeOrigin(credentials);
  const header = credentials.manualHeader;
  if (header === undefined) {
    return { kind: 'skip', cause: 'absent', reason: `manual cookie header is empty (${where})` };
  }
  const session: Session = {
    source: 'manual',
    description: `manual cookie header (${where})`,
    cookieHeader: header,
    final: true,
  };
  const jwt = sessionTokenIdentityFromCookie(header);
  if (jwt !== undefined) session.jwt = jwt;
  return { kind: 'session', session };
}

function describeOrigin(credentials: CursorCredentialsConfig): string {
  if (credentials.origin === 'token account') {
    return credentials.accountLabel
      ? `config file, token account "${credentials.accountLabel}"`
      : 'config file, token account';
  }
  return credentials.origin ?? 'config file';
}

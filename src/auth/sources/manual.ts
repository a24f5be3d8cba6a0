import type { CursorCredentialsConfig } from '../credentials.js';
import { type SourceResult, skipped } from '../types.js';
import { cookieSession } from './store-file.js';

/**
 * The manual header (from `--cookie`, `CODEXBAR_CURSOR_COOKIE`, a token account or the config file) is sent
 * verbatim and is final (docs/invariants.md, "Only a rejection switches credentials"): a rejection never
 * falls back to another source.
 */
export async function load(credentials: CursorCredentialsConfig): Promise<SourceResult> {
  if (credentials.cookieSource !== 'manual') {
    return skipped('not-applicable', `cookie source is ${credentials.cookieSource}`);
  }
  const where = describeOrigin(credentials);
  const header = credentials.manualHeader;
  if (header === undefined) {
    return skipped('absent', `manual cookie header is empty (${where})`);
  }
  return cookieSession('manual', `manual cookie header (${where})`, header, true);
}

function describeOrigin(credentials: CursorCredentialsConfig): string {
  if (credentials.origin === 'token account') {
    return credentials.accountLabel
      ? `config file, token account "${credentials.accountLabel}"`
      : 'config file, token account';
  }
  return credentials.origin ?? 'config file';
}

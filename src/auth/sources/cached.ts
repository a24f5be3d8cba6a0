import { z } from 'zod';
import type { LocalEnvironment } from '../../local/environment.js';
import { normalizeCookieHeader } from '../cookie.js';
import { authPaths } from '../paths.js';
import { type SourceResult, skipped } from '../types.js';
import { cookieSession, readStoreFile } from './store-file.js';

/** The label CodexBar gives a header it derived from the Cursor app's token. */
const APP_SESSION_LABEL = 'Cursor.app local auth';

/** The cached cookie header (legacy file form). Unknown keys are ignored. */
const cachedCookieFileSchema = z.object({
  cookieHeader: z.string(),
  storedAt: z.string(),
  sourceLabel: z.string(),
  authenticationFailurePolicy: z.string().nullish(),
});

/**
 * Reads `<data>/CodexBar/cursor-cookie.json` read-only (we never rewrite or clear it in this version). A
 * `stopFallback` entry is a selected account: its session is `final`, so a 401 ends the run
 * (docs/invariants.md, "Only a rejection switches credentials").
 */
export async function load(env: LocalEnvironment): Promise<SourceResult> {
  const read = await readStoreFile(authPaths(env).cachedCookie, env, cachedCookieFileSchema, {
    missing: (shown) => `no cached cookie at ${shown}`,
    what: 'a cached cookie entry',
  });
  if (!read.ok) return read.skip;
  const { value: entry, shown } = read;
  // An app-derived header is never reused as a browser cookie; the app token is read directly.
  if (entry.sourceLabel === APP_SESSION_LABEL) {
    return skipped(
      'not-applicable',
      `cached cookie in ${shown} came from the Cursor app token, which is read from the app instead`,
    );
  }
  const header = normalizeCookieHeader(entry.cookieHeader);
  if (header === undefined) return skipped('absent', `cached cookie in ${shown} is empty`);
  const pinned = entry.authenticationFailurePolicy === 'stopFallback';
  const from = entry.sourceLabel || 'an unnamed source';
  return cookieSession(
    'cached',
    `cached cookie header from ${from}${pinned ? ', selected account' : ''} (${shown})`,
    header,
    pinned,
  );
}

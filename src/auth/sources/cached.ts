import { z } from 'zod';
import { normalizeCookieHeader, sessionTokenIdentityFromCookie } from '../cookie.js';
import { authPaths, displayPath } from '../paths.js';
import type { AuthEnvironment, Session, SourceResult } from '../types.js';
import { parseJson, readTextFile } from './files.js';

/** docs/behaviour.md §7.6: the label CodexBar gives a header it derived from the Cursor app's token. */
export const APP_SESSION_LABEL = 'Cursor.app local auth';

/** docs/behaviour.md §7.6: the cached cookie header (legacy file form). Unknown keys are ignored. */
export const cachedCookieFileSchema = z.object({
  cookieHeader: z.string(),
  storedAt: z.string(),
  sourceLabel: z.string(),
  authenticationFailurePolicy: z.string().nullish(),
});

export type CachedCookieFile = z.infer<typeof cachedCookieFileSchema>;

/**
 * Reads `<data>/CodexBar/cursor-cookie.json` read-only (we never rewrite or clear it in this version). A
 * `stopFallback` entry is a selected account: its session is `final`, so a 401 ends the run
 * (docs/behaviour.md §7.4).
 */
export async function load(env: AuthEnvironment): Promise<SourceResult> {
  const filePath = authPaths(env).cachedCookie;
  const shown = displayPath(filePath, env);
  const read = await readTextFile(filePath);
  if (read.kind === 'missing')
    return { kind: 'skip', cause: 'absent', reason: `no cached cookie at ${shown}` };
  if (read.kind === 'unreadable') {
    return { kind: 'skip', cause: 'unreadable', reason: `cannot read ${shown} (${read.reason})` };
  }
  const json = parseJson(read.text);
  if (!json.ok) return { kind: 'skip', cause: 'malformed', reason: `${shown} is malformed (${json.reason})` };
  const parsed = cachedCookieFileSchema.safeParse(json.value);
  if (!parsed.success) {
    return { kind: 'skip', cause: 'malformed', reason: `${shown} is malformed (not a cached cookie entry)` };
  }
  const entry = parsed.data;
  // docs/behaviour.md §7.6: an app-derived header is never reused as a browser cookie; the app token is read
  // directly.
  if (entry.sourceLabel === APP_SESSION_LABEL) {
    return {
      kind: 'skip',
      cause: 'not-applicable',
      reason: `cached cookie in ${shown} came from the Cursor app token, which is read from the app instead`,
    };
  }
  const header = normalizeCookieHeader(entry.cookieHeader);
  if (header === undefined)
    return { kind: 'skip', cause: 'absent', reason: `cached cookie in ${shown} is empty` };

  const pinned = entry.authenticationFailurePolicy === 'stopFallback';
  const session: Session = {
    source: 'cached',
    description: `cached cookie header from ${entry.sourceLabel || 'an unnamed source'}${pinned ? ', selected account' : ''} (${shown})`,
    cookieHeader: header,
  };
  if (pinned) session.final = true;
  const jwt = sessionTokenIdentityFromCookie(header);
  if (jwt !== undefined) session.jwt = jwt;
  return { kind: 'session', session };
}

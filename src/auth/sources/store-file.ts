import type { z } from 'zod';
import { cookieHeaderProblem } from '../../api/header-value.js';
import type { LocalEnvironment } from '../../local/environment.js';
import { displayPath } from '../../local/paths.js';
import { readJsonFile } from '../../local/read-file.js';
import { sessionTokenIdentityFromCookie } from '../cookie.js';
import { type AuthSourceId, type Session, type SkipCause, type SourceResult, skipped } from '../types.js';

export type StoreRead<T> = { ok: true; value: T; shown: string } | { ok: false; skip: SourceResult };

/**
 * One local credential file, read for the ladder: its checked content, or the skip `--verbose` reports. A
 * missing, unreadable or malformed file only moves the ladder on.
 */
export async function readStoreFile<T>(
  filePath: string,
  env: LocalEnvironment,
  schema: z.ZodType<T>,
  labels: { missing: (shown: string) => string; what: string },
): Promise<StoreRead<T>> {
  const shown = displayPath(filePath, env);
  const read = await readJsonFile(filePath, schema, labels.what);
  const skip = (cause: SkipCause, reason: string): StoreRead<T> => ({
    ok: false,
    skip: skipped(cause, reason),
  });
  switch (read.kind) {
    case 'ok':
      return { ok: true, value: read.value, shown };
    case 'missing':
      return skip('absent', labels.missing(shown));
    case 'unreadable':
      return skip('unreadable', `cannot read ${shown} (${read.reason})`);
    case 'malformed':
      return skip('malformed', `${shown} is malformed (${read.reason})`);
  }
}

/**
 * A session sent as a cookie header (manual, cached, stored). When the session cookie carries a JWT, its
 * identity comes along for `--verbose` and the `/api/usage` user id. A header that cannot be sent
 * (docs/invariants.md, "Credentials only to their own server, over HTTPS") makes the source malformed, so the
 * ladder goes on.
 */
export function cookieSession(
  source: AuthSourceId,
  description: string,
  cookieHeader: string,
  final = false,
): SourceResult {
  const refused = cookieHeaderProblem(cookieHeader);
  if (refused) return skipped('malformed', `the ${description} cannot be sent: ${refused}`);
  const session: Session = { source, description, cookieHeader };
  if (final) session.final = true;
  const jwt = sessionTokenIdentityFromCookie(cookieHeader);
  if (jwt !== undefined) session.jwt = jwt;
  return { kind: 'session', session };
}

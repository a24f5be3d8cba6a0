import { z } from 'zod';
import { authPaths, displayPath } from '../paths.js';
import type { AuthEnvironment, SourceResult } from '../types.js';
import { parseJson, readTextFile } from './files.js';
import { sessionFromAccessToken } from './token-session.js';

const LABEL = 'cursor-agent token';
const EXPIRED_HINT = 'Run `cursor-agent login` to renew the expired cursor-agent login.';

/** docs/behaviour.md §7.9: `{accessToken, refreshToken}`; other keys are ignored. */
export const agentAuthFileSchema = z.object({
  accessToken: z.string().nullish(),
  refreshToken: z.string().nullish(),
});

/**
 * docs/behaviour.md §7.9: cursor-agent's `accessToken` from `<config>/cursor/auth.json`. The file is only
 * read (symlinks and mode 0600 are fine): never refreshed, rewritten or chmod-ed. Missing, unreadable or
 * malformed files and empty tokens are skipped so the next login is still tried.
 */
export async function load(env: AuthEnvironment): Promise<SourceResult> {
  const filePath = authPaths(env).agentAuth;
  const shown = displayPath(filePath, env);
  const read = await readTextFile(filePath);
  if (read.kind === 'missing')
    return { kind: 'skip', cause: 'absent', reason: `no cursor-agent login at ${shown}` };
  if (read.kind === 'unreadable') {
    return { kind: 'skip', cause: 'unreadable', reason: `cannot read ${shown} (${read.reason})` };
  }
  const json = parseJson(read.text);
  if (!json.ok) return { kind: 'skip', cause: 'malformed', reason: `${shown} is malformed (${json.reason})` };
  const parsed = agentAuthFileSchema.safeParse(json.value);
  if (!parsed.success) {
    return { kind: 'skip', cause: 'malformed', reason: `${shown} is malformed (not a cursor-agent login)` };
  }
  const token = parsed.data.accessToken;
  if (token == null) return { kind: 'skip', cause: 'absent', reason: `${shown} has no accessToken` };
  if (token.trim() === '')
    return { kind: 'skip', cause: 'absent', reason: `${shown} has an empty accessToken` };
  return sessionFromAccessToken(token, {
    source: 'agent',
    label: LABEL,
    location: shown,
    now: env.now(),
    expiredHint: EXPIRED_HINT,
  });
}

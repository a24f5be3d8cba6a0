import { z } from 'zod';
import type { LocalEnvironment } from '../../local/environment.js';
import { authPaths } from '../paths.js';
import { type SourceResult, skipped } from '../types.js';
import { readStoreFile } from './store-file.js';
import { sessionFromAccessToken } from './token-session.js';

const LABEL = 'cursor-agent token';
const EXPIRED_HINT = 'Run `cursor-agent login` to renew the expired cursor-agent login.';

/** `{accessToken, refreshToken}`; other keys are ignored. */
const agentAuthFileSchema = z.object({
  accessToken: z.string().nullish(),
  refreshToken: z.string().nullish(),
});

/**
 * cursor-agent's `accessToken` from `<config>/cursor/auth.json`. The file is only read (symlinks and mode
 * 0600 are fine): never refreshed, rewritten or chmod-ed. Missing, unreadable or malformed files and empty
 * tokens are skipped so the next login is still tried.
 */
export async function load(env: LocalEnvironment): Promise<SourceResult> {
  const read = await readStoreFile(authPaths(env).agentAuth, env, agentAuthFileSchema, {
    missing: (shown) => `no cursor-agent login at ${shown}`,
    what: 'a cursor-agent login',
  });
  if (!read.ok) return read.skip;
  const { shown } = read;
  const token = read.value.accessToken;
  if (token == null) return skipped('absent', `${shown} has no accessToken`);
  if (token.trim() === '') return skipped('absent', `${shown} has an empty accessToken`);
  return sessionFromAccessToken(token, {
    source: 'agent',
    label: LABEL,
    location: shown,
    now: env.now(),
    expiredHint: EXPIRED_HINT,
  });
}

import { z } from 'zod';
import type { LocalEnvironment } from '../../local/environment.js';
import type { Api2Access } from '../api2-access.js';
import { authPaths } from '../paths.js';
import { refreshAccessToken } from '../refresh.js';
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
  const read = await readAuthFile(env);
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

/**
 * The opt-in refresh (docs/api2.md, "Token refresh (opt-in)"): the file's `refreshToken` exchanged for a
 * new access token that lives in this run's memory only; `auth.json` is read again and never written.
 * Refusals throw "not logged in" (src/auth/refresh.ts).
 */
export async function refresh(env: LocalEnvironment, access: Api2Access): Promise<SourceResult> {
  const read = await readAuthFile(env);
  if (!read.ok) return read.skip;
  const { shown } = read;
  const stored = read.value.refreshToken;
  if (stored == null || stored.trim() === '') {
    return skipped('absent', `${shown} has no refreshToken to refresh the ${LABEL} with`);
  }
  const token = await refreshAccessToken(stored, access, { label: LABEL, owner: "cursor-agent's" });
  return sessionFromAccessToken(token, {
    source: 'agent',
    label: `${LABEL}, refreshed for this run`,
    location: shown,
    now: env.now(),
  });
}

function readAuthFile(env: LocalEnvironment) {
  return readStoreFile(authPaths(env).agentAuth, env, agentAuthFileSchema, {
    missing: (shown) => `no cursor-agent login at ${shown}`,
    what: 'a cursor-agent login',
  });
}

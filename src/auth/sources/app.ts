import type { LocalEnvironment } from '../../local/environment.js';
import { displayPath } from '../../local/paths.js';
import type { Api2Access } from '../api2-access.js';
import { readAppAccessToken, readAppRefreshToken } from '../app-db.js';
import { authPaths } from '../paths.js';
import { refreshAccessToken } from '../refresh.js';
import { type SourceResult, skipped } from '../types.js';
import { sessionFromAccessToken } from './token-session.js';

const LABEL = 'Cursor app token';

/**
 * The Cursor app's access token from `state.vscdb` (key `cursorAuth/accessToken`, read-only via app-db.ts),
 * used only while its JWT is valid (docs/invariants.md, "Tokens used as found, with 60 s to spare").
 */
export async function load(env: LocalEnvironment): Promise<SourceResult> {
  const dbPath = authPaths(env).appDb;
  const shown = displayPath(dbPath, env);
  const read = await readAppAccessToken(dbPath);
  switch (read.kind) {
    case 'absent':
      return skipped('absent', `no ${LABEL} in ${shown}`);
    case 'malformed':
      return skipped('malformed', `${LABEL} is malformed (${read.reason})`);
    case 'error':
      // A read failure is reported and the app source skipped.
      return skipped('unreadable', `cannot read ${shown} (${read.message})`);
    case 'token':
      return sessionFromAccessToken(read.token, {
        source: 'app',
        label: LABEL,
        location: shown,
        now: env.now(),
      });
  }
}

/**
 * The opt-in refresh (docs/api2.md, "Token refresh (opt-in)"): the app's `cursorAuth/refreshToken`, read
 * read-only like the access token, exchanged for a new access token that lives in this run's memory only.
 * Nothing is written to `state.vscdb`. Refusals throw "not logged in" (src/auth/refresh.ts).
 */
export async function refresh(env: LocalEnvironment, access: Api2Access): Promise<SourceResult> {
  const dbPath = authPaths(env).appDb;
  const shown = displayPath(dbPath, env);
  const read = await readAppRefreshToken(dbPath);
  switch (read.kind) {
    case 'absent':
      return skipped('absent', `no refresh token in ${shown} to refresh the ${LABEL} with`);
    case 'malformed':
      return skipped('malformed', `the refresh token in ${shown} is malformed`);
    case 'error':
      return skipped('unreadable', `cannot read the refresh token in ${shown} (${read.message})`);
    case 'token': {
      const token = await refreshAccessToken(read.token, access, {
        label: LABEL,
        owner: "the Cursor app's",
      });
      return sessionFromAccessToken(token, {
        source: 'app',
        label: `${LABEL}, refreshed for this run`,
        location: shown,
        now: env.now(),
      });
    }
  }
}

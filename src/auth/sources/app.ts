import type { LocalEnvironment } from '../../local/environment.js';
import { displayPath } from '../../local/paths.js';
import { readAppAccessToken } from '../app-db.js';
import { authPaths } from '../paths.js';
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

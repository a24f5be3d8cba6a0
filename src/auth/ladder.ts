import type { LocalEnvironment } from '../local/environment.js';
import type { Api2Access } from './api2-access.js';
import type { CursorCredentialsConfig } from './credentials.js';
import { type SourceLoader, type SourceMode, sourceOrder } from './resolver.js';
import * as agent from './sources/agent.js';
import * as apiKey from './sources/api-key.js';
import * as app from './sources/app.js';
import type { BrowserImportOptions } from './sources/browser/source.js';
import * as cached from './sources/cached.js';
import * as manual from './sources/manual.js';
import * as stored from './sources/stored.js';
import type { AuthSourceId } from './types.js';

/** What the rungs that ask api2 themselves need: without it (doctor's local look) they are left out. */
export interface LadderApi2 {
  access: Api2Access;
  /** The opt-in token refresh (`--refresh-token` or `"allowTokenRefresh": true`; docs/api2.md). */
  allowTokenRefresh: boolean;
  /** The run reads cursor.com only (`cost`): the API-key source, whose token opens api2 only, is skipped. */
  cursorComOnly?: string;
}

/**
 * The sources to try, in the platform's order. A manual header is used alone (final); otherwise the automatic
 * ladder runs, without the local Cursor tokens for `--source web`. The API-key source, last, and the token
 * refresh need `api2`.
 */
export function buildLadder(
  env: LocalEnvironment,
  mode: SourceMode,
  credentials: CursorCredentialsConfig,
  browser: BrowserImportOptions = { allowKeychainPrompt: false },
  api2?: LadderApi2,
): SourceLoader[] {
  const refreshing = api2?.allowTokenRefresh ? api2.access : undefined;
  const rungs: Record<Exclude<AuthSourceId, 'apikey'>, Omit<SourceLoader, 'id'>> = {
    manual: { name: 'manual cookie header', load: () => manual.load(credentials) },
    cached: { name: 'cached cookie', load: () => cached.load(env) },
    stored: { name: 'stored session', load: () => stored.load(env) },
    app: {
      name: 'Cursor app token',
      load: () => app.load(env),
      ...(refreshing && { refresh: () => app.refresh(env, refreshing) }),
    },
    agent: {
      name: 'cursor-agent token',
      load: () => agent.load(env),
      ...(refreshing && { refresh: () => agent.refresh(env, refreshing) }),
    },
    browser: {
      name: 'browser cookie',
      // Imported when reached: the browser readers and their crypto are most of what the ladder loads, and a
      // run that stops at an earlier source never needs them (bench/README.md, Start-up).
      load: async () => (await import('./sources/browser/source.js')).load(env, browser),
    },
  };
  const ids =
    credentials.cookieSource === 'manual' ? (['manual'] as const) : sourceOrder(env.platform, mode).slice(1);
  return ids.flatMap((id): SourceLoader[] => {
    if (id !== 'apikey') return [{ id, ...rungs[id] }];
    if (api2 === undefined) return [];
    const { access, cursorComOnly } = api2;
    return [
      {
        id,
        name: 'Cursor API key',
        remote: true,
        load: () =>
          cursorComOnly !== undefined
            ? Promise.resolve(apiKey.notForCursorCom(env, cursorComOnly))
            : apiKey.load(env, access),
      },
    ];
  });
}

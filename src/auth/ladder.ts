import type { LocalEnvironment } from '../local/environment.js';
import type { CursorCredentialsConfig } from './credentials.js';
import { type SourceLoader, type SourceMode, sourceOrder } from './resolver.js';
import * as agent from './sources/agent.js';
import * as app from './sources/app.js';
import type { BrowserImportOptions } from './sources/browser/source.js';
import * as cached from './sources/cached.js';
import * as manual from './sources/manual.js';
import * as stored from './sources/stored.js';
import type { AuthSourceId } from './types.js';

/**
 * The sources to try, in the platform's order. A manual header is used alone (final); otherwise the automatic
 * ladder runs, without the local Cursor tokens for `--source web`.
 */
export function buildLadder(
  env: LocalEnvironment,
  mode: SourceMode,
  credentials: CursorCredentialsConfig,
  browser: BrowserImportOptions = { allowKeychainPrompt: false },
): SourceLoader[] {
  const rungs: Record<Exclude<AuthSourceId, 'apikey'>, Omit<SourceLoader, 'id'>> = {
    manual: { name: 'manual cookie header', load: () => manual.load(credentials) },
    cached: { name: 'cached cookie', load: () => cached.load(env) },
    stored: { name: 'stored session', load: () => stored.load(env) },
    app: { name: 'Cursor app token', load: () => app.load(env) },
    agent: { name: 'cursor-agent token', load: () => agent.load(env) },
    browser: {
      name: 'browser cookie',
      // Imported when reached: the browser readers and their crypto are most of what the ladder loads, and a
      // run that stops at an earlier source never needs them (bench/README.md, Start-up).
      load: async () => (await import('./sources/browser/source.js')).load(env, browser),
    },
  };
  const ids =
    credentials.cookieSource === 'manual' ? (['manual'] as const) : sourceOrder(env.platform, mode).slice(1);
  return ids.flatMap((id) => (id === 'apikey' ? [] : [{ id, ...rungs[id] }]));
}

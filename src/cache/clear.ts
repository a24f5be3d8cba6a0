import { rm } from 'node:fs/promises';
import path from 'node:path';
import { authPaths } from '../auth/paths.js';
import { clearCostStores } from '../cost/store/store-files.js';
import type { LocalEnvironment } from '../local/environment.js';
import { modelsCacheDir } from './models-file.js';
import { usageCacheDir } from './snapshot-read.js';

/**
 * What `cache clear` can clear, one clearer per kind. A clearer resolves to whether there was anything to
 * clear. A new cache adds its clearer here.
 */

export const CACHE_KINDS = ['cookies', 'cost', 'usage', 'models'] as const;
export type CacheKind = (typeof CACHE_KINDS)[number];

const CLEARERS: Record<CacheKind, (env: LocalEnvironment) => Promise<boolean>> = {
  // docs/invariants.md, "Read-only on Cursor's and browsers' files": CodexBar's legacy cookie cache file is
  // deleted only on this explicit request.
  cookies: (env) => remove(authPaths(env).cachedCookie),
  // The cost event stores, every account's.
  cost: async (env) => (await clearCostStores(env)) > 0,
  usage: (env) => remove(usageCacheDir(env)),
  // The cached model catalogs (`codexbar models`), every account's.
  models: (env) => remove(modelsCacheDir(env)),
};

export function clearCache(kind: CacheKind, env: LocalEnvironment): Promise<boolean> {
  return CLEARERS[kind](env);
}

/** Removes a file or a directory tree; a symlink is removed itself, never followed. */
async function remove(target: string): Promise<boolean> {
  // A path that is not absolute here (a Windows path seen elsewhere) would resolve against the cwd.
  if (!path.isAbsolute(target)) return false;
  try {
    await rm(target, { recursive: true });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

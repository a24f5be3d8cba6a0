import type { LocalEnvironment } from '../local/environment.js';
import { absoluteEnvDir, homeDirectory, pathApi } from '../local/paths.js';

/**
 * docs/invariants.md, "Nothing written outside the cache dir": `<cache dir>/codexbar` is the one directory
 * codexbar writes to. It is `CODEXBAR_CACHE_DIR` when absolute; else `$XDG_CACHE_HOME` when absolute, else
 * `~/.cache`, on Linux; `~/Library/Caches` on macOS; `%LOCALAPPDATA%` on Windows (env-paths' conventions,
 * read from the injected environment).
 */
export function codexbarCacheDir(env: LocalEnvironment): string {
  const explicit = absoluteEnvDir(env, 'CODEXBAR_CACHE_DIR');
  if (explicit !== undefined) return explicit;
  const { join } = pathApi(env);
  const home = homeDirectory(env);
  switch (env.platform) {
    case 'darwin':
      return join(home, 'Library', 'Caches', 'codexbar');
    case 'win32':
      return join(absoluteEnvDir(env, 'LOCALAPPDATA') ?? join(home, 'AppData', 'Local'), 'codexbar');
    default:
      return join(absoluteEnvDir(env, 'XDG_CACHE_HOME') ?? join(home, '.cache'), 'codexbar');
  }
}

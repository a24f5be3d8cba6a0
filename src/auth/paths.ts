import path from 'node:path';
import type { AuthEnvironment } from './types.js';

/** Where the auth layer looks, for one platform and environment. Nothing here touches the disk. */
export interface AuthPaths {
  /** Cursor app's global state database (key `cursorAuth/accessToken`). */
  appDb: string;
  /** cursor-agent's login file (`accessToken`). */
  agentAuth: string;
  /** CodexBar's data directory, `<data>/CodexBar` (docs/behaviour.md §7.10). */
  dataDir: string;
  /** Our cache directory, `<cache>/codexbar` (docs/behaviour.md §7.10). */
  cacheDir: string;
  /** CodexBar's cached cookie header file (docs/behaviour.md §7.6). */
  cachedCookie: string;
  /** CodexBar's stored session cookies (docs/behaviour.md §7.7). */
  storedSession: string;
}

type PathApi = typeof path.posix;

export function pathApi(env: AuthEnvironment): PathApi {
  return env.platform === 'win32' ? path.win32 : path.posix;
}

/** The home used for `~`: `$HOME` when it is absolute, else the account home (docs/behaviour.md §7.10). */
export function homeDirectory(env: AuthEnvironment): string {
  if (env.platform === 'win32') return env.homeDir;
  const home = env.env.HOME;
  return home !== undefined && path.posix.isAbsolute(home) ? home : env.homeDir;
}

/** A leading `~` (alone or before a separator) becomes the home directory. */
export function expandTilde(value: string, env: AuthEnvironment): string {
  if (value === '~') return homeDirectory(env);
  if (value.startsWith('~/') || (env.platform === 'win32' && value.startsWith('~\\'))) {
    return pathApi(env).join(homeDirectory(env), value.slice(2));
  }
  return value;
}

/**
 * docs/behaviour.md §7.10: an env directory that is trimmed, `~`-expanded and used only when absolute;
 * a relative value is ignored.
 */
export function absoluteEnvDir(env: AuthEnvironment, name: string): string | undefined {
  const raw = env.env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  const expanded = expandTilde(raw, env);
  return pathApi(env).isAbsolute(expanded) ? expanded : undefined;
}

/** `$XDG_CONFIG_HOME` (absolute) else `~/.config`: holds `Cursor/` (the app) and `cursor/` (cursor-agent). */
export function configHome(env: AuthEnvironment): string {
  return absoluteEnvDir(env, 'XDG_CONFIG_HOME') ?? pathApi(env).join(homeDirectory(env), '.config');
}

export function authPaths(env: AuthEnvironment): AuthPaths {
  const dirs = platformDirs(env);
  const join = pathApi(env).join;
  const dataDir = join(dirs.data, 'CodexBar');
  return {
    appDb: join(dirs.cursorApp, 'User', 'globalStorage', 'state.vscdb'),
    agentAuth: dirs.agentAuth,
    dataDir,
    cacheDir: join(dirs.cache, 'codexbar'),
    cachedCookie: join(dataDir, 'cursor-cookie.json'),
    storedSession: join(dataDir, 'cursor-session.json'),
  };
}

interface PlatformDirs {
  /** Cursor app's user-data root (holds `User/globalStorage`). */
  cursorApp: string;
  agentAuth: string;
  /** Parent of our `CodexBar` data directory. */
  data: string;
  /** Parent of our `codexbar` cache directory. */
  cache: string;
}

function platformDirs(env: AuthEnvironment): PlatformDirs {
  const home = homeDirectory(env);
  if (env.platform === 'win32') {
    const { join } = path.win32;
    const appData = absoluteEnvDir(env, 'APPDATA') ?? join(home, 'AppData', 'Roaming');
    const localAppData = absoluteEnvDir(env, 'LOCALAPPDATA') ?? join(home, 'AppData', 'Local');
    // docs/behaviour.md §7.10: Windows keeps both the app database and cursor-agent's auth.json under
    // %APPDATA%\Cursor.
    return {
      cursorApp: join(appData, 'Cursor'),
      agentAuth: join(appData, 'Cursor', 'auth.json'),
      data: appData,
      cache: localAppData,
    };
  }
  const { join } = path.posix;
  // docs/behaviour.md §7.10: cursor-agent's file is `<config>/cursor/auth.json`. Some tools look at
  // `~/.cursor/auth.json` on macOS, but we follow the same rule there too: `$XDG_CONFIG_HOME` (absolute) else
  // `~/.config`.
  const agentAuth = join(configHome(env), 'cursor', 'auth.json');
  if (env.platform === 'darwin') {
    const appSupport = join(home, 'Library', 'Application Support');
    return {
      cursorApp: join(appSupport, 'Cursor'),
      agentAuth,
      data: appSupport,
      cache: join(home, 'Library', 'Caches'),
    };
  }
  return {
    cursorApp: join(configHome(env), 'Cursor'),
    agentAuth,
    // docs/behaviour.md §7.10: the XDG data and cache homes, when absolute.
    data: absoluteEnvDir(env, 'XDG_DATA_HOME') ?? join(home, '.local', 'share'),
    cache: absoluteEnvDir(env, 'XDG_CACHE_HOME') ?? join(home, '.cache'),
  };
}

/** For `--verbose`: the home prefix becomes `~`, so logs do not spell out the user's home directory. */
export function displayPath(filePath: string, env: AuthEnvironment): string {
  const api = pathApi(env);
  for (const home of new Set([homeDirectory(env), env.homeDir])) {
    const trimmedHome = home.length > 1 ? home.replace(/[\\/]+$/, '') : home;
    if (trimmedHome === '' || trimmedHome === api.sep) continue;
    if (filePath === trimmedHome) return '~';
    const prefix = trimmedHome + api.sep;
    const matches =
      env.platform === 'win32'
        ? filePath.toLowerCase().startsWith(prefix.toLowerCase())
        : filePath.startsWith(prefix);
    if (matches) return `~${api.sep}${filePath.slice(prefix.length)}`;
  }
  return filePath;
}

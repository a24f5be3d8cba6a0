import { posix, win32 } from 'node:path';
import type { LocalEnvironment } from '../local/environment.js';
import { absoluteEnvDir, configHome, homeDirectory, pathApi } from '../local/paths.js';

/** Where the auth layer looks, for one platform and environment. Nothing here touches the disk. */
export interface AuthPaths {
  /** Cursor app's global state database (key `cursorAuth/accessToken`). */
  appDb: string;
  /** cursor-agent's login file (`accessToken`). */
  agentAuth: string;
  /** CodexBar's data directory, `<data>/CodexBar`. */
  dataDir: string;
  /** CodexBar's cached cookie header file. */
  cachedCookie: string;
  /** CodexBar's stored session cookies. */
  storedSession: string;
  /** codexbar's own data directory, `<data>/codexbar`: only `proxy` writes there (its ledger and token hashes). */
  codexbarDataDir: string;
}

export function authPaths(env: LocalEnvironment): AuthPaths {
  const dirs = platformDirs(env);
  const join = pathApi(env).join;
  const dataDir = join(dirs.data, 'CodexBar');
  return {
    appDb: join(dirs.cursorApp, 'User', 'globalStorage', 'state.vscdb'),
    agentAuth: dirs.agentAuth,
    dataDir,
    cachedCookie: join(dataDir, 'cursor-cookie.json'),
    storedSession: join(dataDir, 'cursor-session.json'),
    codexbarDataDir: join(dirs.data, 'codexbar'),
  };
}

interface PlatformDirs {
  /** Cursor app's user-data root (holds `User/globalStorage`). */
  cursorApp: string;
  agentAuth: string;
  /** Parent of our `CodexBar` data directory. */
  data: string;
}

function platformDirs(env: LocalEnvironment): PlatformDirs {
  const home = homeDirectory(env);
  if (env.platform === 'win32') {
    const { join } = win32;
    const appData = absoluteEnvDir(env, 'APPDATA') ?? join(home, 'AppData', 'Roaming');
    // Windows keeps both the app database and cursor-agent's auth.json under %APPDATA%\Cursor.
    return {
      cursorApp: join(appData, 'Cursor'),
      agentAuth: join(appData, 'Cursor', 'auth.json'),
      data: appData,
    };
  }
  const { join } = posix;
  // cursor-agent's file is `<config>/cursor/auth.json`. Some tools look at `~/.cursor/auth.json` on macOS,
  // but we follow the same rule there too: `$XDG_CONFIG_HOME` (absolute) else `~/.config`.
  const agentAuth = join(configHome(env), 'cursor', 'auth.json');
  if (env.platform === 'darwin') {
    const appSupport = join(home, 'Library', 'Application Support');
    return {
      cursorApp: join(appSupport, 'Cursor'),
      agentAuth,
      data: appSupport,
    };
  }
  return {
    cursorApp: join(configHome(env), 'Cursor'),
    agentAuth,
    // The XDG data home, when absolute.
    data: absoluteEnvDir(env, 'XDG_DATA_HOME') ?? join(home, '.local', 'share'),
  };
}

import { posix, win32 } from 'node:path';
import type { LocalEnvironment } from './environment.js';

/** Path helpers that follow the injected platform and environment. Nothing here touches the disk. */

export function pathApi(env: LocalEnvironment): typeof posix {
  return env.platform === 'win32' ? win32 : posix;
}

/** The home used for `~`: `$HOME` when it is absolute, else the account home. */
export function homeDirectory(env: LocalEnvironment): string {
  if (env.platform === 'win32') return env.homeDir;
  const home = env.env.HOME;
  return home !== undefined && posix.isAbsolute(home) ? home : env.homeDir;
}

/** A leading `~` (alone or before a separator) becomes the home directory. */
export function expandTilde(value: string, env: LocalEnvironment): string {
  if (value === '~') return homeDirectory(env);
  if (value.startsWith('~/') || (env.platform === 'win32' && value.startsWith('~\\'))) {
    return pathApi(env).join(homeDirectory(env), value.slice(2));
  }
  return value;
}

/**
 * An env directory that is trimmed, `~`-expanded and used only when absolute; a relative value is ignored.
 */
export function absoluteEnvDir(env: LocalEnvironment, name: string): string | undefined {
  const raw = env.env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  const expanded = expandTilde(raw, env);
  return pathApi(env).isAbsolute(expanded) ? expanded : undefined;
}

/** `$XDG_CONFIG_HOME` (absolute) else `~/.config`: holds `Cursor/` (the app) and `cursor/` (cursor-agent). */
export function configHome(env: LocalEnvironment): string {
  return absoluteEnvDir(env, 'XDG_CONFIG_HOME') ?? pathApi(env).join(homeDirectory(env), '.config');
}

/** For `--verbose`: the home prefix becomes `~`, so logs do not spell out the user's home directory. */
export function displayPath(filePath: string, env: LocalEnvironment): string {
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

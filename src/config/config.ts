import { existsSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import type { LocalEnvironment } from '../local/environment.js';
import { absoluteEnvDir, expandTilde, homeDirectory, pathApi } from '../local/paths.js';
import { cleanValue } from './clean.js';
import { configFailure, readConfigDocument } from './document.js';
import type { BrowserId, ConfigFile, CookieSource, ProviderSource, TokenAccounts } from './schema.js';

/** The Cursor entry of the config file, values cleaned. */
export interface CursorConfig {
  enabled?: boolean;
  source?: ProviderSource;
  cookieSource?: CookieSource;
  /** Cleaned (not yet normalised as a Cookie header); absent when empty. Never print it. */
  cookieHeader?: string;
  /** As stored; tokens are cleaned when an account is selected (see credentials.ts). Never print tokens. */
  tokenAccounts?: TokenAccounts;
  browser?: BrowserId;
  allowKeychainPrompt?: boolean;
  /** Consent to the opt-in token refresh (docs/api2.md, "Token refresh (opt-in)"). */
  allowTokenRefresh?: boolean;
  /** The Admin API key for `team`, cleaned; absent when empty. Never print it. */
  apiKey?: string;
}

export interface LoadedConfig {
  path: string;
  exists: boolean;
  cursor: CursorConfig;
  /** The `proxy` object, values cleaned. Never print `upstreamKey`. */
  proxy?: { upstream?: string; upstreamKey?: string };
}

/**
 * Where the config file is: `CODEXBAR_CONFIG`, else `$XDG_CONFIG_HOME/codexbar/config.json` when that
 * variable is absolute (even if the file is missing), else `~/.config/codexbar/config.json` if it exists,
 * else the legacy `~/.codexbar/config.json` if it exists, else `~/.config/codexbar/config.json`. The same
 * rule on every platform.
 */
export async function findConfigPath(env: LocalEnvironment): Promise<string> {
  const explicit = env.env.CODEXBAR_CONFIG?.trim();
  if (explicit) return expandTilde(explicit, env);
  const { join } = pathApi(env);
  const xdg = absoluteEnvDir(env, 'XDG_CONFIG_HOME');
  if (xdg !== undefined) return join(xdg, 'codexbar', 'config.json');
  const home = homeDirectory(env);
  const standard = join(home, '.config', 'codexbar', 'config.json');
  if (existsSync(standard)) return standard;
  const legacy = join(home, '.codexbar', 'config.json');
  if (existsSync(legacy)) return legacy;
  return standard;
}

/** Reads the config file; a missing file gives the defaults. Errors name the file but never echo its contents. */
export async function loadConfig(env: LocalEnvironment): Promise<LoadedConfig> {
  const path = await findConfigPath(env);
  const document = await readConfigDocument(path);
  switch (document.kind) {
    case 'missing':
      return { path, exists: false, cursor: {}, proxy: {} };
    case 'unreadable':
    case 'invalid':
      throw new ConfigError(configFailure(document));
    case 'ok':
      return {
        path,
        exists: true,
        cursor: cursorConfigFrom(document.file),
        proxy: proxyConfigFrom(document.file),
      };
  }
}

function proxyConfigFrom(file: ConfigFile): NonNullable<LoadedConfig['proxy']> {
  const upstream = cleanValue(file.proxy?.upstream ?? undefined);
  const upstreamKey = cleanValue(file.proxy?.upstreamKey ?? undefined);
  return {
    ...(upstream !== undefined ? { upstream } : {}),
    ...(upstreamKey !== undefined ? { upstreamKey } : {}),
  };
}

function cursorConfigFrom(file: ConfigFile): CursorConfig {
  // Duplicate ids keep the first entry.
  const entry = file.providers.find((provider) => provider.id === 'cursor');
  if (entry === undefined) return {};
  const cursor: CursorConfig = {};
  if (entry.enabled != null) cursor.enabled = entry.enabled;
  if (entry.source != null) cursor.source = entry.source;
  if (entry.cookieSource != null) cursor.cookieSource = entry.cookieSource;
  const cookieHeader = cleanValue(entry.cookieHeader ?? undefined);
  if (cookieHeader !== undefined) cursor.cookieHeader = cookieHeader;
  if (entry.tokenAccounts != null) cursor.tokenAccounts = entry.tokenAccounts;
  if (entry.browser != null) cursor.browser = entry.browser;
  if (entry.allowKeychainPrompt != null) cursor.allowKeychainPrompt = entry.allowKeychainPrompt;
  if (entry.allowTokenRefresh != null) cursor.allowTokenRefresh = entry.allowTokenRefresh;
  const apiKey = cleanValue(entry.apiKey ?? undefined);
  if (apiKey !== undefined) cursor.apiKey = apiKey;
  return cursor;
}

import { access } from 'node:fs/promises';
import type { z } from 'zod';
import { normalizeCookieHeader, stripWrappingQuotes } from '../auth/cookie.js';
import { absoluteEnvDir, expandTilde, homeDirectory, pathApi } from '../auth/paths.js';
import { parseJson, readTextFile } from '../auth/sources/files.js';
import type { AuthEnvironment } from '../auth/types.js';
import { ConfigError } from '../errors.js';
import {
  type ConfigFile,
  type CookieSource,
  configFileSchema,
  type ProviderSource,
  type TokenAccounts,
} from './schema.js';

/** The Cursor entry of the config file, values cleaned (codexbar-cli.md §5.2). */
export interface CursorConfig {
  enabled?: boolean;
  source?: ProviderSource;
  cookieSource?: CookieSource;
  /** Cleaned and normalised; absent when empty. Never print it. */
  cookieHeader?: string;
  /** As stored; tokens are cleaned when an account is selected (see credentials.ts). Never print tokens. */
  tokenAccounts?: TokenAccounts;
  /** The Admin API key for `team` (docs/behaviour.md §Team), cleaned; absent when empty. Never print it. */
  apiKey?: string;
}

export interface LoadedConfig {
  path: string;
  exists: boolean;
  cursor: CursorConfig;
}

/**
 * codexbar-cli.md §5.1: `CODEXBAR_CONFIG`, else `$XDG_CONFIG_HOME/codexbar/config.json` when that variable is
 * absolute (even if the file is missing), else `~/.config/codexbar/config.json` if it exists, else the legacy
 * `~/.codexbar/config.json` if it exists, else `~/.config/codexbar/config.json`. The same rule on every platform.
 */
export async function findConfigPath(env: AuthEnvironment): Promise<string> {
  const explicit = env.env.CODEXBAR_CONFIG?.trim();
  if (explicit) return expandTilde(explicit, env);
  const { join } = pathApi(env);
  const xdg = absoluteEnvDir(env, 'XDG_CONFIG_HOME');
  if (xdg !== undefined) return join(xdg, 'codexbar', 'config.json');
  const home = homeDirectory(env);
  const standard = join(home, '.config', 'codexbar', 'config.json');
  if (await exists(standard)) return standard;
  const legacy = join(home, '.codexbar', 'config.json');
  if (await exists(legacy)) return legacy;
  return standard;
}

/** Reads the config file; a missing file gives the defaults. Errors name the file but never echo its contents. */
export async function loadConfig(env: AuthEnvironment): Promise<LoadedConfig> {
  const path = await findConfigPath(env);
  const read = await readTextFile(path);
  if (read.kind === 'missing') return { path, exists: false, cursor: {} };
  if (read.kind === 'unreadable')
    throw new ConfigError(`Failed to read CodexBar config at ${path}: ${read.reason}`);
  return { path, exists: true, cursor: cursorConfigFrom(decodeConfig(read.text, path)) };
}

function decodeConfig(text: string, path: string): ConfigFile {
  const json = parseJson(text);
  if (!json.ok) throw new ConfigError(`Failed to decode CodexBar config at ${path}: ${json.reason}`);
  const parsed = configFileSchema.safeParse(json.value);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 3).map((issue) => describeIssue(issue, json.value));
    throw new ConfigError(`Failed to decode CodexBar config at ${path}: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** Types and option lists only: zod's own messages are avoided so no value from the file is ever echoed. */
function describeIssue(issue: z.core.$ZodIssue, root: unknown): string {
  const where = issue.path.length === 0 ? 'top level' : issue.path.map(String).join('.');
  if (issue.code === 'invalid_type') {
    const received = valueAt(root, issue.path);
    return received === undefined
      ? `${where}: missing (expected ${issue.expected})`
      : `${where}: expected ${issue.expected}, got ${typeName(received)}`;
  }
  if (issue.code === 'invalid_value')
    return `${where}: expected one of ${issue.values.map(String).join('|')}`;
  return `${where}: invalid value`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function cursorConfigFrom(file: ConfigFile): CursorConfig {
  // codexbar-cli.md §5.2: duplicate ids keep the first entry.
  const entry = file.providers.find((provider) => provider.id === 'cursor');
  if (entry === undefined) return {};
  const cursor: CursorConfig = {};
  if (entry.enabled != null) cursor.enabled = entry.enabled;
  if (entry.source != null) cursor.source = entry.source;
  if (entry.cookieSource != null) cursor.cookieSource = entry.cookieSource;
  const cookieHeader = cleanCookieHeader(entry.cookieHeader ?? undefined);
  if (cookieHeader !== undefined) cursor.cookieHeader = cookieHeader;
  if (entry.tokenAccounts != null) cursor.tokenAccounts = entry.tokenAccounts;
  const apiKey = cleanValue(entry.apiKey ?? undefined);
  if (apiKey !== undefined) cursor.apiKey = apiKey;
  return cursor;
}

/** codexbar-cli.md §5.2 value cleaning: trim, strip one pair of matching quotes, trim; empty means absent. */
export function cleanValue(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const cleaned = stripWrappingQuotes(value.trim()).trim();
  return cleaned === '' ? undefined : cleaned;
}

/** A cleaned value that is also a cookie header is normalised (§5.2, codexbar-core.md §1.7). */
export function cleanCookieHeader(value: string | undefined): string | undefined {
  return normalizeCookieHeader(cleanValue(value));
}

async function exists(filePath: string): Promise<boolean> {
  try {
    await access(filePath);
    return true;
  } catch {
    return false;
  }
}

import { describe, expect, it } from 'vitest';
import { accountKey } from '../../src/cache/account-key.js';
import { codexbarCacheDir } from '../../src/cache/cache-dir.js';
import type { LocalEnvironment, Platform } from '../../src/local/environment.js';

const environment = (platform: Platform, env: Record<string, string>, homeDir: string): LocalEnvironment => ({
  platform,
  env,
  homeDir,
  now: () => new Date('2026-11-20T15:00:00Z'),
});

describe('the cache directory', () => {
  it.each<[string, Platform, Record<string, string>, string, string]>([
    ['Linux default: ~/.cache', 'linux', { HOME: '/home/me' }, '/home/other', '/home/me/.cache/codexbar'],
    [
      'Linux: an absolute XDG_CACHE_HOME',
      'linux',
      { HOME: '/home/me', XDG_CACHE_HOME: '/xdg/cache' },
      '/h',
      '/xdg/cache/codexbar',
    ],
    [
      'Linux: a relative XDG_CACHE_HOME is ignored',
      'linux',
      { HOME: '/home/me', XDG_CACHE_HOME: 'cache' },
      '/h',
      '/home/me/.cache/codexbar',
    ],
    [
      'macOS: ~/Library/Caches',
      'darwin',
      { HOME: '/Users/me', XDG_CACHE_HOME: '/xdg' },
      '/Users/me',
      '/Users/me/Library/Caches/codexbar',
    ],
    [
      'Windows: %LOCALAPPDATA%',
      'win32',
      { LOCALAPPDATA: 'D:\\Local' },
      'C:\\Users\\me',
      'D:\\Local\\codexbar',
    ],
    [
      'Windows without LOCALAPPDATA: the account home',
      'win32',
      {},
      'C:\\Users\\me',
      'C:\\Users\\me\\AppData\\Local\\codexbar',
    ],
    [
      'CODEXBAR_CACHE_DIR replaces <cache dir>/codexbar',
      'linux',
      { HOME: '/home/me', CODEXBAR_CACHE_DIR: '/var/cb' },
      '/h',
      '/var/cb',
    ],
    [
      'a relative CODEXBAR_CACHE_DIR is ignored',
      'linux',
      { HOME: '/home/me', CODEXBAR_CACHE_DIR: 'cb' },
      '/h',
      '/home/me/.cache/codexbar',
    ],
  ])('%s', (_rule, platform, env, homeDir, expected) => {
    expect(codexbarCacheDir(environment(platform, env, homeDir))).toBe(expected);
  });
});

describe('account keys', () => {
  it('depend on the user id and the label, never on anything else', () => {
    const base = accountKey({ userId: 'user_01ABC' });
    expect(base).toMatch(/^[0-9a-f]{32}$/);
    expect(accountKey({ userId: 'user_01ABC' })).toBe(base);
    expect(accountKey({ userId: 'user_01abc' })).not.toBe(base);
    expect(accountKey({ userId: 'user_01ABC', label: 'work' })).not.toBe(base);
    expect(accountKey({ userId: 'user_01ABC', label: ' Work ' })).toBe(
      accountKey({ userId: 'user_01ABC', label: 'work' }),
    );
    expect(base).not.toContain('user_01ABC');
  });
});

import { describe, expect, it } from 'vitest';
import { authPaths } from '../../src/auth/paths.js';
import type { LocalEnvironment, Platform } from '../../src/local/environment.js';
import { displayPath } from '../../src/local/paths.js';

function environment(
  platform: Platform,
  env: Record<string, string | undefined>,
  homeDir: string,
): LocalEnvironment {
  return { platform, env, homeDir, now: () => new Date('2026-07-20T15:00:00Z') };
}

const STATE = 'Cursor/User/globalStorage/state.vscdb';

describe('authPaths on Linux', () => {
  const cases: Array<{
    rule: string;
    env: Record<string, string>;
    homeDir?: string;
    appDb: string;
    agent: string;
  }> = [
    {
      rule: 'an absolute XDG_CONFIG_HOME holds both Cursor/ and cursor/',
      env: { HOME: '/home/me', XDG_CONFIG_HOME: '/xdg/config' },
      appDb: `/xdg/config/${STATE}`,
      agent: '/xdg/config/cursor/auth.json',
    },
    {
      rule: 'XDG_CONFIG_HOME is trimmed',
      env: { HOME: '/home/me', XDG_CONFIG_HOME: '  /xdg/config \n' },
      appDb: `/xdg/config/${STATE}`,
      agent: '/xdg/config/cursor/auth.json',
    },
    {
      rule: 'a leading ~ in XDG_CONFIG_HOME is expanded',
      env: { HOME: '/home/me', XDG_CONFIG_HOME: '~/cfg' },
      appDb: `/home/me/cfg/${STATE}`,
      agent: '/home/me/cfg/cursor/auth.json',
    },
    {
      rule: 'a relative XDG_CONFIG_HOME is ignored',
      env: { HOME: '/home/me', XDG_CONFIG_HOME: 'relative/cfg' },
      appDb: `/home/me/.config/${STATE}`,
      agent: '/home/me/.config/cursor/auth.json',
    },
    {
      rule: 'a blank XDG_CONFIG_HOME is ignored',
      env: { HOME: '/home/me', XDG_CONFIG_HOME: '  ' },
      appDb: `/home/me/.config/${STATE}`,
      agent: '/home/me/.config/cursor/auth.json',
    },
    {
      rule: 'a relative HOME is ignored in favour of the account home',
      env: { HOME: 'home/me' },
      homeDir: '/home/account',
      appDb: `/home/account/.config/${STATE}`,
      agent: '/home/account/.config/cursor/auth.json',
    },
    {
      rule: 'an unset HOME falls back to the account home',
      env: {},
      homeDir: '/home/account',
      appDb: `/home/account/.config/${STATE}`,
      agent: '/home/account/.config/cursor/auth.json',
    },
  ];
  it.each(cases)('$rule', ({ env, homeDir, appDb, agent }) => {
    const paths = authPaths(environment('linux', env, homeDir ?? '/home/other'));
    expect(paths.appDb).toBe(appDb);
    expect(paths.agentAuth).toBe(agent);
  });

  it.each([
    {
      rule: 'an absolute XDG_DATA_HOME is used',
      env: { HOME: '/home/me', XDG_DATA_HOME: '/xdg/data' },
      data: '/xdg/data/CodexBar',
    },
    {
      rule: 'a relative XDG_DATA_HOME is ignored',
      env: { HOME: '/home/me', XDG_DATA_HOME: 'data' },
      data: '/home/me/.local/share/CodexBar',
    },
    {
      rule: 'the default is ~/.local/share',
      env: { HOME: '/home/me' },
      data: '/home/me/.local/share/CodexBar',
    },
  ])('$rule', ({ env, data }) => {
    const paths = authPaths(environment('linux', env, '/home/other'));
    expect(paths.dataDir).toBe(data);
    expect(paths.cachedCookie).toBe(`${data}/cursor-cookie.json`);
    expect(paths.storedSession).toBe(`${data}/cursor-session.json`);
    // proxy's ledger and token hashes: codexbar's own directory beside CodexBar's (docs/proxy.md).
    expect(paths.codexbarDataDir).toBe(data.replace(/CodexBar$/, 'codexbar'));
  });
});

describe('authPaths on macOS', () => {
  it('uses ~/Library/Application Support for the app and our data, ~/.config/cursor for cursor-agent', () => {
    const paths = authPaths(environment('darwin', { HOME: '/Users/me' }, '/Users/me'));
    expect(paths).toEqual({
      appDb: `/Users/me/Library/Application Support/${STATE}`,
      agentAuth: '/Users/me/.config/cursor/auth.json',
      dataDir: '/Users/me/Library/Application Support/CodexBar',
      cachedCookie: '/Users/me/Library/Application Support/CodexBar/cursor-cookie.json',
      storedSession: '/Users/me/Library/Application Support/CodexBar/cursor-session.json',
      codexbarDataDir: '/Users/me/Library/Application Support/codexbar',
    });
  });

  it('an absolute XDG_CONFIG_HOME moves only the cursor-agent file', () => {
    const paths = authPaths(
      environment('darwin', { HOME: '/Users/me', XDG_CONFIG_HOME: '/cfg' }, '/Users/me'),
    );
    expect(paths.agentAuth).toBe('/cfg/cursor/auth.json');
    expect(paths.appDb).toBe(`/Users/me/Library/Application Support/${STATE}`);
  });
});

describe('authPaths on Windows', () => {
  it('uses %APPDATA%\\Cursor for the app and cursor-agent', () => {
    const env = { APPDATA: 'D:\\Roaming', LOCALAPPDATA: 'D:\\Local', XDG_CONFIG_HOME: '/ignored' };
    expect(authPaths(environment('win32', env, 'C:\\Users\\me'))).toEqual({
      appDb: 'D:\\Roaming\\Cursor\\User\\globalStorage\\state.vscdb',
      agentAuth: 'D:\\Roaming\\Cursor\\auth.json',
      dataDir: 'D:\\Roaming\\CodexBar',
      cachedCookie: 'D:\\Roaming\\CodexBar\\cursor-cookie.json',
      storedSession: 'D:\\Roaming\\CodexBar\\cursor-session.json',
      codexbarDataDir: 'D:\\Roaming\\codexbar',
    });
  });

  it('falls back to the account home when APPDATA is unset', () => {
    const paths = authPaths(environment('win32', {}, 'C:\\Users\\me'));
    expect(paths.appDb).toBe('C:\\Users\\me\\AppData\\Roaming\\Cursor\\User\\globalStorage\\state.vscdb');
    expect(paths.agentAuth).toBe('C:\\Users\\me\\AppData\\Roaming\\Cursor\\auth.json');
  });
});

describe('displayPath (--verbose names files without the home prefix)', () => {
  const linux = environment('linux', { HOME: '/home/me' }, '/home/me');
  it.each([
    { path: `/home/me/.config/${STATE}`, shown: `~/.config/${STATE}` },
    { path: '/home/me', shown: '~' },
    { path: '/home/me2/.config/x', shown: '/home/me2/.config/x' },
    { path: '/etc/x', shown: '/etc/x' },
  ])('$path → $shown', ({ path, shown }) => {
    expect(displayPath(path, linux)).toBe(shown);
  });

  it('uses the Windows separator on Windows', () => {
    const windows = environment('win32', {}, 'C:\\Users\\me');
    expect(displayPath('C:\\Users\\me\\AppData\\Roaming\\Cursor\\auth.json', windows)).toBe(
      '~\\AppData\\Roaming\\Cursor\\auth.json',
    );
  });
});

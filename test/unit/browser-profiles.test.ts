import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { chromiumRoot, firefoxRoot, writeFirefoxProfiles } from '../../fixtures/builders/browser-tree.js';
import { browsersToSearch, installLocations } from '../../src/auth/sources/browser/catalog.js';
import { listProfiles, MAX_PROFILES, parseProfilesIni } from '../../src/auth/sources/browser/profiles.js';
import type { LocalEnvironment, Platform } from '../../src/local/environment.js';
import { useScene } from '../helpers/scene.js';

const environment = (
  platform: Platform,
  home: string,
  env: Record<string, string> = {},
): LocalEnvironment => ({
  platform,
  env: { HOME: home, ...env },
  homeDir: home,
  now: () => new Date('2026-11-20T12:00:00Z'),
});
const show = (p: string) => p;

describe('which browsers are searched, in which order', () => {
  it.each<[Platform, string[]]>([
    ['linux', ['firefox', 'chrome', 'chromium', 'brave', 'edge', 'vivaldi']],
    ['win32', ['firefox', 'chrome', 'chromium', 'brave', 'edge', 'vivaldi']],
    ['darwin', ['firefox', 'chrome', 'chromium', 'brave', 'edge', 'vivaldi', 'arc']],
  ])('%s: Firefox first, then the Chromium family', (platform, expected) => {
    expect(browsersToSearch(environment(platform, '/home/me'))).toEqual(expected);
  });

  it('--browser keeps only that one', () => {
    expect(browsersToSearch(environment('linux', '/home/me'), 'brave')).toEqual(['brave']);
  });

  it.each<[Platform, 'firefox' | 'chrome' | 'chromium' | 'brave' | 'edge' | 'vivaldi' | 'arc']>([
    ['linux', 'firefox'],
    ['darwin', 'firefox'],
    ['win32', 'firefox'],
    ['linux', 'chrome'],
    ['darwin', 'chrome'],
    ['win32', 'chrome'],
    ['linux', 'brave'],
    ['darwin', 'edge'],
    ['win32', 'edge'],
    ['linux', 'vivaldi'],
    ['darwin', 'arc'],
  ])('%s %s: the first location is where the browser keeps its data', (platform, browser) => {
    const home = '/home/me';
    const expected =
      browser === 'firefox' ? firefoxRoot(home, platform) : chromiumRoot(home, platform, browser);
    expect(installLocations(environment(platform, home), browser)[0]?.root).toBe(expected);
  });

  it('Linux honours an absolute XDG_CONFIG_HOME and also looks at snap and Flatpak installs', () => {
    const env = environment('linux', '/home/me', { XDG_CONFIG_HOME: '/cfg' });
    expect(installLocations(env, 'chromium').map((install) => [install.label, install.root])).toEqual([
      ['Chromium', '/cfg/chromium'],
      ['Chromium (snap)', '/home/me/snap/chromium/common/chromium'],
      ['Chromium (Flatpak)', '/home/me/.var/app/org.chromium.Chromium/config/chromium'],
    ]);
    expect(installLocations(env, 'firefox').map((install) => install.root)).toContain('/cfg/mozilla/firefox');
  });

  it('Windows follows %LOCALAPPDATA% and %APPDATA%', () => {
    const env = environment('win32', '/home/me', { LOCALAPPDATA: '/local', APPDATA: '/roaming' });
    expect(installLocations(env, 'edge')[0]?.root).toBe(
      path.join('/local', 'Microsoft', 'Edge', 'User Data'),
    );
    expect(installLocations(env, 'firefox')[0]?.root).toBe(path.join('/roaming', 'Mozilla', 'Firefox'));
  });

  it('each Chromium browser names its own Keychain and keyring entries', () => {
    const [edge] = installLocations(environment('darwin', '/home/me'), 'edge');
    expect(edge?.kind === 'chromium' && edge.keys).toEqual({
      keychainService: 'Microsoft Edge Safe Storage',
      secretApplications: ['chromium', 'microsoft-edge'],
      kwalletFolder: 'Microsoft Edge Keys',
      kwalletEntry: 'Microsoft Edge Safe Storage',
    });
  });

  it('Arc exists only on macOS', () => {
    expect(installLocations(environment('linux', '/home/me'), 'arc')).toEqual([]);
    expect(installLocations(environment('win32', '/home/me'), 'arc')).toEqual([]);
  });
});

describe('profiles.ini: the default profile first', () => {
  it('the [Install…] default, then Default=1, then file order', () => {
    const ini = [
      '[Profile2]',
      'Name=work',
      'IsRelative=1',
      'Path=Profiles/w.work',
      '',
      '[Profile1]',
      'Name=old-default',
      'IsRelative=1',
      'Path=Profiles/o.default',
      'Default=1',
      '',
      '[Profile0]',
      'Name=default-release',
      'IsRelative=1',
      'Path=Profiles/r.default-release',
      '',
      '[Install4F96D1932A9F858E]',
      'Default=Profiles/r.default-release',
      'Locked=1',
      '',
      '[General]',
      'StartWithLastProfile=1',
    ].join('\r\n');
    expect(parseProfilesIni(ini).map((profile) => profile.name)).toEqual([
      'default-release',
      'old-default',
      'work',
    ]);
  });

  it('keeps absolute paths as they are and ignores sections without a path', () => {
    const ini = '[Profile0]\nName=elsewhere\nIsRelative=0\nPath=/mnt/profiles/x\n\n[Profile1]\nName=broken\n';
    expect(parseProfilesIni(ini)).toEqual([{ name: 'elsewhere', path: '/mnt/profiles/x', relative: false }]);
  });
});

describe('listProfiles reads the real trees', () => {
  const scene = useScene();
  let home: string;
  beforeEach(() => {
    home = scene.home;
  });

  it('Firefox on macOS: profiles under Profiles/, default first', async () => {
    const env = environment('darwin', home);
    const dbs = writeFirefoxProfiles(
      firefoxRoot(home, 'darwin'),
      'darwin',
      [
        { name: 'dev', folder: 'd.dev' },
        { name: 'default-release', folder: 'r.default-release' },
      ],
      'default-release',
    );
    const [install] = installLocations(env, 'firefox');
    expect(await listProfiles(install!, show)).toEqual({
      ok: true,
      value: {
        profiles: [
          { name: 'default-release', dbPath: dbs['default-release'] },
          { name: 'dev', dbPath: dbs.dev },
        ],
        unread: 0,
      },
    });
  });

  it('Chromium: Default, then Profile N by number, Network/Cookies before the legacy Cookies', async () => {
    const env = environment('linux', home);
    const root = chromiumRoot(home, 'linux', 'chrome');
    for (const dir of ['Profile 10', 'Profile 2', 'Default', 'Guest Profile', 'System Profile', 'Crashpad']) {
      fs.mkdirSync(path.join(root, dir), { recursive: true });
    }
    fs.mkdirSync(path.join(root, 'Default', 'Network'));
    fs.writeFileSync(path.join(root, 'Default', 'Network', 'Cookies'), '');
    fs.writeFileSync(path.join(root, 'Default', 'Cookies'), '');
    fs.writeFileSync(path.join(root, 'Profile 2', 'Cookies'), '');
    const [install] = installLocations(env, 'chrome');
    expect(await listProfiles(install!, show)).toEqual({
      ok: true,
      value: {
        profiles: [
          { name: 'Default', dbPath: path.join(root, 'Default', 'Network', 'Cookies') },
          { name: 'Profile 2', dbPath: path.join(root, 'Profile 2', 'Cookies') },
          { name: 'Profile 10', dbPath: path.join(root, 'Profile 10', 'Cookies') },
        ],
        unread: 0,
      },
    });
  });

  it.each([
    [MAX_PROFILES, 0],
    [MAX_PROFILES + 1, 1],
  ])(
    'Chromium with %i profiles: at most MAX_PROFILES are listed, in number order; %i left unread',
    async (count, unread) => {
      const env = environment('linux', home);
      const root = chromiumRoot(home, 'linux', 'chrome');
      for (let n = 1; n <= count; n++) fs.mkdirSync(path.join(root, `Profile ${n}`), { recursive: true });
      const [install] = installLocations(env, 'chrome');
      const listed = await listProfiles(install!, show);
      if (!listed.ok) throw new Error(listed.skip.reason);
      expect(listed.value.unread).toBe(unread);
      expect(listed.value.profiles.map((profile) => profile.name)).toEqual(
        Array.from({ length: MAX_PROFILES }, (_, index) => `Profile ${index + 1}`),
      );
    },
  );

  it('a missing browser is "not installed"; an empty one has no profiles', async () => {
    const env = environment('linux', home);
    const [chrome] = installLocations(env, 'chrome');
    expect(await listProfiles(chrome!, show)).toMatchObject({ ok: false, skip: { kind: 'not-installed' } });
    fs.mkdirSync(chromiumRoot(home, 'linux', 'chrome'), { recursive: true });
    expect(await listProfiles(chrome!, show)).toMatchObject({ ok: false, skip: { kind: 'no-profile' } });
    const [firefox] = installLocations(env, 'firefox');
    fs.mkdirSync(firefoxRoot(home, 'linux'), { recursive: true });
    expect(await listProfiles(firefox!, show)).toMatchObject({
      ok: false,
      skip: { kind: 'no-profile', reason: expect.stringContaining('no profiles.ini') },
    });
  });
});

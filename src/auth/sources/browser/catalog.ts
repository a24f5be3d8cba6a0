import path from 'node:path';
import { BROWSER_IDS, type BrowserId } from '../../../config/schema.js';
import type { LocalEnvironment, Platform } from '../../../local/environment.js';
import { absoluteEnvDir, configHome, homeDirectory } from '../../../local/paths.js';

/** Every browser `--browser` and config `browser` accept, in the order they are searched. */

export const BROWSER_NAMES: Record<BrowserId, string> = {
  firefox: 'Firefox',
  chrome: 'Chrome',
  chromium: 'Chromium',
  brave: 'Brave',
  edge: 'Edge',
  vivaldi: 'Vivaldi',
  arc: 'Arc',
};

/** Where a Chromium-family browser keeps the password its cookie key is derived from. */
export interface ChromiumKeyNames {
  /** macOS Keychain generic password service: `Chrome Safe Storage`. */
  keychainService: string;
  /** Linux Secret Service: the `application` attribute values to look up, in order. */
  secretApplications: readonly string[];
  /** Linux KWallet: folder `Chrome Keys`, entry `Chrome Safe Storage`. */
  kwalletFolder: string;
  kwalletEntry: string;
}

interface InstallBase {
  browser: BrowserId;
  /** For messages: `Chrome`, `Chromium (snap)`. */
  label: string;
}

export interface FirefoxInstall extends InstallBase {
  kind: 'firefox';
  /** The directory that holds `profiles.ini`. */
  root: string;
}

export interface ChromiumInstall extends InstallBase {
  kind: 'chromium';
  /** The user-data directory: `Local State` and one folder per profile. */
  root: string;
  keys: ChromiumKeyNames;
}

export type BrowserInstall = FirefoxInstall | ChromiumInstall;

/**
 * Paths are joined with the running system's separator (node's `path`): the injected platform chooses the
 * layout (which folders a browser uses), the machine we run on decides how a path is spelled.
 */
const { join } = path;

interface PlatformRoots {
  home: string;
  /** Linux: `$XDG_CONFIG_HOME` (absolute) else `~/.config`. */
  config: string;
  /** macOS: `~/Library/Application Support`. */
  appSupport: string;
  /** Windows: `%APPDATA%` and `%LOCALAPPDATA%`. */
  appData: string;
  localAppData: string;
}

function roots(env: LocalEnvironment): PlatformRoots {
  const home = homeDirectory(env);
  return {
    home,
    config: configHome(env),
    appSupport: join(home, 'Library', 'Application Support'),
    appData: absoluteEnvDir(env, 'APPDATA') ?? join(home, 'AppData', 'Roaming'),
    localAppData: absoluteEnvDir(env, 'LOCALAPPDATA') ?? join(home, 'AppData', 'Local'),
  };
}

/** One place a browser may be installed: a label suffix (`snap`, `Flatpak`) and its directory. */
type Location = [suffix: string, dir: string];

function firefoxLocations(platform: Platform, r: PlatformRoots): Location[] {
  if (platform === 'darwin') return [['', join(r.appSupport, 'Firefox')]];
  if (platform === 'win32') return [['', join(r.appData, 'Mozilla', 'Firefox')]];
  return [
    ['', join(r.home, '.mozilla', 'firefox')],
    // Newer Firefox releases on Linux follow XDG and keep their profiles under the config home.
    ['', join(r.config, 'mozilla', 'firefox')],
    ['snap', join(r.home, 'snap', 'firefox', 'common', '.mozilla', 'firefox')],
    ['Flatpak', join(r.home, '.var', 'app', 'org.mozilla.firefox', '.mozilla', 'firefox')],
  ];
}

interface ChromiumSpec {
  /** Product name used for the key: `Chrome` gives `Chrome Safe Storage`, `Chrome Keys`. */
  product: string;
  secretApplications: readonly string[];
  linux: (r: PlatformRoots) => Location[];
  darwin?: (r: PlatformRoots) => Location[];
  win32?: (r: PlatformRoots) => Location[];
}

const flatpakConfig = (r: PlatformRoots, appId: string, ...dir: string[]): Location => [
  'Flatpak',
  join(r.home, '.var', 'app', appId, 'config', ...dir),
];

// Chromium stores the Linux key under the `application` attribute its build was branded with: Chrome uses
// `chrome`, Chromium and most rebuilds `chromium`, Brave `brave`. A wrong guess only costs a lookup: a key
// that does not decrypt the value is never used.
const CHROMIUM_FAMILY: Record<Exclude<BrowserId, 'firefox'>, ChromiumSpec> = {
  chrome: {
    product: 'Chrome',
    secretApplications: ['chrome'],
    linux: (r) => [
      ['', join(r.config, 'google-chrome')],
      flatpakConfig(r, 'com.google.Chrome', 'google-chrome'),
    ],
    darwin: (r) => [['', join(r.appSupport, 'Google', 'Chrome')]],
    win32: (r) => [['', join(r.localAppData, 'Google', 'Chrome', 'User Data')]],
  },
  chromium: {
    product: 'Chromium',
    secretApplications: ['chromium'],
    linux: (r) => [
      ['', join(r.config, 'chromium')],
      ['snap', join(r.home, 'snap', 'chromium', 'common', 'chromium')],
      flatpakConfig(r, 'org.chromium.Chromium', 'chromium'),
    ],
    darwin: (r) => [['', join(r.appSupport, 'Chromium')]],
    win32: (r) => [['', join(r.localAppData, 'Chromium', 'User Data')]],
  },
  brave: {
    product: 'Brave',
    secretApplications: ['brave', 'chromium'],
    linux: (r) => [
      ['', join(r.config, 'BraveSoftware', 'Brave-Browser')],
      flatpakConfig(r, 'com.brave.Browser', 'BraveSoftware', 'Brave-Browser'),
    ],
    darwin: (r) => [['', join(r.appSupport, 'BraveSoftware', 'Brave-Browser')]],
    win32: (r) => [['', join(r.localAppData, 'BraveSoftware', 'Brave-Browser', 'User Data')]],
  },
  edge: {
    product: 'Microsoft Edge',
    secretApplications: ['chromium', 'microsoft-edge'],
    linux: (r) => [['', join(r.config, 'microsoft-edge')]],
    darwin: (r) => [['', join(r.appSupport, 'Microsoft Edge')]],
    win32: (r) => [['', join(r.localAppData, 'Microsoft', 'Edge', 'User Data')]],
  },
  vivaldi: {
    product: 'Vivaldi',
    secretApplications: ['chrome', 'vivaldi'],
    linux: (r) => [['', join(r.config, 'vivaldi')]],
    darwin: (r) => [['', join(r.appSupport, 'Vivaldi')]],
    win32: (r) => [['', join(r.localAppData, 'Vivaldi', 'User Data')]],
  },
  arc: {
    product: 'Arc',
    secretApplications: [],
    linux: () => [],
    darwin: (r) => [['', join(r.appSupport, 'Arc', 'User Data')]],
  },
};

function label(browser: BrowserId, suffix: string): string {
  return suffix === '' ? BROWSER_NAMES[browser] : `${BROWSER_NAMES[browser]} (${suffix})`;
}

/**
 * The browsers searched on this platform, in order. `only` is searched even where it does not exist, so the
 * user hears why (e.g. Arc on Linux). Nothing here touches the disk.
 */
export function browsersToSearch(env: LocalEnvironment, only?: BrowserId): BrowserId[] {
  if (only !== undefined) return [only];
  return BROWSER_IDS.filter((id) => id !== 'arc' || env.platform === 'darwin');
}

/** Every place one browser may keep its data on this platform, in the order they are searched. */
export function installLocations(env: LocalEnvironment, browser: BrowserId): BrowserInstall[] {
  const r = roots(env);
  if (browser === 'firefox') {
    return firefoxLocations(env.platform, r).map(([suffix, root]) => ({
      kind: 'firefox',
      browser,
      label: label(browser, suffix),
      root,
    }));
  }
  const spec = CHROMIUM_FAMILY[browser];
  const locations = spec[env.platform]?.(r) ?? [];
  const keys: ChromiumKeyNames = {
    keychainService: `${spec.product} Safe Storage`,
    secretApplications: spec.secretApplications,
    kwalletFolder: `${spec.product} Keys`,
    kwalletEntry: `${spec.product} Safe Storage`,
  };
  return locations.map(([suffix, root]) => ({
    kind: 'chromium',
    browser,
    label: label(browser, suffix),
    root,
    keys,
  }));
}

/**
 * Where the browser's program lives, so that a browser with no data directory yet (installed, never opened)
 * is told apart from one that is not installed: commands looked up on PATH (Linux), app bundles (macOS),
 * executables under Program Files (Windows). A name missed here only costs the wording: "not installed"
 * instead of "no profile yet".
 */
const PROGRAMS: Record<BrowserId, { linux: string[]; darwin: string[]; win32: string[] }> = {
  firefox: {
    linux: ['firefox', 'firefox-esr'],
    darwin: ['Firefox.app'],
    win32: ['Mozilla Firefox\\firefox.exe'],
  },
  chrome: {
    linux: ['google-chrome', 'google-chrome-stable'],
    darwin: ['Google Chrome.app'],
    win32: ['Google\\Chrome\\Application\\chrome.exe'],
  },
  chromium: { linux: ['chromium', 'chromium-browser'], darwin: ['Chromium.app'], win32: [] },
  brave: {
    linux: ['brave-browser', 'brave'],
    darwin: ['Brave Browser.app'],
    win32: ['BraveSoftware\\Brave-Browser\\Application\\brave.exe'],
  },
  edge: {
    linux: ['microsoft-edge', 'microsoft-edge-stable'],
    darwin: ['Microsoft Edge.app'],
    win32: ['Microsoft\\Edge\\Application\\msedge.exe'],
  },
  vivaldi: {
    linux: ['vivaldi', 'vivaldi-stable'],
    darwin: ['Vivaldi.app'],
    win32: ['Vivaldi\\Application\\vivaldi.exe'],
  },
  arc: { linux: [], darwin: ['Arc.app'], win32: [] },
};

/** The paths where this browser's program would be, if it is installed; nothing here touches the disk. */
export function programLocations(env: LocalEnvironment, browser: BrowserId): string[] {
  const names = PROGRAMS[browser][env.platform];
  if (env.platform === 'darwin') {
    const home = homeDirectory(env);
    return names.flatMap((app) => [join('/Applications', app), join(home, 'Applications', app)]);
  }
  if (env.platform === 'win32') {
    const dirs = ['ProgramFiles', 'ProgramFiles(x86)', 'LOCALAPPDATA'].flatMap(
      (name) => absoluteEnvDir(env, name) ?? [],
    );
    return names.flatMap((exe) => dirs.map((dir) => path.win32.join(dir, exe)));
  }
  const dirs = (env.env.PATH ?? '').split(':').filter((dir) => path.isAbsolute(dir));
  return names.flatMap((command) => dirs.map((dir) => join(dir, command)));
}

/** The session cookie names, as cursor.com and its older NextAuth login set them. */
export const SESSION_COOKIE_NAMES: readonly string[] = [
  'WorkosCursorSessionToken',
  '__Secure-next-auth.session-token',
  'next-auth.session-token',
];

/** Sent along with the session from the same profile, so a team picked on cursor.com stays picked. */
export const TEAM_COOKIE_NAMES = ['portal-selected-team-id', 'team_id'] as const;

/** Only what the browser itself would send to https://cursor.com: host-only `cursor.com` or domain `.cursor.com`. */
export const COOKIE_HOSTS = ['cursor.com', '.cursor.com'] as const;

/** The cookies both readers select: the session and team cookies, on the hosts above. */
export const WANTED_NAMES: readonly string[] = [...SESSION_COOKIE_NAMES, ...TEAM_COOKIE_NAMES];

/** `?, ?, …` for an `IN (…)` list. */
export function placeholders(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}

/** One stored cookie that may matter, before its value is read or decrypted. */
export interface CookieRow {
  name: string;
  /** Firefox `host`, Chromium `host_key`: `cursor.com` or `.cursor.com`. */
  host: string;
  /** Creation time, epoch ms: the newest cookie wins. */
  createdMs: number;
  /** Expiry, epoch ms; absent for a cookie that lives until the browser closes. */
  expiresMs?: number;
}

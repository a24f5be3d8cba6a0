import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { errorCode, readTextFile } from '../../../local/read-file.js';
import { describeFsError } from '../../../local/read-file-sync.js';
import type { BrowserInstall, ChromiumInstall, FirefoxInstall } from './catalog.js';
import { type Outcome, ok, skip } from './outcome.js';

/** One browser profile and the cookie database it would keep. */
export interface BrowserProfile {
  /** Firefox: the profile's name in profiles.ini; Chromium: its folder (`Default`, `Profile 2`). */
  name: string;
  dbPath: string;
}

type Show = (filePath: string) => string;

/**
 * The most profiles of one installation that are read. Each costs a full copy of its cookie database (in
 * Firefox, every site's cookies) and a SQLite open: 3,000 Firefox profiles made `usage` take 14 s. Nobody
 * keeps fifty by hand, and profiles are taken default first, so the one in use is among them.
 */
export const MAX_PROFILES = 50;

export interface ProfileList {
  /** At most MAX_PROFILES, in the order they are searched. */
  profiles: BrowserProfile[];
  /** How many more the installation has, left unread. */
  unread: number;
}

/** The profiles of one installation, in the order they are searched. */
export function listProfiles(install: BrowserInstall, show: Show): Promise<Outcome<ProfileList>> {
  return install.kind === 'firefox' ? firefoxProfiles(install, show) : chromiumProfiles(install, show);
}

/**
 * The file whose change can change the list: Firefox's `profiles.ini`; Chromium's user-data directory,
 * whose modification time moves when a profile folder comes or goes.
 */
export function profileListing(install: BrowserInstall): string {
  return install.kind === 'firefox' ? path.join(install.root, 'profiles.ini') : install.root;
}

function capped(profiles: BrowserProfile[], total = profiles.length): Outcome<ProfileList> {
  return ok({ profiles: profiles.slice(0, MAX_PROFILES), unread: Math.max(0, total - MAX_PROFILES) });
}

async function firefoxProfiles(install: FirefoxInstall, show: Show): Promise<Outcome<ProfileList>> {
  const iniPath = profileListing(install);
  const read = await readTextFile(iniPath);
  if (read.kind === 'unreadable') return skip('unreadable', `cannot read ${show(iniPath)} (${read.reason})`);
  if (read.kind === 'missing') {
    const present = await fileState(install.root);
    if (present !== 'present') return notInstalled(install, present, show);
    return skip('no-profile', `no profiles.ini in ${show(install.root)}`);
  }
  const profiles = parseProfilesIni(read.text).map((profile) => ({
    name: profile.name,
    dbPath: path.join(profileDir(install.root, profile), 'cookies.sqlite'),
  }));
  if (profiles.length === 0) return skip('no-profile', `${show(iniPath)} lists no profiles`);
  return capped(profiles);
}

export interface IniProfile {
  name: string;
  path: string;
  relative: boolean;
}

/**
 * `profiles.ini`: the profiles an `[Install…]` section names as its default come first (that is the one the
 * installed Firefox opens), then the profile marked `Default=1`, then the others in file order.
 */
export function parseProfilesIni(text: string): IniProfile[] {
  const sections: Array<{ name: string; keys: Map<string, string> }> = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith(';') || line.startsWith('#')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      sections.push({ name: header[1]!.trim(), keys: new Map() });
      continue;
    }
    const equals = line.indexOf('=');
    if (equals > 0) sections.at(-1)?.keys.set(line.slice(0, equals).trim(), line.slice(equals + 1).trim());
  }
  const profiles: Array<IniProfile & { marked: boolean }> = [];
  for (const section of sections) {
    const profilePath = section.keys.get('Path');
    if (!/^Profile\d+$/i.test(section.name) || !profilePath) continue;
    profiles.push({
      name: section.keys.get('Name') || profilePath,
      path: profilePath,
      relative: section.keys.get('IsRelative') !== '0',
      marked: section.keys.get('Default') === '1',
    });
  }
  const installDefaults = sections
    .filter((section) => /^Install/i.test(section.name))
    .map((section) => section.keys.get('Default'))
    .filter((value): value is string => value !== undefined && value !== '');
  const rank = (profile: IniProfile & { marked: boolean }) => {
    const index = installDefaults.indexOf(profile.path);
    if (index !== -1) return index;
    return profile.marked ? installDefaults.length : installDefaults.length + 1;
  };
  // sort() is stable: profiles of the same rank keep their file order.
  return profiles
    .sort((a, b) => rank(a) - rank(b))
    .map(({ name, path: profilePath, relative }) => ({ name, path: profilePath, relative }));
}

function profileDir(root: string, profile: IniProfile): string {
  // Relative paths in profiles.ini always use `/`, on Windows too.
  return profile.relative ? path.join(root, ...profile.path.split('/')) : profile.path;
}

const CHROMIUM_PROFILE = /^(Default|Profile \d+)$/;

async function chromiumProfiles(install: ChromiumInstall, show: Show): Promise<Outcome<ProfileList>> {
  let entries: string[];
  try {
    entries = await readdir(install.root);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return notInstalled(install, 'absent', show);
    return skip('unreadable', `cannot read ${show(install.root)} (${describeFsError(code)})`);
  }
  const names = entries.filter((entry) => CHROMIUM_PROFILE.test(entry)).sort(byProfileNumber);
  if (names.length === 0) return skip('no-profile', `no profiles in ${show(install.root)}`);
  const profiles: BrowserProfile[] = [];
  for (const name of names.slice(0, MAX_PROFILES)) {
    // Chromium 96 moved the database into `Network/`; an older profile keeps it at the top.
    const network = path.join(install.root, name, 'Network', 'Cookies');
    const legacy = path.join(install.root, name, 'Cookies');
    profiles.push({ name, dbPath: (await fileState(network)) === 'absent' ? legacy : network });
  }
  return capped(profiles, names.length);
}

/** `Default` first, then `Profile 1`, `Profile 2`, … `Profile 10` in number order. */
function byProfileNumber(a: string, b: string): number {
  const number = (name: string) => (name === 'Default' ? -1 : Number(name.slice('Profile '.length)));
  return number(a) - number(b);
}

function notInstalled(install: BrowserInstall, state: 'absent' | 'unreadable', show: Show): Outcome<never> {
  return state === 'unreadable'
    ? skip('unreadable', `cannot read ${show(install.root)} (permission denied)`)
    : skip('not-installed', `not installed (no ${show(install.root)})`);
}

export type FileState = 'present' | 'absent' | 'unreadable';

export async function fileState(filePath: string): Promise<FileState> {
  try {
    await stat(filePath);
    return 'present';
  } catch (error) {
    const code = errorCode(error);
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'absent' : 'unreadable';
  }
}

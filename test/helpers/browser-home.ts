/**
 * Browser profiles in a scene's HOME (test/helpers/scene.ts), for the browser-import tests. Every browser file
 * is snapshotted so a test can prove the import left it byte-for-byte unchanged.
 */
import path from 'node:path';
import { chromiumPlaintext } from '../../fixtures/builders/browser-crypto.js';
import {
  type ChromiumCookieSpec,
  createChromiumCookies,
  createFirefoxCookies,
} from '../../fixtures/builders/browser-db.js';
import {
  type ChromiumBrowser,
  chromiumProfileDb,
  chromiumRoot,
  type FirefoxProfileSpec,
  firefoxRoot,
  type TreePlatform,
  writeFirefoxProfiles,
} from '../../fixtures/builders/browser-tree.js';
import { makeToken, snapshotTree, type TestToken } from './home.js';

/**
 * Every browser data directory under HOME with its bytes (see home.ts snapshotTree). codexbar's own cache
 * directory (docs/invariants.md, "Nothing written outside the cache dir"), which lives under
 * `Library/Caches` on macOS and `AppData/Local` on Windows, is not a browser's and is left out.
 */
export function snapshotBrowsers(home: string): Map<string, string> {
  const all = new Map<string, string>();
  const ours = [path.join('Library', 'Caches', 'codexbar'), path.join('AppData', 'Local', 'codexbar')];
  for (const dir of ['.mozilla', '.config', 'Library', 'AppData', 'snap']) {
    for (const [file, bytes] of snapshotTree(path.join(home, dir))) {
      const relative = path.join(dir, file);
      if (!ours.some((cache) => relative.startsWith(cache + path.sep))) all.set(relative, bytes);
    }
  }
  return all;
}

/** A session token for `userId` and the cookie value cursor.com expects for it. */
export function sessionToken(userId: string, options: { exp?: number } = {}): Promise<TestToken> {
  return makeToken(userId, options);
}

const DAY_MS = 86_400_000;

export interface FirefoxProfileCookies extends FirefoxProfileSpec {
  /** `WorkosCursorSessionToken` value; absent: the profile has only unrelated cookies. */
  session?: string;
  created?: Date;
  expires?: Date;
}

/** Firefox with the given profiles (the first is the install default) and their cookie databases. */
export function addFirefox(
  home: string,
  platform: TreePlatform,
  profiles: readonly FirefoxProfileCookies[],
): void {
  const dbs = writeFirefoxProfiles(firefoxRoot(home, platform), platform, profiles, profiles[0]?.name);
  for (const profile of profiles) {
    const created = profile.created ?? new Date('2026-11-01T00:00:00Z');
    const expires = profile.expires ?? new Date(created.getTime() + 60 * DAY_MS);
    const cookies = [{ name: 'NEXT_LOCALE', value: 'en', expires, created }];
    if (profile.session !== undefined) {
      cookies.push({ name: 'WorkosCursorSessionToken', value: profile.session, expires, created });
    }
    createFirefoxCookies(dbs[profile.name]!, cookies);
  }
}

export interface ChromiumProfileCookies {
  profile: string;
  metaVersion?: number;
  /** Encrypts the plaintext (host hash already prefixed for the meta version). */
  encrypt: (plaintext: Buffer) => Buffer;
  session?: string;
  created?: Date;
  expires?: Date;
  extra?: ChromiumCookieSpec[];
}

/** A Chromium-family browser's profile with its `Network/Cookies` database; returns the user-data dir. */
export function addChromium(
  home: string,
  platform: TreePlatform,
  browser: ChromiumBrowser,
  profiles: readonly ChromiumProfileCookies[],
): string {
  const root = chromiumRoot(home, platform, browser);
  for (const spec of profiles) {
    const metaVersion = spec.metaVersion ?? 24;
    const created = spec.created ?? new Date('2026-11-01T00:00:00Z');
    const cookies: ChromiumCookieSpec[] = [...(spec.extra ?? [])];
    if (spec.session !== undefined) {
      cookies.push({
        name: 'WorkosCursorSessionToken',
        host: 'cursor.com',
        encrypted: spec.encrypt(chromiumPlaintext(spec.session, 'cursor.com', metaVersion)),
        created,
        expires: spec.expires ?? new Date(created.getTime() + 60 * DAY_MS),
      });
    }
    createChromiumCookies(chromiumProfileDb(root, spec.profile), metaVersion, cookies);
  }
  return root;
}

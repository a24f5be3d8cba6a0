import type { BrowserId } from '../../../config/schema.js';
import type { LocalEnvironment } from '../../../local/environment.js';
import { fileFingerprint, MISSING } from '../../../local/fingerprint.js';
import { displayPath } from '../../../local/paths.js';
import { errorCode } from '../../../local/read-file.js';
import { sessionTokenIdentityFromCookie } from '../../cookie.js';
import { type Session, type SourceResult, skipped } from '../../types.js';
import {
  BROWSER_NAMES,
  type BrowserInstall,
  browsersToSearch,
  installLocations,
  programLocations,
} from './catalog.js';
import { plainCookieText } from './chromium-crypto.js';
import { readChromiumCookies } from './chromium-reader.js';
import { decryptChromiumValue } from './decrypt.js';
import { readFirefoxCookies } from './firefox-reader.js';
import { type InstallKeys, installKeys, type KeyProviders, systemKeyProviders } from './key-providers.js';
import { type BrowserSkip, type Outcome, ok, type SkipKind, skip } from './outcome.js';
import { type BrowserProfile, fileState, listProfiles, MAX_PROFILES, profileListing } from './profiles.js';
import { type CandidateCookie, type PickedSession, pickSessionHeader } from './select.js';

export interface BrowserImportOptions {
  /** `--browser` or config `browser`: search only this one. */
  browser?: BrowserId;
  /** `--allow-keychain-prompt` or config `allowKeychainPrompt` (macOS). */
  allowKeychainPrompt: boolean;
}

export interface BrowserSourceDeps {
  /** The OS key stores; the real ones unless a test stands in for them. */
  providers?: KeyProviders;
}

type Step =
  | { kind: 'found'; where: string; dbPath: string; picked: PickedSession }
  | { kind: 'skip'; browser: string; where: string; skip: BrowserSkip; installed: boolean };

interface Context {
  env: LocalEnvironment;
  options: BrowserImportOptions;
  providers: KeyProviders;
  show: (filePath: string) => string;
  /**
   * The fingerprints of every file the walk has consulted, each taken before it was read: while they match,
   * the walk would end where it did. Undefined once a profile was passed over for a reason no file shows.
   */
  consulted: Record<string, string> | undefined;
  /** Why a database was read without an SQLite engine (private-copy.ts), until it has been said. */
  degraded?: string;
  degradedSaid?: boolean;
}

/**
 * What an unchanged file passes over again. Any other reason (a locked keyring, a busy database, no consent)
 * can go away with no file changing, so a session found after one is never vouched for by fingerprints.
 */
const FILE_REASONS: readonly SkipKind[] = [
  'not-installed',
  'no-profile',
  'no-cookie',
  'expired',
  'over-limit',
];

const PLATFORM_NAMES = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' } as const;

/**
 * The browser cookie source: Firefox, then the Chromium family, every profile in order, until one has a
 * usable cursor.com session cookie. The session it returns carries `next`, which resumes the search after
 * that profile, so a cookie cursor.com rejects moves on to the next browser profile. Every profile passed
 * over becomes a `--verbose` note; nothing is cached and no value is ever part of a note.
 */
export function load(
  env: LocalEnvironment,
  options: BrowserImportOptions,
  deps: BrowserSourceDeps = {},
): Promise<SourceResult> {
  const context: Context = {
    env,
    options,
    providers: deps.providers ?? systemKeyProviders(env),
    show: (filePath) => displayPath(filePath, env),
    consulted: {},
  };
  return advance(walk(context), context, new Tally());
}

async function advance(steps: AsyncGenerator<Step>, context: Context, tally: Tally): Promise<SourceResult> {
  const notes: string[] = [];
  for (let next = await steps.next(); !next.done; next = await steps.next()) {
    const step = next.value;
    if (step.kind === 'skip') {
      tally.add(step);
      if (!FILE_REASONS.includes(step.skip.kind)) context.consulted = undefined;
      notes.push(`Skipped ${step.where}: ${step.skip.reason}`);
      continue;
    }
    tally.found += 1;
    const { header, expiresMs } = step.picked;
    const session: Session = {
      source: 'browser',
      description: `browser cookie from ${step.where} (${context.show(step.dbPath)})`,
      cookieHeader: header,
    };
    const jwt = sessionTokenIdentityFromCookie(header);
    if (jwt !== undefined) session.jwt = jwt;
    if (context.consulted !== undefined) session.cookieFiles = { ...context.consulted };
    if (expiresMs !== undefined) session.cookieExpiresAt = new Date(expiresMs);
    noteDegraded(context, notes);
    return { kind: 'session', session, notes, next: () => advance(steps, context, tally) };
  }
  noteDegraded(context, notes);
  return { ...tally.result(context), notes };
}

/** Said once a run, under `--verbose`: the install lacks an SQLite engine, not the browser a database. */
function noteDegraded(context: Context, notes: string[]): void {
  if (context.degraded === undefined || context.degradedSaid) return;
  context.degradedSaid = true;
  notes.push(`Browser cookies: ${context.degraded}`);
}

async function* walk(context: Context): AsyncGenerator<Step> {
  const { env } = context;
  for (const browser of browsersToSearch(env, context.options.browser)) {
    const name = BROWSER_NAMES[browser];
    const installs = installLocations(env, browser);
    if (installs.length === 0) {
      yield notInstalled(name, `not available on ${PLATFORM_NAMES[env.platform]}`);
      continue;
    }
    let found = false;
    for (const install of installs) {
      consult(context, { [profileListing(install)]: fileFingerprint(profileListing(install)) });
      const profiles = await listProfiles(install, context.show);
      if (!profiles.ok && profiles.skip.kind === 'not-installed') continue;
      found = true;
      if (!profiles.ok) {
        yield skipStep(install.label, install.label, profiles.skip);
        continue;
      }
      const keys =
        install.kind === 'chromium'
          ? installKeys(install, { ...context, allowKeychainPrompt: context.options.allowKeychainPrompt })
          : undefined;
      for (const profile of profiles.value.profiles) {
        const where = `${install.label} profile "${profile.name}"`;
        // A profile that fails in a way nobody foresaw is skipped with its error code, never a crash.
        const header = await readProfile(install, profile, keys, context).catch((error: unknown) =>
          skip(
            'unreadable',
            `cannot read ${context.show(profile.dbPath)} (${errorCode(error) ?? 'unexpected error'})`,
          ),
        );
        yield header.ok
          ? { kind: 'found', where, dbPath: profile.dbPath, picked: header.value }
          : skipStep(install.label, where, header.skip);
      }
      const { unread } = profiles.value;
      if (unread > 0) {
        const more = `${unread} more ${install.label} profile${unread === 1 ? '' : 's'}`;
        yield skipStep(install.label, more, {
          kind: 'over-limit',
          reason: `only the first ${MAX_PROFILES} are read, the default first`,
        });
      }
    }
    if (!found) yield await withoutData(context, browser, installs);
  }
}

function skipStep(browser: string, where: string, skip: BrowserSkip, installed = true): Step {
  return { kind: 'skip', browser, where, skip, installed };
}

/**
 * A browser none of whose data directories exists: not installed, or installed and never opened, which
 * `--verbose` tells apart by its program (catalog.ts, programLocations).
 */
async function withoutData(context: Context, browser: BrowserId, installs: BrowserInstall[]): Promise<Step> {
  const name = BROWSER_NAMES[browser];
  for (const program of programLocations(context.env, browser)) {
    if ((await fileState(program)) !== 'present') continue;
    const root = context.show(installs[0]!.root);
    return skipStep(name, name, {
      kind: 'no-profile',
      reason: `no profile yet (${context.show(program)} is installed, and has not been opened: no ${root})`,
    });
  }
  return notInstalled(name, 'not installed');
}

function notInstalled(browser: string, reason: string): Step {
  return skipStep(browser, browser, { kind: 'not-installed', reason }, false);
}

function consult(context: Context, files: Record<string, string>): void {
  if (context.consulted !== undefined) Object.assign(context.consulted, files);
}

/** One profile's Cookie header, or why it has none. The database is read from a private copy. */
async function readProfile(
  install: BrowserInstall,
  profile: BrowserProfile,
  keys: InstallKeys | undefined,
  context: Context,
): Promise<Outcome<PickedSession>> {
  const shown = context.show(profile.dbPath);
  const state = await fileState(profile.dbPath);
  if (state === 'absent') {
    consult(context, { [profile.dbPath]: MISSING });
    return skip('no-cookie', `no cookie database (${shown})`);
  }
  if (state === 'unreadable') return skip('unreadable', `cannot read ${shown} (permission denied)`);

  let candidates: CandidateCookie[];
  if (install.kind === 'firefox') {
    const read = await readFirefoxCookies(profile.dbPath, shown);
    if (!read.ok) return read;
    consult(context, read.value.files);
    context.degraded ??= read.value.degraded;
    candidates = read.value.data.map((cookie) => ({ ...cookie, read: async () => plainValue(cookie.value) }));
  } else {
    const read = await readChromiumCookies(profile.dbPath, shown);
    if (!read.ok) return read;
    consult(context, read.value.files);
    context.degraded ??= read.value.degraded;
    const { metaVersion, cookies } = read.value.data;
    candidates = cookies.map((cookie) => ({
      ...cookie,
      read: async () =>
        // Only very old profiles keep a value in plain text; everything else is in `encrypted_value`.
        cookie.value !== '' || cookie.encrypted.length === 0
          ? plainValue(cookie.value)
          : decryptChromiumValue(
              context.env.platform,
              { blob: cookie.encrypted, hostKey: cookie.host, metaVersion },
              keys!,
              install.label,
            ),
    }));
  }
  return pickSessionHeader(candidates, context.env.now());
}

function plainValue(value: string): Outcome<string> {
  const text = plainCookieText(value);
  return text === undefined
    ? skip('undecryptable', 'its cursor.com cookie is not a valid header value')
    : ok(text);
}

/** What the source says when no profile gave a session that worked. */
class Tally {
  found = 0;
  private readonly installed = new Set<string>();
  private readonly searched: string[] = [];
  private readonly kinds = new Set<string>();
  private readonly hints: string[] = [];

  add(step: Extract<Step, { kind: 'skip' }>): void {
    const { browser } = step;
    if (!this.searched.includes(browser)) this.searched.push(browser);
    if (step.installed) this.installed.add(browser);
    this.kinds.add(step.skip.kind);
    if (step.skip.hint !== undefined && !this.hints.includes(step.skip.hint)) this.hints.push(step.skip.hint);
  }

  result(context: Context): SourceResult {
    const hint = this.hints.join(' ');
    if (this.found > 0) {
      return skipped('absent', 'no other browser profile has a usable cursor.com session cookie', hint);
    }
    if (this.installed.size === 0) {
      const only = context.options.browser;
      const reason = only
        ? `${BROWSER_NAMES[only]} is not installed`
        : `no supported browser found (looked for ${this.searched.join(', ')})`;
      return skipped('absent', reason);
    }
    const cause =
      this.kinds.has('expired') && !this.kinds.has('no-cookie')
        ? 'expired'
        : this.kinds.has('no-desktop-session')
          ? 'no-desktop-session'
          : 'absent';
    const where = this.searched.filter((browser) => this.installed.has(browser)).join(', ');
    return skipped(cause, `no usable cursor.com session cookie in ${where}`, hint);
  }
}

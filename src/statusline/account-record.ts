import { join } from 'node:path';
import { readAppAccessToken } from '../auth/app-db.js';
import { inspectAccessToken } from '../auth/jwt.js';
import { authPaths } from '../auth/paths.js';
import { type SourceMode, sourceOrder } from '../auth/resolver.js';
import type { AuthSourceId, JwtIdentity, Session } from '../auth/types.js';
import { accountKey } from '../cache/account-key.js';
import { ACCOUNT_KEY } from '../cache/snapshot-file.js';
import { fnv1a } from '../lib/hash.js';
import type { LocalEnvironment } from '../local/environment.js';
import { fileFingerprint as fingerprint } from '../local/fingerprint.js';
import { absoluteEnvDir, expandTilde, homeDirectory, pathApi } from '../local/paths.js';
import { readTextFileSync } from '../local/read-file-sync.js';

/**
 * Which account this set-up resolves to (docs/invariants.md, "When a snapshot may be trusted"), without
 * walking the whole ladder.
 *
 * After every live fetch the full CLI records, per set-up (platform, source mode and the paths the ladder
 * reads), the source that supplied the session, its account key, and a fingerprint (device, inode, size,
 * times) of every file the ladder reads, taken before it read them; for a token or browser winner also until
 * when its token (and cookie) is usable. The statusline fast path trusts the config and cookie files only
 * while their fingerprints match. A token store whose fingerprint matches holds the same token, so it gets
 * the same verdict (a token never becomes usable again by waiting); a changed one (Cursor writes its database
 * while it runs) is read again, so the answer is the account the ladder would pick now. A browser winner is
 * vouched for while every file its walk consulted (profile lists, cookie databases and their `-wal`, the
 * winner's included) is unchanged: the walk would end at the same cookie. Anything it cannot vouch for
 * (CodexBar's stored session, a browser walk that passed a profile over for a reason no file shows, a
 * changed file) is "unknown": the full CLI then resolves the session the ordinary way.
 */

const RECORD_VERSION = 1;
const RECORD_LIMIT = 256 * 1024;

interface AccountRecordFile {
  version: typeof RECORD_VERSION;
  /** The source whose session fetched the snapshot. */
  winner: AuthSourceId;
  /** The winner's account key. */
  account?: string;
  /** Path → fingerprint of the config and cookie files, taken before the ladder read them. */
  files: Record<string, string>;
  /** The set-up the file name is a hash of, compared in full: the hash is short and not cryptographic. */
  setUp: string;
  /** The token stores' fingerprints, taken before the ladder read them. */
  tokens: Record<TokenSource, string>;
  /**
   * A token or browser winner: when its session stops being usable (its token's expiry minus the ladder's
   * margin, or its cookie's expiry, whichever is first), epoch ms.
   */
  usableUntil?: number;
  /** A browser winner: path → fingerprint of every file its walk consulted (Session.cookieFiles). */
  browser?: Record<string, string>;
}

type TokenSource = 'app' | 'agent';

export interface AuthInputs {
  recordPath: string;
  setUp: string;
  files: Record<string, string>;
  tokens: Record<TokenSource, string>;
}

/**
 * Fingerprints the ladder's non-token files (every config path it may consult, CodexBar's cached cookie and
 * stored session) and names the record for this set-up. Call it before the ladder reads anything, so a file
 * that changes meanwhile makes the record mismatch rather than vouch for content it never saw.
 */
export function authInputs(env: LocalEnvironment, mode: SourceMode, usageDir: string): AuthInputs {
  const paths = authPaths(env);
  const watched = [...configCandidates(env), paths.cachedCookie, paths.storedSession];
  const files: Record<string, string> = {};
  for (const file of watched) files[file] = fingerprint(file);
  // The app database's token may sit in its -wal; either file changing means the token may have.
  const tokens = {
    app: `${fingerprint(paths.appDb)}|${fingerprint(`${paths.appDb}-wal`)}`,
    agent: fingerprint(paths.agentAuth),
  };
  const setUp = [env.platform, mode, ...watched, paths.appDb, paths.agentAuth].join('\n');
  // Named by a hash of the set-up, not a secret: the record holds the set-up whole and is checked against it.
  return { recordPath: join(usageDir, `account-${fnv1a(setUp)}.json`), setUp, files, tokens };
}

/** docs/invariants.md, "Tokens used as found, with 60 s to spare": the ladder's margin. */
const TOKEN_MARGIN_MS = 60_000;

/** The record a live fetch leaves for the session that won. */
export function accountRecord(
  inputs: AuthInputs,
  session: Pick<Session, 'source' | 'jwt' | 'cookieFiles' | 'cookieExpiresAt'>,
  account: string | undefined,
): object {
  const winner = session.source;
  const record: AccountRecordFile = {
    version: RECORD_VERSION,
    winner,
    setUp: inputs.setUp,
    files: inputs.files,
    tokens: inputs.tokens,
  };
  if (account !== undefined) record.account = account;
  const until: number[] = [];
  if (winner !== 'manual' && winner !== 'cached' && session.jwt !== undefined) {
    until.push(session.jwt.expiresAt.getTime() - TOKEN_MARGIN_MS);
  }
  if (winner === 'browser' && session.cookieFiles !== undefined) {
    record.browser = session.cookieFiles;
    if (session.cookieExpiresAt !== undefined) until.push(session.cookieExpiresAt.getTime());
  }
  if (until.length > 0) record.usableUntil = Math.min(...until);
  return record;
}

/**
 * The account key the ladder would resolve to now, or undefined when the record cannot vouch for it. Walks
 * the platform's order up to the recorded winner: config and cookie files must be unchanged, a token store
 * before the winner must still hold no usable token, and a token winner must still hold a usable one.
 */
export async function recordedAccount(
  env: LocalEnvironment,
  mode: SourceMode,
  inputs: AuthInputs,
): Promise<string | undefined> {
  const record = readRecord(inputs.recordPath);
  if (record === undefined || record.setUp !== inputs.setUp) return undefined;
  const keys = Object.keys(record.files);
  if (keys.length !== Object.keys(inputs.files).length) return undefined;
  if (keys.some((file) => inputs.files[file] !== record.files[file])) return undefined;
  const paths = authPaths(env);
  for (const source of sourceOrder(env.platform, mode)) {
    const winner = source === record.winner;
    switch (source) {
      case 'manual':
      case 'cached':
        if (winner) return record.account;
        break;
      case 'stored':
        if (winner) return undefined;
        break;
      case 'browser':
        return winner ? browserAccount(record, env.now()) : undefined;
      case 'app':
      case 'agent': {
        const unchanged = record.tokens[source] === inputs.tokens[source];
        const now = env.now();
        if (winner && unchanged && record.usableUntil !== undefined && now.getTime() < record.usableUntil) {
          return record.account;
        }
        // Passed over last time and not changed since: passed over again.
        if (!winner && unchanged) break;
        const identity =
          source === 'app' ? await appIdentity(paths.appDb, now) : agentIdentity(paths.agentAuth, now);
        if (winner) return identity && accountKey({ userId: identity.userId });
        if (identity !== undefined) return undefined;
        break;
      }
    }
  }
  return undefined;
}

/**
 * A browser winner's account while every file its walk consulted is unchanged and its session still usable.
 * A walk that passed the winner over (no cookie anywhere, then a later source) is never vouched for: its
 * reasons are not all kept.
 */
function browserAccount(record: AccountRecordFile, now: Date): string | undefined {
  const files = record.browser;
  if (files === undefined) return undefined;
  if (record.usableUntil !== undefined && now.getTime() >= record.usableUntil) return undefined;
  return Object.entries(files).every(([file, seen]) => fingerprint(file) === seen)
    ? record.account
    : undefined;
}

/** Every path the config lookup may consult, whichever it ends up using. */
function configCandidates(env: LocalEnvironment): string[] {
  const { join } = pathApi(env);
  const home = homeDirectory(env);
  const candidates: string[] = [];
  const explicit = env.env.CODEXBAR_CONFIG?.trim();
  if (explicit) candidates.push(expandTilde(explicit, env));
  const xdg = absoluteEnvDir(env, 'XDG_CONFIG_HOME');
  if (xdg !== undefined) candidates.push(join(xdg, 'codexbar', 'config.json'));
  candidates.push(join(home, '.config', 'codexbar', 'config.json'), join(home, '.codexbar', 'config.json'));
  return candidates;
}

function readRecord(file: string): AccountRecordFile | undefined {
  const json = readJsonSync(file, RECORD_LIMIT);
  return isRecord(json) ? json : undefined;
}

/** A small JSON file's value, or undefined when it is missing, unreadable or not JSON. */
function readJsonSync(file: string, limit: number): unknown {
  const read = readTextFileSync(file, limit);
  if (read.kind !== 'ok') return undefined;
  try {
    return JSON.parse(read.text);
  } catch {
    return undefined;
  }
}

const SOURCES: readonly string[] = ['manual', 'cached', 'stored', 'app', 'agent', 'browser'];

function isRecord(value: unknown): value is AccountRecordFile {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  const { files, tokens } = record;
  return (
    record.version === RECORD_VERSION &&
    typeof record.setUp === 'string' &&
    (record.usableUntil === undefined || typeof record.usableUntil === 'number') &&
    (record.browser === undefined || isStringMap(record.browser)) &&
    isStringMap(tokens) &&
    typeof tokens.app === 'string' &&
    typeof tokens.agent === 'string' &&
    typeof record.winner === 'string' &&
    SOURCES.includes(record.winner) &&
    (record.account === undefined ||
      (typeof record.account === 'string' && ACCOUNT_KEY.test(record.account))) &&
    isStringMap(files)
  );
}

function isStringMap(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((entry) => typeof entry === 'string')
  );
}

/** The Cursor app token as the ladder reads it: a usable token's identity. */
async function appIdentity(dbPath: string, now: Date): Promise<JwtIdentity | undefined> {
  const read = await readAppAccessToken(dbPath);
  return read.kind === 'token' ? usableIdentity(read.token, now) : undefined;
}

/**
 * cursor-agent's token as the ladder reads it: an object whose `accessToken` and `refreshToken` are strings
 * or null, with a non-blank access token.
 */
function agentIdentity(file: string, now: Date): JwtIdentity | undefined {
  // The ladder's reader allows 1 MiB; the same limit keeps the same answers.
  const json = readJsonSync(file, 1024 * 1024);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const { accessToken, refreshToken } = json as Record<string, unknown>;
  if (refreshToken != null && typeof refreshToken !== 'string') return undefined;
  if (typeof accessToken !== 'string' || accessToken.trim() === '') return undefined;
  return usableIdentity(accessToken, now);
}

function usableIdentity(token: string, now: Date): JwtIdentity | undefined {
  const inspection = inspectAccessToken(token, now);
  return inspection.kind === 'usable' ? inspection.identity : undefined;
}

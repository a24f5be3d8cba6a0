import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { readAppAccessToken } from '../auth/app-db.js';
import { inspectAccessToken } from '../auth/jwt.js';
import { authPaths } from '../auth/paths.js';
import { type SourceMode, sourceOrder } from '../auth/resolver.js';
import type { AuthSourceId, JwtIdentity } from '../auth/types.js';
import type { LocalEnvironment } from '../local/environment.js';
import { absoluteEnvDir, expandTilde, homeDirectory, pathApi } from '../local/paths.js';
import { readTextFileSync } from '../local/read-file-sync.js';
import { accountKey } from './account-key.js';
import { ACCOUNT_KEY } from './snapshot-format.js';

/**
 * Which account this set-up resolves to, without walking the whole ladder (docs/behaviour.md §26.7).
 *
 * After every live fetch the full CLI records, per set-up (platform, source mode and the paths the ladder
 * reads), the source that supplied the session, the account key when that source is a cookie file or the
 * config, and a fingerprint (inode, size, times) of every file the ladder reads that is not a token store.
 * The statusline fast path trusts the record only while every fingerprint still matches, and re-reads the
 * Cursor app and cursor-agent tokens themselves (they change while Cursor runs), so its answer is the
 * account the ladder would pick now. Anything it cannot vouch for (browser cookies, CodexBar's stored
 * session, a changed file) is "unknown": the full CLI then resolves the session the ordinary way.
 */

const RECORD_VERSION = 1;
const RECORD_LIMIT = 256 * 1024;

interface AccountRecordFile {
  version: typeof RECORD_VERSION;
  /** The source whose session fetched the snapshot. */
  winner: AuthSourceId;
  /** The account key, for the config file's manual header and the cached cookie. */
  account?: string;
  /** Path → fingerprint, taken before the ladder read them. */
  files: Record<string, string>;
}

export interface AuthInputs {
  recordPath: string;
  files: Record<string, string>;
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
  const setUp = [env.platform, mode, ...watched, paths.appDb, paths.agentAuth].join('\0');
  const context = createHash('sha256').update(setUp).digest('hex').slice(0, 32);
  return { recordPath: path.join(usageDir, `account-${context}.json`), files };
}

/** The record a live fetch leaves: `account` only for cookie winners (token winners are read again). */
export function accountRecord(inputs: AuthInputs, winner: AuthSourceId, account: string | undefined): object {
  const record: AccountRecordFile = { version: RECORD_VERSION, winner, files: inputs.files };
  if (account !== undefined && (winner === 'manual' || winner === 'cached')) record.account = account;
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
  if (record === undefined) return undefined;
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
      case 'browser':
        if (winner) return undefined;
        // Browser cookies change without a file we fingerprint; nothing past them is vouched for.
        if (source === 'browser') return undefined;
        break;
      case 'app':
      case 'agent': {
        const identity =
          source === 'app'
            ? await appIdentity(paths.appDb, env.now())
            : await agentIdentity(paths.agentAuth, env.now());
        if (winner) return identity && accountKey({ userId: identity.userId });
        if (identity !== undefined) return undefined;
        break;
      }
    }
  }
  return undefined;
}

/** docs/behaviour.md §6.1: every path the config lookup may consult, whichever it ends up using. */
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

function fingerprint(file: string): string {
  try {
    const stat = statSync(file, { bigint: true });
    return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : `error ${code}`;
  }
}

function readRecord(file: string): AccountRecordFile | undefined {
  const read = readTextFileSync(file, RECORD_LIMIT);
  if (read.kind !== 'ok') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch {
    return undefined;
  }
  return isRecord(json) ? json : undefined;
}

const SOURCES: readonly string[] = ['manual', 'cached', 'stored', 'app', 'agent', 'browser'];

function isRecord(value: unknown): value is AccountRecordFile {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  const files = record.files;
  return (
    record.version === RECORD_VERSION &&
    typeof record.winner === 'string' &&
    SOURCES.includes(record.winner) &&
    (record.account === undefined ||
      (typeof record.account === 'string' && ACCOUNT_KEY.test(record.account))) &&
    typeof files === 'object' &&
    files !== null &&
    !Array.isArray(files) &&
    Object.values(files).every((entry) => typeof entry === 'string')
  );
}

/** The Cursor app token as the ladder reads it (docs/behaviour.md §7.8): a usable token's identity. */
async function appIdentity(dbPath: string, now: Date): Promise<JwtIdentity | undefined> {
  const read = await readAppAccessToken(dbPath);
  return read.kind === 'token' ? usableIdentity(read.token, now) : undefined;
}

/**
 * cursor-agent's token as the ladder reads it (docs/behaviour.md §7.9): an object whose `accessToken` and
 * `refreshToken` are strings or null, with a non-blank access token.
 */
function agentIdentity(file: string, now: Date): JwtIdentity | undefined {
  // The ladder's reader allows 1 MiB (docs/behaviour.md §1.1); the same limit keeps the same answers.
  const read = readTextFileSync(file, 1024 * 1024);
  if (read.kind !== 'ok') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch {
    return undefined;
  }
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

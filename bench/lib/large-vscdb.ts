/**
 * A 1 GB Cursor `state.vscdb` holding a valid (far-future) app token, generated once with the shared
 * fixture builder and cached under ./.bench-tmp/ (git-ignored), laid out as an XDG config home so the CLI
 * finds it with XDG_CONFIG_HOME alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { makeJwt, sessionCookieValue } from '../../fixtures/builders/jwt.js';
import { generateLargeVscdb } from '../../fixtures/builders/vscdb.js';
import { readAppAccessToken } from '../../src/auth/app-db.js';
import { repoRoot } from './measure.js';

export interface BenchToken {
  jwt: string;
  /** The `WorkosCursorSessionToken` value the fake account must accept. */
  cookieValue: string;
}

const BENCH_USER_ID = 'user_bench_large_db';
/** 2100-01-01: the cached file must keep working for years without regeneration. */
const FAR_FUTURE_EXP = 4_102_444_800;

/** Deterministic (fixed iat and exp, HS256), so the cached file's token stays the expected one. */
export async function largeDbToken(): Promise<BenchToken> {
  const jwt = await makeJwt({
    sub: `auth0|${BENCH_USER_ID}`,
    now: new Date('2026-01-01T00:00:00Z'),
    exp: FAR_FUTURE_EXP,
  });
  return { jwt, cookieValue: sessionCookieValue(BENCH_USER_ID, jwt) };
}

export interface LargeVscdb {
  /** Pass as XDG_CONFIG_HOME. */
  configHome: string;
  dbPath: string;
  sizeBytes: number;
  /** Set when this run had to generate the file. */
  generatedInMs?: number;
}

/** Files other than the database itself in its folder: the CLI must never leave any. */
export function sidecarsOf(dbPath: string): string[] {
  return fs.readdirSync(path.dirname(dbPath)).filter((name) => name !== path.basename(dbPath));
}

export async function ensureLargeVscdb(sizeGB: number, token: BenchToken): Promise<LargeVscdb> {
  const configHome = path.join(repoRoot, '.bench-tmp', `usage-vscdb-${sizeGB}GB`, 'config');
  const dbPath = path.join(configHome, 'Cursor', 'User', 'globalStorage', 'state.vscdb');
  let generatedInMs: number | undefined;
  const cached = fs.existsSync(dbPath) ? await readAppAccessToken(dbPath) : undefined;
  const usable = cached?.kind === 'token' && cached.token === token.jwt && sidecarsOf(dbPath).length === 0;
  if (!usable) {
    fs.rmSync(path.dirname(dbPath), { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dbPath), { recursive: true });
    const started = performance.now();
    const partial = `${dbPath}.partial`;
    generateLargeVscdb(partial, sizeGB * 1024 ** 3, token.jwt);
    fs.renameSync(partial, dbPath);
    generatedInMs = performance.now() - started;
  }
  return { configHome, dbPath, sizeBytes: fs.statSync(dbPath).size, generatedInMs };
}

import fs from 'node:fs';
import path from 'node:path';
import { makeJwt, sessionCookieValue } from '../../fixtures/builders/jwt.js';
import { createStateVscdb, type StateVscdbOptions } from '../../fixtures/builders/vscdb.js';

export interface TestToken {
  jwt: string;
  userId: string;
  /** The `WorkosCursorSessionToken` value cursor.com expects for this token. */
  cookieValue: string;
}

/** A real jose-made token for `auth0|<userId>`, valid for a day unless `exp` says otherwise. */
export async function makeToken(
  userId: string,
  options: { exp?: number; email?: string } = {},
): Promise<TestToken> {
  const jwt = await makeJwt({ sub: `auth0|${userId}`, exp: options.exp, email: options.email });
  return { jwt, userId, cookieValue: sessionCookieValue(userId, jwt) };
}

function appDbPath(home: string): string {
  return path.join(home, '.config', 'Cursor', 'User', 'globalStorage', 'state.vscdb');
}

export function writeAppToken(home: string, token: string | Buffer, options: StateVscdbOptions = {}): string {
  const dbPath = appDbPath(home);
  fs.mkdirSync(path.dirname(dbPath), { recursive: true });
  createStateVscdb(dbPath, { token, storage: 'text', ...options });
  return dbPath;
}

export function writeAgentToken(
  home: string,
  accessToken: string,
  configHome = path.join(home, '.config'),
): string {
  const file = path.join(configHome, 'cursor', 'auth.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ accessToken, refreshToken: 'refresh-not-used' }), { mode: 0o600 });
  return file;
}

export function writeCachedCookie(
  home: string,
  cookieHeader: string,
  extra: Record<string, unknown> = {},
): void {
  const file = path.join(home, '.local', 'share', 'CodexBar', 'cursor-cookie.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const entry = { cookieHeader, storedAt: '2026-11-01T00:00:00Z', sourceLabel: 'Chrome', ...extra };
  fs.writeFileSync(file, JSON.stringify(entry), { mode: 0o600 });
}

export function writeStoredSession(home: string, cookieValue: string): void {
  const file = path.join(home, '.local', 'share', 'CodexBar', 'cursor-session.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const cookie = { Name: 'WorkosCursorSessionToken', Value: cookieValue, Domain: 'cursor.com', Path: '/' };
  fs.writeFileSync(file, JSON.stringify([cookie]), { mode: 0o600 });
}

export function writeConfig(home: string, config: unknown): string {
  const file = path.join(home, '.config', 'codexbar', 'config.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof config === 'string' ? config : JSON.stringify(config), { mode: 0o600 });
  return file;
}

/** Every file below `dir` with its bytes, for "nothing was changed" assertions. */
export function snapshotTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      // A named pipe (a test's) is noted, never read: reading would wait for a writer.
      else if (entry.isFIFO()) out.set(path.relative(dir, full), '<named pipe>');
      else out.set(path.relative(dir, full), fs.readFileSync(full).toString('base64'));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

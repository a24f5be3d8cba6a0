import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeJwt } from '../../fixtures/builders/jwt.js';
import { createStateVscdb } from '../../fixtures/builders/vscdb.js';
import * as agent from '../../src/auth/sources/agent.js';
import * as app from '../../src/auth/sources/app.js';
import * as cached from '../../src/auth/sources/cached.js';
import * as stored from '../../src/auth/sources/stored.js';
import type { LocalEnvironment } from '../../src/local/environment.js';
import { useScene } from '../helpers/scene.js';

const NOW = new Date('2026-07-20T15:00:00Z');
const scene = useScene();
let home: string;

beforeEach(() => {
  home = scene.home;
});

interface Entry {
  mode: number;
  mtimeMs: number;
  bytes?: string;
}

/** Every path under `root` with its mode, mtime and (for files) content. */
function snapshot(root: string): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir)) {
      const full = path.join(dir, name);
      const stat = fs.lstatSync(full);
      const entry: Entry = { mode: stat.mode, mtimeMs: stat.mtimeMs };
      if (stat.isFile()) entry.bytes = fs.readFileSync(full).toString('base64');
      entries.set(path.relative(root, full), entry);
      if (stat.isDirectory()) walk(full);
    }
  };
  walk(root);
  return entries;
}

function write(relative: string, content: unknown, mode: number): void {
  const file = path.join(home, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  fs.chmodSync(file, mode);
}

describe('credential sources never create, modify or chmod a file', () => {
  it('reading every source leaves the whole home tree identical, including loose modes and expired entries', async () => {
    const env: LocalEnvironment = { platform: 'linux', env: { HOME: home }, homeDir: home, now: () => NOW };
    const expired = await makeJwt({ sub: 'auth0|u', exp: NOW.getTime() / 1000 - 60, now: NOW });
    const dbDir = path.join(home, '.config', 'Cursor', 'User', 'globalStorage');
    fs.mkdirSync(dbDir, { recursive: true });
    createStateVscdb(path.join(dbDir, 'state.vscdb'), { token: expired });
    write('.config/cursor/auth.json', { accessToken: expired }, 0o644);
    write(
      '.local/share/CodexBar/cursor-cookie.json',
      { cookieHeader: 'a=1', storedAt: '2026-07-19T10:00:00Z', sourceLabel: 'Cursor.app local auth' },
      0o644,
    );
    write(
      '.local/share/CodexBar/cursor-session.json',
      [{ Name: 'a', Value: '1', Expires: NOW.getTime() / 1000 - 1, Expires_isDate: true }],
      0o644,
    );
    const before = snapshot(home);

    const results = [
      await app.load(env),
      await agent.load(env),
      await cached.load(env),
      await stored.load(env),
    ];

    expect(results.map((result) => result.kind)).toEqual(['skip', 'skip', 'skip', 'skip']);
    expect(snapshot(home)).toEqual(before);
  });

  it('reading sources when nothing exists creates no directory or file', async () => {
    const env: LocalEnvironment = { platform: 'linux', env: { HOME: home }, homeDir: home, now: () => NOW };
    for (const source of [app, agent, cached, stored]) expect((await source.load(env)).kind).toBe('skip');
    expect(fs.readdirSync(home)).toEqual([]);
  });
});

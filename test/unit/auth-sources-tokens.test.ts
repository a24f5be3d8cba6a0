import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeJwt } from '../../fixtures/builders/jwt.js';
import { createStateVscdb } from '../../fixtures/builders/vscdb.js';
import * as agent from '../../src/auth/sources/agent.js';
import * as app from '../../src/auth/sources/app.js';
import { expectSkip, localEnvironment } from '../helpers/local-sources.js';
import { useScene } from '../helpers/scene.js';
import { useUnprivileged } from '../helpers/unprivileged.js';

const NOW = new Date('2026-07-20T15:00:00Z');
const NOW_S = NOW.getTime() / 1000;
const scene = useScene();
const unprivileged = useUnprivileged();
let home: string;

beforeEach(() => {
  home = scene.home;
});

const environment = (env: Record<string, string> = {}) => localEnvironment(home, { now: NOW, env });

function appDbPath(configHome = path.join(home, '.config')): string {
  const dir = path.join(configHome, 'Cursor', 'User', 'globalStorage');
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, 'state.vscdb');
}

function writeAgentAuth(content: unknown, configHome = path.join(home, '.config')): string {
  const dir = path.join(configHome, 'cursor');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'auth.json');
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('Cursor app token source', () => {
  it('a usable token becomes the WorkosCursorSessionToken cookie with the database in the description', async () => {
    const token = await makeJwt({ sub: 'auth0|user_test', email: 'me@example.com', now: NOW });
    createStateVscdb(appDbPath(), { token });
    const result = await app.load(environment());
    expect(result).toMatchObject({
      kind: 'session',
      session: {
        source: 'app',
        description: 'Cursor app token (~/.config/Cursor/User/globalStorage/state.vscdb)',
        cookieHeader: `WorkosCursorSessionToken=user_test%3A%3A${token}`,
        jwt: { userId: 'user_test', email: 'me@example.com' },
      },
    });
    if (result.kind === 'session') expect(result.session.description).not.toContain(token);
  });

  it('follows an absolute XDG_CONFIG_HOME', async () => {
    const xdg = path.join(home, 'xdg');
    createStateVscdb(appDbPath(xdg), { token: await makeJwt({ sub: 'auth0|x', now: NOW }) });
    const result = await app.load(environment({ XDG_CONFIG_HOME: xdg }));
    expect(result.kind === 'session' && result.session.description).toBe(
      'Cursor app token (~/xdg/Cursor/User/globalStorage/state.vscdb)',
    );
  });

  it('an expired token is skipped with its expiry', async () => {
    const exp = Date.parse('2026-07-01T10:00:00Z') / 1000;
    createStateVscdb(appDbPath(), { token: await makeJwt({ sub: 'auth0|user_test', exp, now: NOW }) });
    expectSkip(
      await app.load(environment()),
      'expired',
      'Cursor app token is expired (expired 2026-07-01T10:00:00Z)',
    );
  });

  it('a token 60 s or less from expiry is not sent', async () => {
    createStateVscdb(appDbPath(), { token: await makeJwt({ sub: 'auth0|u', exp: NOW_S + 30, now: NOW }) });
    expectSkip(
      await app.load(environment()),
      'expired',
      'Cursor app token is expired (expires 2026-07-20T15:00:30Z, less than 60 s away)',
    );
  });

  it('a malformed token is skipped with the rule it broke, never the token', async () => {
    const token = await makeJwt({ sub: 'auth0|bad user', now: NOW });
    createStateVscdb(appDbPath(), { token });
    const result = await app.load(environment());
    expectSkip(result, 'malformed', 'Cursor app token is malformed (invalid user ID)');
    expect(result.kind === 'skip' && result.reason).not.toContain(token.split('.')[1]);
  });

  it('a database without the token row is absent', async () => {
    createStateVscdb(appDbPath());
    expectSkip(await app.load(environment()), 'absent', /^no Cursor app token in ~\/\.config\/Cursor\//);
  });

  it('a missing database is absent', async () => {
    expectSkip(
      await app.load(environment()),
      'absent',
      'no Cursor app token in ~/.config/Cursor/User/globalStorage/state.vscdb',
    );
  });

  it('a file that is not a database is skipped as unreadable', async () => {
    fs.writeFileSync(appDbPath(), 'this is not a SQLite database, just some text padding '.repeat(100));
    expectSkip(
      await app.load(environment()),
      'unreadable',
      /^cannot read ~\/\.config\/Cursor\/.*state\.vscdb \(/,
    );
  });
});

describe('cursor-agent token source', () => {
  it('a usable accessToken becomes the session cookie', async () => {
    const token = await makeJwt({ sub: 'github|Agent_User', now: NOW });
    writeAgentAuth({ accessToken: token, refreshToken: 'refresh-secret' });
    expect(await agent.load(environment())).toMatchObject({
      kind: 'session',
      session: {
        source: 'agent',
        description: 'cursor-agent token (~/.config/cursor/auth.json)',
        cookieHeader: `WorkosCursorSessionToken=Agent_User%3A%3A${token}`,
      },
    });
  });

  it('a symlinked auth.json is followed', async () => {
    const token = await makeJwt({ sub: 'auth0|user_test', now: NOW });
    const real = path.join(home, 'dotfiles', 'cursor-auth.json');
    fs.mkdirSync(path.dirname(real), { recursive: true });
    fs.writeFileSync(real, JSON.stringify({ accessToken: token }));
    fs.mkdirSync(path.join(home, '.config', 'cursor'), { recursive: true });
    fs.symlinkSync(real, path.join(home, '.config', 'cursor', 'auth.json'));
    const result = await agent.load(environment());
    expect(result.kind === 'session' && result.session.cookieHeader).toContain(token);
  });

  it('an owner-only (0600) file is read and its mode left alone', async () => {
    const file = writeAgentAuth({ accessToken: await makeJwt({ sub: 'auth0|u', now: NOW }) });
    fs.chmodSync(file, 0o600);
    expect((await agent.load(environment())).kind).toBe('session');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('follows an absolute XDG_CONFIG_HOME', async () => {
    const xdg = path.join(home, 'xdg');
    writeAgentAuth({ accessToken: await makeJwt({ sub: 'auth0|u', now: NOW }) }, xdg);
    const result = await agent.load(environment({ XDG_CONFIG_HOME: xdg }));
    expect(result.kind === 'session' && result.session.description).toBe(
      'cursor-agent token (~/xdg/cursor/auth.json)',
    );
  });

  it('a missing file is skipped', async () => {
    expectSkip(
      await agent.load(environment()),
      'absent',
      'no cursor-agent login at ~/.config/cursor/auth.json',
    );
  });

  it('an unreadable file (mode 000) is skipped (as root, who could read it, the read runs as nobody)', async () => {
    const file = writeAgentAuth({ accessToken: await makeJwt({ sub: 'auth0|u', now: NOW }) });
    fs.chmodSync(file, 0o000);
    unprivileged.handOver(scene.root);
    expectSkip(
      await unprivileged.check('agentSource', [home, NOW.toISOString()], { env: {}, cwd: scene.root }),
      'unreadable',
      'cannot read ~/.config/cursor/auth.json (permission denied)',
    );
  });

  it('a directory in place of the file is skipped as unreadable', async () => {
    fs.mkdirSync(path.join(home, '.config', 'cursor', 'auth.json'), { recursive: true });
    expectSkip(
      await agent.load(environment()),
      'unreadable',
      'cannot read ~/.config/cursor/auth.json (it is a directory)',
    );
  });

  it('malformed JSON is skipped without quoting the file', async () => {
    writeAgentAuth('{"accessToken": eyJhbGciOiJIUzI1NiJ9.secret');
    const result = await agent.load(environment());
    expectSkip(result, 'malformed', /^~\/\.config\/cursor\/auth\.json is malformed \(invalid JSON/);
    expect(result.kind === 'skip' && result.reason).not.toContain('secret');
  });

  it('a JSON value of the wrong shape is skipped as malformed', async () => {
    writeAgentAuth({ accessToken: 42 });
    expectSkip(await agent.load(environment()), 'malformed', /is malformed \(not a cursor-agent login\)/);
  });

  it.each([
    { rule: 'a missing accessToken', content: { refreshToken: 'r' }, reason: 'has no accessToken' },
    { rule: 'a null accessToken', content: { accessToken: null }, reason: 'has no accessToken' },
    { rule: 'an empty accessToken', content: { accessToken: '' }, reason: 'has an empty accessToken' },
    { rule: 'a blank accessToken', content: { accessToken: '   ' }, reason: 'has an empty accessToken' },
  ])('$rule gives no session', async ({ content, reason }) => {
    writeAgentAuth(content);
    expectSkip(await agent.load(environment()), 'absent', `~/.config/cursor/auth.json ${reason}`);
  });

  it('an expired token is skipped with the cursor-agent login hint', async () => {
    const exp = Date.parse('2026-07-01T10:00:00Z') / 1000;
    writeAgentAuth({ accessToken: await makeJwt({ sub: 'auth0|u', exp, now: NOW }) });
    const result = await agent.load(environment());
    expectSkip(result, 'expired', 'cursor-agent token is expired (expired 2026-07-01T10:00:00Z)');
    expect(result.kind === 'skip' && result.hint).toBe(
      'Run `cursor-agent login` to renew the expired cursor-agent login.',
    );
  });

  it('an opaque (non-JWT) token is malformed and never echoed', async () => {
    writeAgentAuth({ accessToken: 'opaque-secret-token' });
    const result = await agent.load(environment());
    expectSkip(result, 'malformed', 'cursor-agent token is malformed (not a JWT)');
  });
});

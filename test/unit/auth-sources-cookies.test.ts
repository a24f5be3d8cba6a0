import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeJwt, sessionCookieValue } from '../../fixtures/builders/jwt.js';
import * as cached from '../../src/auth/sources/cached.js';
import * as manual from '../../src/auth/sources/manual.js';
import * as stored from '../../src/auth/sources/stored.js';
import { expectSkip, localEnvironment } from '../helpers/local-sources.js';
import { useScene } from '../helpers/scene.js';

const NOW = new Date('2026-07-20T15:00:00Z');
const NOW_S = NOW.getTime() / 1000;
const scene = useScene();
let home: string;
let dataDir: string;

beforeEach(() => {
  home = scene.home;
  dataDir = path.join(home, '.local', 'share', 'CodexBar');
});

const environment = (env: Record<string, string> = {}) => localEnvironment(home, { now: NOW, env });

function writeData(name: string, content: unknown): string {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, name);
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

async function sessionCookie(sub = 'auth0|user_test'): Promise<string> {
  const jwt = await makeJwt({ sub, email: 'me@example.com', now: NOW });
  return `WorkosCursorSessionToken=${sessionCookieValue(sub.split('|').at(-1)!, jwt)}`;
}

describe('manual source', () => {
  it('sends the resolved header verbatim and is final (no fallback after a rejection)', async () => {
    const header = await sessionCookie();
    const result = await manual.load({ cookieSource: 'manual', manualHeader: header, origin: '--cookie' });
    expect(result).toMatchObject({
      kind: 'session',
      session: {
        source: 'manual',
        cookieHeader: header,
        final: true,
        description: 'manual cookie header (--cookie)',
      },
    });
    if (result.kind === 'session') expect(result.session.jwt?.userId).toBe('user_test');
  });

  it.each([
    {
      origin: 'CODEXBAR_CURSOR_COOKIE' as const,
      label: undefined,
      description: 'manual cookie header (CODEXBAR_CURSOR_COOKIE)',
    },
    { origin: 'config file' as const, label: undefined, description: 'manual cookie header (config file)' },
    {
      origin: 'token account' as const,
      label: 'work',
      description: 'manual cookie header (config file, token account "work")',
    },
  ])('the description names where the header came from: $origin', async ({ origin, label, description }) => {
    const credentials = { cookieSource: 'manual' as const, manualHeader: 'a=1', origin, accountLabel: label };
    const result = await manual.load(credentials);
    expect(result.kind === 'session' && result.session.description).toBe(description);
  });

  it('an opaque cookie is still sent, just without a JWT identity', async () => {
    const result = await manual.load({ cookieSource: 'manual', manualHeader: 'a=1', origin: 'config file' });
    expect(result.kind === 'session' && result.session.jwt).toBeUndefined();
  });

  it('manual with no header is skipped, naming where it was expected', async () => {
    expectSkip(
      await manual.load({ cookieSource: 'manual', origin: 'config file' }),
      'absent',
      'manual cookie header is empty (config file)',
    );
  });

  it('auto and off give no manual session', async () => {
    expectSkip(await manual.load({ cookieSource: 'auto' }), 'not-applicable', 'cookie source is auto');
    expectSkip(await manual.load({ cookieSource: 'off' }), 'not-applicable', 'cookie source is off');
  });
});

describe('cached source: <data>/CodexBar/cursor-cookie.json', () => {
  const entry = (fields: Record<string, unknown>) => ({
    cookieHeader: 'a=1',
    storedAt: '2026-07-19T10:00:00Z',
    sourceLabel: 'Chrome',
    ...fields,
  });

  it('uses the cached header, normalised, with the label and the file in the description', async () => {
    const header = await sessionCookie();
    writeData('cursor-cookie.json', entry({ cookieHeader: `Cookie: ${header}` }));
    const result = await cached.load(environment());
    expect(result).toMatchObject({
      kind: 'session',
      session: {
        source: 'cached',
        cookieHeader: header,
        description: 'cached cookie header from Chrome (~/.local/share/CodexBar/cursor-cookie.json)',
      },
    });
    if (result.kind === 'session') {
      expect(result.session.final).toBeUndefined();
      expect(result.session.jwt?.email).toBe('me@example.com');
      expect(result.session.description).not.toContain('Workos');
    }
  });

  it('a stopFallback entry is a pinned selected account: its session is final', async () => {
    writeData('cursor-cookie.json', entry({ authenticationFailurePolicy: 'stopFallback' }));
    const result = await cached.load(environment());
    expect(result.kind === 'session' && result.session.final).toBe(true);
  });

  it('follows an absolute XDG_DATA_HOME', async () => {
    const xdg = path.join(home, 'xdg-data');
    fs.mkdirSync(path.join(xdg, 'CodexBar'), { recursive: true });
    fs.writeFileSync(path.join(xdg, 'CodexBar', 'cursor-cookie.json'), JSON.stringify(entry({})));
    const result = await cached.load(environment({ XDG_DATA_HOME: xdg }));
    expect(result.kind === 'session' && result.session.description).toContain(
      '~/xdg-data/CodexBar/cursor-cookie.json',
    );
  });

  it('an entry derived from the Cursor app token is never used as a browser cookie', async () => {
    writeData('cursor-cookie.json', entry({ sourceLabel: 'Cursor.app local auth' }));
    expectSkip(await cached.load(environment()), 'not-applicable', /came from the Cursor app token/);
  });

  it('a missing file is skipped', async () => {
    expectSkip(
      await cached.load(environment()),
      'absent',
      'no cached cookie at ~/.local/share/CodexBar/cursor-cookie.json',
    );
  });

  it('malformed JSON is skipped without quoting the file', async () => {
    writeData('cursor-cookie.json', '{"cookieHeader": WorkosCursorSessionToken=secret');
    const result = await cached.load(environment());
    expectSkip(
      result,
      'malformed',
      /^~\/\.local\/share\/CodexBar\/cursor-cookie\.json is malformed \(invalid JSON/,
    );
    expect(result.kind === 'skip' && result.reason).not.toContain('secret');
  });

  it('a JSON value of the wrong shape is skipped', async () => {
    writeData('cursor-cookie.json', { cookieHeader: 42 });
    expectSkip(await cached.load(environment()), 'malformed', /is malformed \(not a cached cookie entry\)/);
  });

  it('an empty cached header is skipped', async () => {
    writeData('cursor-cookie.json', entry({ cookieHeader: '  Cookie:  ' }));
    expectSkip(await cached.load(environment()), 'absent', /is empty/);
  });
});

describe('stored source: <data>/CodexBar/cursor-session.json', () => {
  const cookie = (name: string, value: string, extra: Record<string, unknown> = {}) => ({
    Name: name,
    Value: value,
    Domain: 'cursor.com',
    Path: '/',
    ...extra,
  });

  it('reads the documented app-session example', async () => {
    const value = sessionCookieValue('user_test', await makeJwt({ sub: 'auth0|user_test', now: NOW }));
    writeData('cursor-session.json', [
      cookie('WorkosCursorSessionToken', value, {
        Expires: 1799999999,
        Expires_isDate: true,
        Secure: 'TRUE',
        Comment: 'CodexBar Cursor.app local auth',
      }),
    ]);
    const result = await stored.load(environment());
    expect(result).toMatchObject({
      kind: 'session',
      session: {
        source: 'stored',
        cookieHeader: `WorkosCursorSessionToken=${value}`,
        description: 'stored session cookies (~/.local/share/CodexBar/cursor-session.json)',
      },
    });
    if (result.kind === 'session') expect(result.session.jwt?.userId).toBe('user_test');
  });

  it('joins name=value pairs with "; " in stored order, dropping cookies expired at or before now', async () => {
    writeData('cursor-session.json', [
      cookie('b', '2', { Expires: NOW_S + 1, Expires_isDate: true }),
      cookie('gone', 'x', { Expires: NOW_S, Expires_isDate: true }),
      cookie('a', '1'),
      cookie('old', 'y', { Expires: NOW_S - 3600, Expires_isDate: true }),
      'not a cookie',
      { Value: 'nameless' },
      cookie('c', '3', { Expires: '2027-01-01T00:00:00Z' }),
    ]);
    const result = await stored.load(environment());
    expect(result.kind === 'session' && result.session.cookieHeader).toBe('b=2; a=1; c=3');
  });

  it('a file whose cookies have all expired is skipped', async () => {
    writeData('cursor-session.json', [cookie('a', '1', { Expires: NOW_S - 1, Expires_isDate: true })]);
    expectSkip(await stored.load(environment()), 'expired', /every cookie in .* has expired/);
  });

  it('an empty list is skipped', async () => {
    writeData('cursor-session.json', []);
    expectSkip(await stored.load(environment()), 'absent', /holds no cookies/);
  });

  it('a missing file is skipped', async () => {
    expectSkip(
      await stored.load(environment()),
      'absent',
      'no stored session at ~/.local/share/CodexBar/cursor-session.json',
    );
  });

  it('malformed JSON and a non-list are skipped as malformed', async () => {
    writeData('cursor-session.json', '[{"Name": "a", "Value": ');
    expectSkip(await stored.load(environment()), 'malformed', /is malformed \(invalid JSON/);
    writeData('cursor-session.json', { Name: 'a', Value: '1' });
    expectSkip(await stored.load(environment()), 'malformed', /is malformed \(not a list of cookies\)/);
  });

  it('expired cookies are not pruned from the file: its bytes and mtime stay the same', async () => {
    const file = writeData('cursor-session.json', [
      cookie('old', 'y', { Expires: NOW_S - 3600, Expires_isDate: true }),
      cookie('a', '1'),
    ]);
    fs.chmodSync(file, 0o644);
    const before = { bytes: fs.readFileSync(file), stat: fs.statSync(file) };
    await stored.load(environment());
    const after = fs.statSync(file);
    expect(fs.readFileSync(file).equals(before.bytes)).toBe(true);
    expect(after.mtimeMs).toBe(before.stat.mtimeMs);
    expect(after.mode).toBe(before.stat.mode);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeAccount, FakeCursor } from '../fake-cursor/server.js';
import { proAccount } from '../helpers/accounts.js';
import {
  makeToken,
  snapshotTree,
  writeAgentToken,
  writeAppToken,
  writeCachedCookie,
  writeConfig,
  writeStoredSession,
} from '../helpers/home.js';
import { useScene } from '../helpers/scene.js';

const scene = useScene();
const start = (accounts: FakeAccount[]) => scene.serve(accounts);

const usage = (env: Record<string, string | undefined> = {}, args: string[] = []) =>
  scene.run(['usage', '--provider', 'cursor', '--json', '--verbose', ...args], { env });

/** The session cookies the fake saw on usage-summary, in order. */
function summaryCookies(server: FakeCursor): string[] {
  return server.requests.filter((r) => r.path === '/api/usage-summary').map((r) => r.headers.cookie ?? '');
}

describe('Linux auth order: manual → cached → stored → app → agent', () => {
  it('an expired app token is not sent; the cursor-agent token is used', async () => {
    const app = await makeToken('app_user', { exp: Math.floor(Date.now() / 1000) + 30 });
    const agent = await makeToken('agent_user');
    writeAppToken(scene.home, app.jwt);
    writeAgentToken(scene.home, agent.jwt);
    const server = await start([
      proAccount([app.cookieValue]),
      proAccount([agent.cookieValue], 'agent@example.com'),
    ]);

    const result = await usage();

    expect(result.code).toBe(0);
    expect(summaryCookies(server)).toEqual([`WorkosCursorSessionToken=${agent.cookieValue}`]);
    expect(JSON.parse(result.stdout)[0].usage.accountEmail).toBe('agent@example.com');
    expect(result.stderr).toMatch(/Skipped Cursor app token: .*expired/);
    expect(result.stderr).toContain('[cursor] Using cursor-agent token (~/.config/cursor/auth.json)');
  });

  it('an app token answered 401 falls back to the cursor-agent token', async () => {
    const app = await makeToken('app_user');
    const agent = await makeToken('agent_user');
    writeAppToken(scene.home, app.jwt);
    writeAgentToken(scene.home, agent.jwt);
    const server = await start([
      proAccount([app.cookieValue], 'app@example.com', { usageSummary: { status: 401, json: {} } }),
      proAccount([agent.cookieValue], 'agent@example.com'),
    ]);

    const result = await usage();

    expect(result.code).toBe(0);
    expect(summaryCookies(server)).toEqual([
      `WorkosCursorSessionToken=${app.cookieValue}`,
      `WorkosCursorSessionToken=${agent.cookieValue}`,
    ]);
    expect(JSON.parse(result.stdout)[0].usage.accountEmail).toBe('agent@example.com');
    expect(result.stderr).toContain('Cursor app token was rejected (HTTP 401)');
  });

  it('an app token answered 500 ends the run with exit 1; the agent token is never tried', async () => {
    const app = await makeToken('app_user');
    const agent = await makeToken('agent_user');
    writeAppToken(scene.home, app.jwt);
    writeAgentToken(scene.home, agent.jwt);
    const server = await start([
      proAccount([app.cookieValue], 'app@example.com', { usageSummary: { status: 500, json: {} } }),
      proAccount([agent.cookieValue]),
    ]);

    const result = await usage();

    expect(result.code).toBe(1);
    expect(summaryCookies(server)).toEqual([`WorkosCursorSessionToken=${app.cookieValue}`]);
    expect(server.requests.some((r) => r.headers.cookie?.includes(agent.cookieValue))).toBe(false);
    const row = JSON.parse(result.stdout)[0];
    expect(row.error.message).toContain('HTTP 500');
  });

  it('a manual header answered 401 ends the run; nothing else is tried', async () => {
    const app = await makeToken('app_user');
    writeAppToken(scene.home, app.jwt);
    writeCachedCookie(scene.home, `WorkosCursorSessionToken=${app.cookieValue}`);
    const server = await start([proAccount([app.cookieValue])]);

    const result = await usage({ CODEXBAR_CURSOR_COOKIE: 'WorkosCursorSessionToken=revoked%3A%3Aabc' });

    expect(result.code).toBe(1);
    expect(summaryCookies(server)).toEqual(['WorkosCursorSessionToken=revoked%3A%3Aabc']);
    expect(JSON.parse(result.stdout)[0].error.message).toMatch(/Not logged in/);
  });

  it('cached cookie comes before the stored session, which comes before the app token', async () => {
    const cached = await makeToken('cached_user');
    const stored = await makeToken('stored_user');
    const app = await makeToken('app_user');
    writeCachedCookie(scene.home, `WorkosCursorSessionToken=${cached.cookieValue}`);
    writeStoredSession(scene.home, stored.cookieValue);
    writeAppToken(scene.home, app.jwt);
    const server = await start([
      proAccount([cached.cookieValue], 'cached@example.com', { usageSummary: { status: 401, json: {} } }),
      proAccount([stored.cookieValue], 'stored@example.com', { usageSummary: { status: 403, json: {} } }),
      proAccount([app.cookieValue], 'app@example.com'),
    ]);

    const result = await usage();

    expect(result.code).toBe(0);
    expect(summaryCookies(server)).toEqual([
      `WorkosCursorSessionToken=${cached.cookieValue}`,
      `WorkosCursorSessionToken=${stored.cookieValue}`,
      `WorkosCursorSessionToken=${app.cookieValue}`,
    ]);
    expect(JSON.parse(result.stdout)[0].usage.accountEmail).toBe('app@example.com');
  });

  it('a relative XDG_CONFIG_HOME is ignored: the app token is read from ~/.config', async () => {
    const app = await makeToken('app_user');
    writeAppToken(scene.home, app.jwt);
    fs.mkdirSync(path.join(scene.home, 'relative-config'), { recursive: true });
    const server = await start([proAccount([app.cookieValue])]);

    const result = await usage({ XDG_CONFIG_HOME: 'relative-config' });

    expect(result.code).toBe(0);
    expect(summaryCookies(server)).toEqual([`WorkosCursorSessionToken=${app.cookieValue}`]);
  });

  it('--source web with only an app token exits 1 and sends no request at all', async () => {
    const app = await makeToken('app_user');
    writeAppToken(scene.home, app.jwt);
    const server = await start([proAccount([app.cookieValue])]);

    const result = await usage({}, ['--source', 'web']);

    expect(result.code).toBe(1);
    expect(server.requests).toHaveLength(0);
    expect(JSON.parse(result.stdout)[0]).toMatchObject({ provider: 'cursor', source: 'web' });
    expect(JSON.parse(result.stdout)[0].error.message).toMatch(/^No Cursor session found/);
  });

  it('no credentials anywhere: exit 1 naming every place looked at and how to fix it', async () => {
    await start([]);
    const result = await scene.run(['usage']);

    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    for (const place of [
      'cached cookie',
      'stored session',
      '~/.config/Cursor/User/globalStorage/state.vscdb',
      '~/.config/cursor/auth.json',
    ]) {
      expect(result.stderr).toContain(place);
    }
    expect(result.stderr).toMatch(/^Error: No Cursor session found/);
    expect(result.stderr).toContain('cursor-agent login');
  });
});

describe('what goes over the wire', () => {
  it('sends exactly the WorkosCursorSessionToken cookie, no Authorization, and Origin on POSTs', async () => {
    const app = await makeToken('user_Wire-1');
    writeAppToken(scene.home, app.jwt, { storage: 'blob' });
    const server = await start([proAccount([app.cookieValue], 'dev@example.com', { sand: { json: {} } })]);

    const result = await usage();

    expect(result.code).toBe(0);
    expect(server.requests.length).toBeGreaterThanOrEqual(3);
    for (const request of server.requests) {
      expect(request.headers.cookie).toBe(`WorkosCursorSessionToken=user_Wire-1%3A%3A${app.jwt}`);
      expect(request.headers.authorization).toBeUndefined();
      if (request.method === 'POST') expect(request.headers.origin).toBe('https://cursor.com');
    }
  });

  it('a UTF-16LE BLOB token in state.vscdb works', async () => {
    const app = await makeToken('utf16_user');
    writeAppToken(scene.home, Buffer.from(app.jwt, 'utf16le'), { storage: 'blob' });
    const server = await start([proAccount([app.cookieValue])]);

    const result = await usage();

    expect(result.code).toBe(0);
    expect(summaryCookies(server)).toEqual([`WorkosCursorSessionToken=${app.cookieValue}`]);
  });

  it('an idle WAL database is read without creating, changing or leaving any file', async () => {
    const app = await makeToken('wal_user');
    const dbPath = writeAppToken(scene.home, app.jwt, { walMode: true });
    const dir = path.dirname(dbPath);
    const before = snapshotTree(dir);
    await start([proAccount([app.cookieValue])]);

    const result = await usage();

    expect(result.code).toBe(0);
    expect(snapshotTree(dir)).toEqual(before);
    expect(fs.readdirSync(dir)).toEqual(['state.vscdb']);
  });

  it('never prints the token or the cookie, even with --verbose, in text, JSON or errors', async () => {
    const app = await makeToken('secret_user');
    writeAppToken(scene.home, app.jwt);
    await start([
      proAccount([app.cookieValue], 'x@example.com', { usageSummary: { status: 500, json: {} } }),
    ]);
    const secretParts = [app.jwt, app.jwt.split('.')[1] ?? '', app.cookieValue];

    for (const args of [['--json'], ['--format', 'text'], ['--pretty', '--json']]) {
      const result = await scene.run(['usage', '--verbose', ...args]);
      for (const secret of secretParts) {
        expect(result.stdout).not.toContain(secret);
        expect(result.stderr).not.toContain(secret);
      }
    }
  });

  it('refuses a plain-http base URL that is not loopback, before any request', async () => {
    const app = await makeToken('app_user');
    writeAppToken(scene.home, app.jwt);
    const result = await scene.run(['usage'], { env: { CODEXBAR_CURSOR_BASE_URL: 'http://example.com' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Refusing CODEXBAR_CURSOR_BASE_URL/);
  });

  it('a malformed config.json exits 1 naming the file and the problem', async () => {
    const file = writeConfig(scene.home, '{"version": 1, "providers": {}}');
    const result = await scene.run(['usage']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(file);
    expect(result.stderr).toMatch(/providers/);
  });
});

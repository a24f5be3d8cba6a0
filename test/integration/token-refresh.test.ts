/**
 * The opt-in token refresh (docs/api2.md, "Token refresh (opt-in)"): `--refresh-token` or
 * `"allowTokenRefresh": true` lets an expired or rejected Cursor app or cursor-agent token be refreshed at
 * the fake api2's `/oauth/token` for the run. Without the opt-in nothing is asked; with it, nothing is
 * written anywhere, and neither the refresh token nor the new token shows in any output or file.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { individualRpc } from '../fake-cursor/api2-usage.js';
import type { FakeAccount, FakeCursor, Handler } from '../fake-cursor/server.js';
import { proAccount } from '../helpers/accounts.js';
import type { CliResult } from '../helpers/cli.js';
import {
  makeToken,
  snapshotTree,
  type TestToken,
  writeAgentToken,
  writeAppToken,
  writeConfig,
} from '../helpers/home.js';
import { useScene } from '../helpers/scene.js';

const scene = useScene();
const REFRESH_TOKEN = 'app-refresh-token-0123456789abcdef';
const ROTATED = 'rotated-refresh-token-fedcba9876543210';
const OAUTH = '/oauth/token';
const USAGE_RPC = '/aiserver.v1.DashboardService/GetCurrentPeriodUsage';
const APP_DB = '~/.config/Cursor/User/globalStorage/state.vscdb';
const past = () => Math.floor(Date.now() / 1000) - 3600;
/** A later expiry than a plain makeToken's, so a refreshed token never equals the one it replaces. */
const later = () => Math.floor(Date.now() / 1000) + 2 * 86_400;

/** state.vscdb with this access token and `cursorAuth/refreshToken`, as Cursor keeps them. */
function writeAppLogin(accessToken: string, refreshToken = REFRESH_TOKEN): void {
  const dbPath = writeAppToken(scene.home, accessToken);
  const db = new Database(dbPath);
  try {
    db.prepare('INSERT INTO ItemTable (key, value) VALUES (?, ?)').run(
      'cursorAuth/refreshToken',
      refreshToken,
    );
  } finally {
    db.close();
  }
}

interface World {
  fake: FakeCursor;
  /** The token the fake's /oauth/token hands out. */
  fresh: TestToken;
  expired: TestToken;
}

/**
 * An expired app login; the fake cursor.com and api2 accept only the refreshed token. `oauth` replaces the
 * default answer (the fresh token for the right refresh token, 401 otherwise).
 */
async function expiredApp(
  options: {
    oauth?: Handler;
    account?: Partial<FakeAccount>;
    /** More accounts on the same fake, after the app's. */
    others?: FakeAccount[];
    /** The app's access token instead of an expired one (a token the fake rejects). */
    appToken?: TestToken;
  } = {},
): Promise<World> {
  const expired = options.appToken ?? (await makeToken('app_user', { exp: past() }));
  const fresh = await makeToken('app_user', { exp: later() });
  writeAppLogin(expired.jwt);
  const idToken = await makeToken('app_user', { email: 'id@example.com' });
  const oauth: Handler =
    options.oauth ??
    ((req) =>
      (req.body as { refresh_token?: string }).refresh_token === REFRESH_TOKEN
        ? { json: { access_token: fresh.jwt, id_token: idToken.jwt, shouldLogout: false } }
        : { status: 401, json: { access_token: '', id_token: '', shouldLogout: true } });
  const account = proAccount([fresh.cookieValue], 'app@example.com', {
    bearers: [fresh.jwt],
    rpc: individualRpc(),
    ...options.account,
  });
  const fake = await scene.serve([account, ...(options.others ?? [])], { api2: { oauthToken: oauth } });
  return { fake, fresh, expired };
}

const usage = (fake: FakeCursor, args: string[] = [], env: Record<string, string | undefined> = {}) =>
  scene.run(['usage', '--provider', 'cursor', '--json', '--verbose', ...args], {
    env: { CODEXBAR_CURSOR_API2_BASE_URL: fake.url, ...env },
  });

const oauthRequests = (fake: FakeCursor) => fake.requests.filter((r) => r.path === OAUTH);

/** Every file under the scene (HOME with Cursor's dirs, and its TMPDIR) except codexbar's own cache. */
function filesOutsideCache(): Map<string, string> {
  const tree = snapshotTree(scene.root);
  for (const file of tree.keys()) {
    if (file.startsWith(path.join('home', '.cache', 'codexbar'))) tree.delete(file);
  }
  return tree;
}

/** Neither secret in stdout, stderr or any file of the scene (codexbar's cache included). */
function expectNoSecret(result: CliResult, secrets: readonly string[]): void {
  const files = [...snapshotTree(scene.root).entries()].filter(
    ([file]) => !file.endsWith('state.vscdb') && !file.endsWith('auth.json'),
  );
  for (const secret of secrets) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
    const encoded = Buffer.from(secret).toString('base64');
    for (const [file, bytes] of files) {
      expect(Buffer.from(bytes, 'base64').toString('latin1'), file).not.toContain(secret);
      expect(bytes).not.toContain(encoded);
    }
  }
}

describe('without the opt-in nothing changes', () => {
  it('an expired app token is skipped as today, and nothing reaches /oauth/token', async () => {
    const { fake } = await expiredApp();
    const result = await usage(fake);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Skipped Cursor app token: Cursor app token is expired/);
    expect(oauthRequests(fake)).toEqual([]);
  });

  it('a rejected app token moves on to the next source without a refresh', async () => {
    const app = await makeToken('app_user');
    const agent = await makeToken('agent_user');
    writeAppLogin(app.jwt);
    writeAgentToken(scene.home, agent.jwt);
    const fake = await scene.serve(
      [
        proAccount([app.cookieValue], 'app@example.com', { usageSummary: { status: 401, json: {} } }),
        proAccount([agent.cookieValue], 'agent@example.com'),
      ],
      { api2: { oauthToken: { status: 500, json: {} } } },
    );
    const result = await usage(fake);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)[0].usage.accountEmail).toBe('agent@example.com');
    expect(oauthRequests(fake)).toEqual([]);
  });

  it('"allowTokenRefresh": false is no consent', async () => {
    const { fake } = await expiredApp();
    writeConfig(scene.home, { version: 1, providers: [{ id: 'cursor', allowTokenRefresh: false }] });
    const result = await usage(fake);
    expect(result.code).toBe(1);
    expect(oauthRequests(fake)).toEqual([]);
  });
});

describe('with the opt-in, an expired token is refreshed for the run', () => {
  it.each([
    ['--refresh-token', ['--refresh-token'], false],
    ['"allowTokenRefresh": true', [], true],
  ])(
    '%s: one refresh, the new token as the cookie, the refresh token never shown',
    async (_n, args, config) => {
      if (config)
        writeConfig(scene.home, { version: 1, providers: [{ id: 'cursor', allowTokenRefresh: true }] });
      const { fake, fresh } = await expiredApp();
      const before = filesOutsideCache();

      const result = await usage(fake, args);

      expect(result.code).toBe(0);
      const [row] = JSON.parse(result.stdout);
      expect(row.usage.accountEmail).toBe('app@example.com');
      const refreshes = oauthRequests(fake);
      expect(refreshes).toHaveLength(1);
      expect(refreshes[0]!.body).toEqual({
        grant_type: 'refresh_token',
        client_id: 'KbZUR41cY7W6zRSdpSUJ7I7mLYBKOCmB',
        refresh_token: REFRESH_TOKEN,
      });
      // The refresh sends no Bearer token and no cookie; the new token reaches cursor.com as the cookie only.
      expect(refreshes[0]!.headers.authorization).toBeUndefined();
      expect(refreshes[0]!.headers.cookie).toBeUndefined();
      const summary = fake.requests.filter((r) => r.path === '/api/usage-summary');
      expect(summary.map((r) => r.headers.cookie)).toEqual([`WorkosCursorSessionToken=${fresh.cookieValue}`]);
      expect(result.stderr).toContain('refreshing it for this run (token refresh is opted in)');
      expect(result.stderr).toContain(`[cursor] Using Cursor app token, refreshed for this run (${APP_DB})`);
      expect(result.stderr).not.toContain('Warning:');
      // Nothing written anywhere but codexbar's cache, which holds neither token.
      expect(filesOutsideCache()).toEqual(before);
      expectNoSecret(result, [REFRESH_TOKEN, fresh.jwt]);
    },
  );

  it("cursor-agent's expired token is refreshed from its refreshToken, auth.json left as it was", async () => {
    const expired = await makeToken('agent_user', { exp: past() });
    const fresh = await makeToken('agent_user');
    const file = path.join(scene.home, '.config', 'cursor', 'auth.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      JSON.stringify({ accessToken: expired.jwt, refreshToken: 'agent-refresh-0123456789' }),
      {
        mode: 0o600,
      },
    );
    const fake = await scene.serve([proAccount([fresh.cookieValue], 'agent@example.com')], {
      api2: {
        oauthToken: (req) =>
          (req.body as { refresh_token?: string }).refresh_token === 'agent-refresh-0123456789'
            ? { json: { access_token: fresh.jwt, id_token: '', shouldLogout: false } }
            : { status: 401, json: {} },
      },
    });
    const before = filesOutsideCache();

    const result = await usage(fake, ['--refresh-token']);

    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      '[cursor] Using cursor-agent token, refreshed for this run (~/.config/cursor/auth.json)',
    );
    expect(oauthRequests(fake)).toHaveLength(1);
    expect(filesOutsideCache()).toEqual(before);
    expectNoSecret(result, ['agent-refresh-0123456789', fresh.jwt]);
  });

  it('--source rpc: the refreshed token is the Bearer token of the Connect call', async () => {
    const { fake, fresh } = await expiredApp();
    const result = await usage(fake, ['--source', 'rpc', '--refresh-token']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)[0].source).toBe('rpc');
    const rpc = fake.requests.filter((r) => r.path === USAGE_RPC);
    expect(rpc.map((r) => r.headers.authorization)).toEqual([`Bearer ${fresh.jwt}`]);
    expectNoSecret(result, [REFRESH_TOKEN, fresh.jwt]);
  });

  it('an app login without a refresh token is skipped with a reason; nothing is asked', async () => {
    const expired = await makeToken('app_user', { exp: past() });
    writeAppToken(scene.home, expired.jwt);
    const fake = await scene.serve([], { api2: { oauthToken: { status: 500, json: {} } } });
    const result = await usage(fake, ['--refresh-token']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Skipped Cursor app token: no refresh token in ${APP_DB}`);
    expect(oauthRequests(fake)).toEqual([]);
  });
});

describe('with the opt-in, a rejected token is refreshed once and the source tried again', () => {
  it('cursor.com answers 401 to the app token: one refresh, then the new cookie works', async () => {
    const current = await makeToken('app_user');
    const fresh = await makeToken('app_user', { exp: later() });
    writeAppLogin(current.jwt);
    const fake = await scene.serve([proAccount([fresh.cookieValue], 'app@example.com')], {
      api2: { oauthToken: { json: { access_token: fresh.jwt, id_token: '', shouldLogout: false } } },
    });

    const result = await usage(fake, ['--refresh-token']);

    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'Cursor app token was rejected (HTTP 401); refreshing it for this run (token refresh is opted in)',
    );
    expect(oauthRequests(fake)).toHaveLength(1);
    const summary = fake.requests.filter((r) => r.path === '/api/usage-summary');
    expect(summary.map((r) => r.headers.cookie)).toEqual([
      `WorkosCursorSessionToken=${current.cookieValue}`,
      `WorkosCursorSessionToken=${fresh.cookieValue}`,
    ]);
  });

  it('api2 answers 401 to the app token under --source rpc: one refresh, then the new Bearer works', async () => {
    const current = await makeToken('app_user');
    const { fake, fresh } = await expiredApp({ appToken: current });
    const result = await usage(fake, ['--source', 'rpc', '--refresh-token']);
    expect(result.code).toBe(0);
    const rpc = fake.requests.filter((r) => r.path === USAGE_RPC);
    expect(rpc.map((r) => r.headers.authorization)).toEqual([`Bearer ${current.jwt}`, `Bearer ${fresh.jwt}`]);
    expect(oauthRequests(fake)).toHaveLength(1);
  });

  it('a refreshed token that is rejected too is not refreshed again; the ladder moves on', async () => {
    const current = await makeToken('app_user');
    const fresh = await makeToken('app_user', { exp: later() });
    writeAppLogin(current.jwt);
    const fake = await scene.serve(
      [proAccount([fresh.cookieValue], 'app@example.com', { usageSummary: { status: 401, json: {} } })],
      {
        api2: { oauthToken: { json: { access_token: fresh.jwt, shouldLogout: false } } },
      },
    );
    const result = await usage(fake, ['--refresh-token']);
    expect(result.code).toBe(1);
    expect(oauthRequests(fake)).toHaveLength(1);
    expect(JSON.parse(result.stdout)[0].error.message).toMatch(
      /^Not logged in to Cursor: every session was rejected/,
    );
  });
});

describe('a refused refresh is "not logged in", with a hint to sign in again', () => {
  it.each([
    [
      '401 with shouldLogout',
      { status: 401, json: { access_token: '', id_token: '', shouldLogout: true } },
      'failed (HTTP 401)',
    ],
    [
      '400 with shouldLogout',
      { status: 400, json: { access_token: '', id_token: '', shouldLogout: true } },
      'failed (HTTP 400)',
    ],
    [
      '200 with shouldLogout',
      { json: { access_token: '', id_token: '', shouldLogout: true } },
      'asked to sign in again',
    ],
    ['a 500', { status: 500, text: '<html>oops</html>' }, 'failed (HTTP 500)'],
    ['an answer that is not JSON', { text: 'not json' }, 'not the JSON it documents'],
  ] as const)('%s', async (_name, answer, words) => {
    const { fake, expired } = await expiredApp({ oauth: answer });
    const text = await scene.run(['usage', '--provider', 'cursor', '--refresh-token'], {
      env: { CODEXBAR_CURSOR_API2_BASE_URL: fake.url },
    });
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/^Error: Not logged in to Cursor: every session was rejected\./);
    expect(text.stderr).toContain(words);
    expect(text.stderr).toContain(
      'Hint: Sign in to Cursor again: open the Cursor app and sign in, or run `cursor-agent login`.',
    );
    expect(fake.requests.filter((r) => r.path === '/api/usage-summary')).toEqual([]);
    const json = await usage(fake, ['--refresh-token']);
    expect(JSON.parse(json.stdout)[0].error.message).toContain(words);
    expectNoSecret(text, [REFRESH_TOKEN, expired.jwt]);
    expectNoSecret(json, [REFRESH_TOKEN, expired.jwt]);
  });

  it('a refusal moves on to the next source', async () => {
    const agent = await makeToken('agent_user');
    writeAgentToken(scene.home, agent.jwt);
    const { fake } = await expiredApp({
      oauth: { status: 401, json: { shouldLogout: true } },
      others: [proAccount([agent.cookieValue], 'agent@example.com')],
    });
    const result = await usage(fake, ['--refresh-token']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)[0].usage.accountEmail).toBe('agent@example.com');
    expect(result.stderr).toContain(
      'Refreshing the Cursor app token failed (HTTP 401); trying the next source',
    );
  });

  it('a 200 without an access token is a transient error that ends the run', async () => {
    const { fake } = await expiredApp({ oauth: { json: { shouldLogout: false } } });
    const result = await usage(fake, ['--refresh-token']);
    expect(result.code).toBe(1);
    const [row] = JSON.parse(result.stdout);
    expect(row.error.message).toContain('refreshing the Cursor app token gave no access token');
    expect(row.error.message).toContain('POST /oauth/token');
  });
});

describe('a rotated refresh token', () => {
  it('is warned about once on stderr, even without --verbose, and kept nowhere', async () => {
    const { fake, fresh } = await expiredApp({
      oauth: () => ({
        json: { access_token: fresh.jwt, id_token: '', shouldLogout: false, refresh_token: ROTATED },
      }),
    });
    // `fresh` is read when the fake answers, after expiredApp has made it.
    const before = filesOutsideCache();
    const result = await scene.run(['usage', '--provider', 'cursor', '--refresh-token'], {
      env: { CODEXBAR_CURSOR_API2_BASE_URL: fake.url },
    });
    expect(result.code).toBe(0);
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('Warning:'));
    expect(warnings).toEqual([
      "Warning: Cursor rotated the refresh token when codexbar refreshed the Cursor app token; codexbar did not keep the new one, so the Cursor app's copy may now be stale (sign in there again if it stops working).",
    ]);
    expect(filesOutsideCache()).toEqual(before);
    expectNoSecret(result, [REFRESH_TOKEN, ROTATED, fresh.jwt]);
  });

  it('--json-only keeps stderr silent', async () => {
    const { fake, fresh } = await expiredApp({
      oauth: () => ({ json: { access_token: fresh.jwt, refresh_token: ROTATED } }),
    });
    const result = await scene.run(['usage', '--provider', 'cursor', '--json-only', '--refresh-token'], {
      env: { CODEXBAR_CURSOR_API2_BASE_URL: fake.url },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });
});

describe('cost', () => {
  it('refreshes an expired app token with the opt-in, and asks nothing without it', async () => {
    const { fake } = await expiredApp({ account: { events: { events: [] } } });
    const without = await scene.run(['cost', '--json', '--days', '1'], {
      env: { CODEXBAR_CURSOR_API2_BASE_URL: fake.url },
    });
    expect(without.code).toBe(1);
    expect(oauthRequests(fake)).toEqual([]);
    const withFlag = await scene.run(['cost', '--json', '--days', '1', '--refresh-token'], {
      env: { CODEXBAR_CURSOR_API2_BASE_URL: fake.url },
    });
    expect(withFlag.code).toBe(0);
    expect(oauthRequests(fake)).toHaveLength(1);
  });
});

/**
 * CI sign-in with `CURSOR_API_KEY` (docs/api2.md, "API-key sign-in (CI)"): a Cursor user API key (`crsr_…`)
 * exchanged at the fake api2's `/auth/exchange_user_api_key` for a short-lived token that opens api2's door
 * only. The source at the level of `load`, then end to end: last in the order, used only when the variable
 * holds such a key, skipped by `cost`, and the key and its token never shown or written.
 */
import { describe, expect, it } from 'vitest';
import { proxySettings } from '../../src/api/transport.js';
import type { Api2Access } from '../../src/auth/api2-access.js';
import { load } from '../../src/auth/sources/api-key.js';
import { ApiError, NotLoggedInError } from '../../src/errors.js';
import { individualRpc } from '../fake-cursor/api2-usage.js';
import type { FakeCursor, Handler } from '../fake-cursor/server.js';
import { proAccount } from '../helpers/accounts.js';
import type { CliResult } from '../helpers/cli.js';
import { makeToken, snapshotTree, type TestToken, writeAppToken } from '../helpers/home.js';
import { expectSkip, localEnvironment } from '../helpers/local-sources.js';
import { useScene } from '../helpers/scene.js';

const scene = useScene();
const KEY = 'crsr_0123456789abcdef0123456789abcdef';
const EXCHANGE = '/auth/exchange_user_api_key';
const USAGE_RPC = '/aiserver.v1.DashboardService/GetCurrentPeriodUsage';

/** The fake exchanges KEY for `token`, and api2 accepts `token` for the usage methods. */
async function keyWorld(
  options: { exchange?: Handler; rpc?: ReturnType<typeof individualRpc> } = {},
): Promise<{ fake: FakeCursor; token: TestToken }> {
  const token = await makeToken('key_user', { email: 'ci@example.com' });
  const exchange: Handler =
    options.exchange ??
    ((req) =>
      req.headers.authorization === `Bearer ${KEY}`
        ? { json: { accessToken: token.jwt, refreshToken: token.jwt } }
        : { status: 401, json: { code: 'unauthenticated', message: 'bad key' } });
  const fake = await scene.serve(
    [{ cookies: [], bearers: [token.jwt], rpc: options.rpc ?? individualRpc() }],
    {
      api2: { exchangeApiKey: exchange },
    },
  );
  return { fake, token };
}

function access(fake: FakeCursor, warnings: string[] = []): Api2Access {
  return {
    baseUrl: fake.url,
    proxy: proxySettings({}),
    timeoutMs: 5000,
    warn: (line) => warnings.push(line),
  };
}

const exchanges = (fake: FakeCursor) => fake.requests.filter((r) => r.path === EXCHANGE);

const run = (fake: FakeCursor, args: string[], env: Record<string, string | undefined> = {}) =>
  scene.run([...args, '--verbose'], {
    env: { CODEXBAR_CURSOR_API2_BASE_URL: fake.url, CURSOR_API_KEY: KEY, ...env },
  });

function expectNoSecret(result: CliResult, secrets: readonly string[]): void {
  const files = [...snapshotTree(scene.root).values()].map((b) =>
    Buffer.from(b, 'base64').toString('latin1'),
  );
  for (const secret of secrets) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
    for (const file of files) expect(file).not.toContain(secret);
  }
}

describe('the source (load)', () => {
  it('is skipped when CURSOR_API_KEY is unset or blank, and asks nothing', async () => {
    const { fake } = await keyWorld();
    for (const value of [undefined, '', '   ']) {
      const env = localEnvironment(scene.home, value === undefined ? {} : { env: { CURSOR_API_KEY: value } });
      expectSkip(await load(env, access(fake)), 'absent', 'CURSOR_API_KEY is not set');
    }
    expect(fake.requests).toEqual([]);
  });

  it.each(['sk-proj-abcdefghijklmnop', 'key_0123456789abcdef', 'CRSR_0123456789'])(
    'a value that is not a crsr_ key (%s) is skipped without quoting it',
    async (value) => {
      const { fake } = await keyWorld();
      const result = await load(
        localEnvironment(scene.home, { env: { CURSOR_API_KEY: value } }),
        access(fake),
      );
      expectSkip(
        result,
        'not-applicable',
        'CURSOR_API_KEY is set but does not hold a Cursor user API key (crsr_…)',
      );
      expect(JSON.stringify(result)).not.toContain(value);
      expect(fake.requests).toEqual([]);
    },
  );

  it('a crsr_ key is exchanged once (Bearer key, body {}) for an rpc-only session with no cookie', async () => {
    const { fake, token } = await keyWorld();
    const result = await load(
      localEnvironment(scene.home, { env: { CURSOR_API_KEY: ` ${KEY}\n` } }),
      access(fake),
    );
    expect(result.kind).toBe('session');
    if (result.kind !== 'session') return;
    expect(result.session).toMatchObject({
      source: 'apikey',
      cookieHeader: '',
      accessToken: token.jwt,
      rpcOnly: true,
      description: 'Cursor API key (CURSOR_API_KEY), exchanged for an access token for this run',
    });
    expect(result.session.jwt?.userId).toBe('key_user');
    const [sent] = exchanges(fake);
    expect(exchanges(fake)).toHaveLength(1);
    expect(sent!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent!.headers.cookie).toBeUndefined();
    expect(sent!.body).toEqual({});
  });

  it.each([
    [
      'a 401',
      { status: 401, json: { code: 'unauthenticated' } },
      NotLoggedInError,
      'api2 refused the key in CURSOR_API_KEY (HTTP 401 on POST /auth/exchange_user_api_key)',
    ],
    [
      'a 403',
      { status: 403, json: { code: 'permission_denied' } },
      NotLoggedInError,
      'api2 refused the key in CURSOR_API_KEY (HTTP 403 on POST /auth/exchange_user_api_key)',
    ],
    [
      'a 500',
      { status: 500, text: `<html>${KEY}</html>` },
      ApiError,
      'exchanging CURSOR_API_KEY failed: HTTP 500',
    ],
    ['a body that is not JSON', { text: `oops ${KEY}` }, ApiError, 'not the documented JSON'],
    ['a 200 without a token', { json: {} }, ApiError, 'exchanging CURSOR_API_KEY gave no access token'],
  ] as const)('%s is a clear error that never quotes the key', async (_name, answer, type, words) => {
    const { fake } = await keyWorld({ exchange: answer });
    const env = localEnvironment(scene.home, { env: { CURSOR_API_KEY: KEY } });
    const error = await load(env, access(fake)).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(type);
    expect((error as Error).message).toContain(words);
    expect((error as Error).message).toContain('/auth/exchange_user_api_key');
    expect((error as Error).message).not.toContain(KEY);
  });
});

describe('end to end', () => {
  it('with only CURSOR_API_KEY, usage reads the rpc door with the exchanged token', async () => {
    const { fake, token } = await keyWorld();
    const before = snapshotTree(scene.home);
    const result = await run(fake, ['usage', '--json']);
    expect(result.code).toBe(0);
    const [row] = JSON.parse(result.stdout);
    expect(row.source).toBe('rpc');
    expect(row.usage.primary.usedPercent).toBe(15.48);
    expect(result.stderr).toContain(
      '[cursor] Using Cursor API key (CURSOR_API_KEY), exchanged for an access token for this run',
    );
    expect(exchanges(fake)).toHaveLength(1);
    const rpc = fake.requests.filter((r) => r.path === USAGE_RPC);
    expect(rpc.map((r) => r.headers.authorization)).toEqual([`Bearer ${token.jwt}`]);
    // cursor.com never hears of it: every request went to api2, none with a cookie.
    expect(fake.requests.every((r) => r.path === EXCHANGE || r.path.startsWith('/aiserver.v1.'))).toBe(true);
    expect(fake.requests.every((r) => r.headers.cookie === undefined)).toBe(true);
    // Only codexbar's cache is new.
    const after = snapshotTree(scene.home);
    for (const [file, bytes] of before) expect(after.get(file)).toBe(bytes);
    for (const file of after.keys()) if (!before.has(file)) expect(file).toMatch(/^\.cache\/codexbar\//);
    expectNoSecret(result, [KEY, token.jwt]);
  });

  it('guard gates CI on it (the README recipe)', async () => {
    const { fake, token } = await keyWorld();
    const ok = await run(fake, ['guard', '--min-remaining', '20', '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ decision: 'ok', remainingPercent: 84.52 });
    const blocked = await run(fake, ['guard', '--min-remaining', '90']);
    expect(blocked.code).toBe(1);
    expectNoSecret(blocked, [KEY, token.jwt]);
  });

  it('--source rpc may use it', async () => {
    const { fake } = await keyWorld();
    const result = await run(fake, ['usage', '--json', '--source', 'rpc']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)[0].source).toBe('rpc');
  });

  it('is last: a usable app token wins and the key is never exchanged', async () => {
    const app = await makeToken('app_user');
    writeAppToken(scene.home, app.jwt);
    const token = await makeToken('key_user');
    const fake = await scene.serve([proAccount([app.cookieValue], 'app@example.com')], {
      api2: { exchangeApiKey: { json: { accessToken: token.jwt } } },
    });
    const result = await run(fake, ['usage', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)[0].usage.accountEmail).toBe('app@example.com');
    expect(exchanges(fake)).toEqual([]);
  });

  it('is not used without the variable, or with --source web', async () => {
    const { fake } = await keyWorld();
    const unset = await run(fake, ['usage', '--json'], { CURSOR_API_KEY: undefined });
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain('Skipped Cursor API key: CURSOR_API_KEY is not set');
    const web = await run(fake, ['usage', '--json', '--source', 'web']);
    expect(web.code).toBe(1);
    expect(web.stderr).not.toContain('Cursor API key');
    expect(exchanges(fake)).toEqual([]);
  });

  it('a value that is not a crsr_ key is skipped with a reason that does not quote it', async () => {
    const { fake } = await keyWorld();
    const result = await run(fake, ['usage', '--json'], { CURSOR_API_KEY: 'sk-not-a-cursor-key-123456' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Skipped Cursor API key: CURSOR_API_KEY is set but does not hold a Cursor user API key (crsr_…)',
    );
    expectNoSecret(result, ['sk-not-a-cursor-key-123456']);
    expect(exchanges(fake)).toEqual([]);
  });

  it('cost skips it with a clear reason, exchanges nothing and sends cursor.com nothing', async () => {
    const { fake } = await keyWorld();
    const result = await run(fake, ['cost', '--json', '--days', '1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Skipped Cursor API key: CURSOR_API_KEY signs in to api2 only, and cost reads cursor.com, which never gets that token',
    );
    expect(exchanges(fake)).toEqual([]);
    expect(fake.requests).toEqual([]);
    expect(JSON.parse(result.stdout)[0].error.message).toContain('CURSOR_API_KEY signs in to api2 only');
  });

  it.each([
    ['a 401', { status: 401, json: { code: 'unauthenticated', message: 'Error' } }, 'HTTP 401'],
    ['a 403', { status: 403, json: { code: 'permission_denied', message: 'Error' } }, 'HTTP 403'],
  ] as const)(
    'api2 refusing the exchanged token for usage (%s) says exactly that',
    async (_n, answer, status) => {
      const rpc = individualRpc();
      rpc['DashboardService/GetCurrentPeriodUsage'] = answer;
      const { fake, token } = await keyWorld({ rpc });
      const result = await run(fake, ['usage']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `Error: api2 did not accept the access token exchanged for CURSOR_API_KEY for usage (${status}); that this works is unverified. Sign in another way: sign in to the Cursor app or run \`cursor-agent login\` on this machine, or set CODEXBAR_CURSOR_COOKIE to a Cookie header copied from a signed-in cursor.com tab.`,
      );
      expectNoSecret(result, [KEY, token.jwt]);
    },
  );

  it('a refused key ends the run as not logged in, with the hint to mint a new one', async () => {
    const { fake } = await keyWorld({ exchange: { status: 401, json: { code: 'unauthenticated' } } });
    const result = await run(fake, ['usage']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Error: Not logged in to Cursor: every session was rejected.');
    expect(result.stderr).toContain(
      'api2 refused the key in CURSOR_API_KEY (HTTP 401 on POST /auth/exchange_user_api_key)',
    );
    expect(result.stderr).toContain('mint a new user API key');
    expectNoSecret(result, [KEY]);
  });
});

describe('doctor', () => {
  const doctor = (fake: FakeCursor, args: string[] = []) =>
    scene.run(['doctor', ...args], { env: { CODEXBAR_CURSOR_API2_BASE_URL: fake.url, CURSOR_API_KEY: KEY } });

  it('lists the key last, checks the rpc door with it, and asks cursor.com nothing', async () => {
    const { fake, token } = await keyWorld();
    const result = await doctor(fake);
    expect(result.stdout).toMatch(
      /Cursor API key\s+found\s+Cursor API key \(CURSOR_API_KEY\), exchanged for an access token for this run \(opens api2 only: see the rpc door\)/,
    );
    expect(result.stdout).toMatch(
      /rpc \(api2\)\s+answers\s+POST \/aiserver\.v1\.DashboardService\/GetCurrentPeriodUsage answered for the Cursor API key/,
    );
    expect(result.stdout).toMatch(/web \(cursor\.com\)\s+unchecked/);
    // A CI runner with only the key is not told that it has no session.
    expect(result.stdout).not.toContain('No Cursor session was found');
    // cursor.com hears only doctor's reachability check, with no credential.
    const toCursorCom = fake.requests.filter(
      (r) => r.path !== EXCHANGE && !r.path.startsWith('/aiserver.v1.'),
    );
    expect(
      toCursorCom.every((r) => r.headers.authorization === undefined && r.headers.cookie === undefined),
    ).toBe(true);
    expect(toCursorCom.map((r) => r.path)).not.toContain('/api/usage-summary');
    expectNoSecret(result, [KEY, token.jwt]);
  });

  it('a refused key is reported rejected, with the hint to mint a new one; the JSON says so too', async () => {
    const { fake } = await keyWorld({ exchange: { status: 401, json: { code: 'unauthenticated' } } });
    const text = await doctor(fake);
    expect(text.stdout).toMatch(
      /Cursor API key\s+rejected\s+api2 refused the key in CURSOR_API_KEY \(HTTP 401 on POST \/auth\/exchange_user_api_key\)/,
    );
    expect(text.stdout).toContain('mint a new user API key');
    const json = await doctor(fake, ['--json']);
    const report = JSON.parse(json.stdout) as { authSources: { id: string; state: string }[] };
    expect(report.authSources.find((source) => source.id === 'apikey')?.state).toBe('rejected');
    expectNoSecret(json, [KEY]);
  });

  it('beside a manual cookie header, which is final, the key is neither listed nor exchanged', async () => {
    const { fake } = await keyWorld();
    const result = await scene.run(['doctor'], {
      env: {
        CODEXBAR_CURSOR_API2_BASE_URL: fake.url,
        CURSOR_API_KEY: KEY,
        CODEXBAR_CURSOR_COOKIE: 'WorkosCursorSessionToken=unknown',
      },
    });
    expect(result.stdout).not.toContain('Cursor API key');
    expect(exchanges(fake)).toHaveLength(0);
  });

  it('without the variable, the key is listed as not set and nothing is exchanged', async () => {
    const { fake } = await keyWorld();
    const result = await scene.run(['doctor'], { env: { CODEXBAR_CURSOR_API2_BASE_URL: fake.url } });
    expect(result.stdout).toMatch(/Cursor API key\s+skipped\s+CURSOR_API_KEY is not set/);
    expect(exchanges(fake)).toHaveLength(0);
  });
});

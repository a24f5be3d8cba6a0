/**
 * `usage` through api2's Connect RPCs (docs/api2.md): `--source rpc`, the automatic fallback from a changed
 * cursor.com endpoint, sparse Enterprise payloads, malformed answers, and the row's source. Everything runs
 * against the fake cursor.com and fake api2 over real HTTP, with a real state.vscdb and real JWTs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bothDoors,
  enterpriseSparseRpc,
  individualRpc,
  teamRpc,
  unlimitedOnDemandRpc,
} from '../fake-cursor/api2-usage.js';
import type { FakeAccount, FakeCursor, FakeResponse } from '../fake-cursor/server.js';
import { makeToken, writeAppToken } from '../helpers/home.js';
import { useScene } from '../helpers/scene.js';

const scene = useScene();
const USAGE_RPC = '/aiserver.v1.DashboardService/GetCurrentPeriodUsage';
const EMAIL = 'dev@example.com';
const NOW = new Date('2026-12-01T12:00:00Z');

async function appAccount(build: (cookie: string, bearer: string) => FakeAccount) {
  const token = await makeToken('app_user', { email: EMAIL });
  writeAppToken(scene.home, token.jwt);
  const fake = await scene.serve([build(token.cookieValue, token.jwt)]);
  return { token, fake };
}

const usage = (fake: FakeCursor, args: string[] = [], env: Record<string, string | undefined> = {}) =>
  scene.run(['usage', '--provider', 'cursor', '--verbose', ...args], {
    env: { CODEXBAR_CURSOR_API2_BASE_URL: fake.url, ...env },
    // One clock for both doors, so pace and the reset text compare exactly.
    now: NOW,
    frozen: true,
  });

const paths = (fake: FakeCursor) => fake.requests.map((r) => r.path.split('?')[0] ?? '');

/** The row without what differs by door or by the clock. */
function comparable(stdout: string) {
  const [row] = JSON.parse(stdout);
  const { source, ...rest } = row;
  delete rest.usage.updatedAt;
  delete rest.usage.providerCost?.updatedAt;
  return { source, rest };
}

describe('both doors describe one account alike', () => {
  it('the same percents, reset, on-demand and plan in JSON; only the source differs', async () => {
    const { fake } = await appAccount((cookie, bearer) => bothDoors([cookie], [bearer], EMAIL));
    const web = await usage(fake, ['--json']);
    const rpc = await usage(fake, ['--json', '--source', 'rpc']);
    expect(web.code).toBe(0);
    expect(rpc.code).toBe(0);
    const a = comparable(web.stdout);
    const b = comparable(rpc.stdout);
    expect(a.source).toBe('web');
    expect(b.source).toBe('rpc');
    expect(b.rest).toEqual(a.rest);
    expect(b.rest.usage.primary.usedPercent).toBe(45);
    expect(b.rest.usage.secondary.usedPercent).toBe(30);
    expect(b.rest.usage.tertiary.usedPercent).toBe(60);
    expect(b.rest.usage.providerCost).toMatchObject({ used: 12.34, limit: 50 });
    expect(b.rest.usage.loginMethod).toBe('Cursor Pro');
  });

  it('the same text', async () => {
    const { fake } = await appAccount((cookie, bearer) => bothDoors([cookie], [bearer], EMAIL));
    const web = await usage(fake);
    const rpc = await usage(fake, ['--source', 'rpc']);
    expect(rpc.code).toBe(0);
    expect(rpc.stdout).toBe(web.stdout);
  });

  it('the same statusline, live and from the snapshot each door saved', async () => {
    const { fake } = await appAccount((cookie, bearer) => bothDoors([cookie], [bearer], EMAIL));
    const line = (args: string[] = []) =>
      scene.run(['statusline', ...args], {
        env: { CODEXBAR_CURSOR_API2_BASE_URL: fake.url },
        now: NOW,
        frozen: true,
      });
    const web = await line();
    const webCached = await line();
    expect((await scene.run(['cache', 'clear', '--all'])).code).toBe(0);
    const before = fake.requests.length;
    const rpc = await line(['--source', 'rpc']);
    const asked = paths(fake).slice(before);
    expect(asked.every((p) => p.startsWith('/aiserver.v1.'))).toBe(true);
    const rpcCached = await line(['--source', 'rpc']);
    expect(web.code).toBe(0);
    expect(web.stdout).toMatch(/^Cursor \d+% left · /);
    expect([webCached.stdout, rpc.stdout, rpcCached.stdout]).toEqual([web.stdout, web.stdout, web.stdout]);
  });

  it('--source rpc sends no cookie to api2 and never asks cursor.com', async () => {
    const { fake, token } = await appAccount((cookie, bearer) => bothDoors([cookie], [bearer], EMAIL));
    const result = await usage(fake, ['--json', '--source', 'rpc']);
    expect(result.code).toBe(0);
    expect(paths(fake).every((p) => p.startsWith('/aiserver.v1.'))).toBe(true);
    for (const request of fake.requests) expect(request.headers.cookie).toBeUndefined();
    expect(result.stdout + result.stderr).not.toContain(token.jwt);
  });
});

describe('the automatic fallback', () => {
  const failing = (summary: FakeResponse) => (cookie: string, bearer: string) => ({
    ...bothDoors([cookie], [bearer], EMAIL),
    usageSummary: summary,
  });

  it.each([
    ['a 404', { status: 404, json: {} }, 'HTTP 404'],
    ['a 502', { status: 502, text: '<html>bad gateway</html>' }, 'HTTP 502'],
    ['a body that does not parse', { text: '<html>moved</html>' }, 'unexpected response shape'],
    [
      'a wrong-typed body',
      { json: { individualUsage: { plan: { used: 'lots' } } } },
      'unexpected response shape',
    ],
  ])('fires on %s, says so under --verbose, and the row names rpc', async (_name, summary, reason) => {
    const { fake } = await appAccount(failing(summary as FakeResponse));
    const result = await usage(fake, ['--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      `[cursor] GET /api/usage-summary failed (${reason}); reading usage through api2's Connect RPCs`,
    );
    const [row] = JSON.parse(result.stdout);
    expect(row.source).toBe('rpc');
    expect(row.usage.primary.usedPercent).toBe(45);
    expect(paths(fake)).toContain(USAGE_RPC);
  });

  it('does not fire on a 401: the ladder is walked as before', async () => {
    const { fake } = await appAccount(failing({ status: 401, json: {} }));
    const result = await usage(fake, ['--json']);
    expect(result.code).toBe(1);
    expect(paths(fake)).not.toContain(USAGE_RPC);
    expect(result.stderr).toContain('was rejected (HTTP 401)');
  });

  it('does not fire for --source web', async () => {
    const { fake } = await appAccount(failing({ status: 404, json: {} }));
    const result = await usage(fake, ['--json', '--source', 'web']);
    expect(result.code).toBe(1);
    expect(paths(fake)).not.toContain(USAGE_RPC);
  });
});

describe('api2 payloads', () => {
  const rpcOnly = (rpc: FakeAccount['rpc']) => (cookie: string, bearer: string) => ({
    cookies: [cookie],
    bearers: [bearer],
    rpc,
  });

  it('an individual Ultra seat: the percents as reported, never spend over limit', async () => {
    const { fake } = await appAccount(rpcOnly(individualRpc()));
    const result = await usage(fake, ['--json', '--source', 'rpc']);
    expect(result.code).toBe(0);
    const { usage: u } = JSON.parse(result.stdout)[0];
    expect(u.primary.usedPercent).toBe(15.48);
    expect(u.tertiary.usedPercent).toBe(46.444);
    expect(u.secondary).toBeNull();
    expect(u.primary.resetsAt).toBe('2026-12-15T00:00:00Z');
    expect(u.loginMethod).toBe('Cursor Ultra');
    expect(u.accountEmail).toBe(EMAIL);
  });

  it('a team seat: the pooled budget with the member share; a denied team method is not applicable', async () => {
    const { fake } = await appAccount(rpcOnly(teamRpc()));
    const result = await usage(fake, ['--json', '--source', 'rpc']);
    expect(result.code).toBe(0);
    const { usage: u } = JSON.parse(result.stdout)[0];
    expect(u.providerCost).toMatchObject({ used: 250, limit: 1000, personalUsed: 7 });
    expect(result.stderr).toContain('GetHardLimit does not apply to this account');
  });

  it('an Enterprise seat without planUsage shows the cycle and the plan, not "no subscription"', async () => {
    const { fake } = await appAccount(rpcOnly(enterpriseSparseRpc()));
    const result = await usage(fake, ['--source', 'rpc']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Cursor Enterprise');
    expect(result.stdout).toMatch(/Resets/);
    expect(result.stdout).not.toMatch(/subscription/i);
  });

  it('a sparse payload takes its percent from the display message', async () => {
    const { fake } = await appAccount(
      rpcOnly(enterpriseSparseRpc("You've used 42% of your included total usage")),
    );
    const result = await usage(fake, ['--json', '--source', 'rpc']);
    expect(JSON.parse(result.stdout)[0].usage.primary.usedPercent).toBe(42);
  });

  it('unlimited on-demand (GetHardLimit ≥ 1e8) shows the spend with no cap', async () => {
    const { fake } = await appAccount(rpcOnly(unlimitedOnDemandRpc()));
    const result = await usage(fake, ['--json', '--source', 'rpc']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)[0].usage.providerCost).toMatchObject({ used: 98.76, limit: 0 });
  });

  it.each([
    ['a percent above 100', { planUsage: { totalPercentUsed: 140 } }, 'planUsage.totalPercentUsed'],
    ['a percent below 0', { planUsage: { apiPercentUsed: -1 } }, 'planUsage.apiPercentUsed'],
    ['a negative spend', { spendLimitUsage: { individualUsed: -5 } }, 'spendLimitUsage.individualUsed'],
    ['a wrong type', { billingCycleEnd: true }, 'billingCycleEnd'],
  ])('%s is reported invalid, naming the method and the field, exit 1', async (_name, json, field) => {
    const { fake } = await appAccount(rpcOnly({ 'DashboardService/GetCurrentPeriodUsage': { json } }));
    const result = await usage(fake, ['--source', 'rpc']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('POST /aiserver.v1.DashboardService/GetCurrentPeriodUsage');
    expect(result.stderr).toContain(field);
    expect(result.stdout).not.toMatch(/140|%/);
  });

  it('an HTML answer is an error naming the method, exit 1', async () => {
    const { fake } = await appAccount(
      rpcOnly({ 'DashboardService/GetCurrentPeriodUsage': { text: '<html>oops</html>' } }),
    );
    const result = await usage(fake, ['--source', 'rpc']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('GetCurrentPeriodUsage');
  });

  it('an endless body is capped', async () => {
    const { fake } = await appAccount(
      rpcOnly({ 'DashboardService/GetCurrentPeriodUsage': { stream: { chunk: '{"a":'.repeat(1000) } } }),
    );
    const result = await usage(fake, ['--source', 'rpc']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /response larger than 2 MiB \(POST \/aiserver\.v1\.DashboardService\/GetCurrentPeriodUsage\)/,
    );
  });
});

describe('sessions and the cache', () => {
  it('--source rpc with a manual cookie fails clearly and names the ways that open api2', async () => {
    const token = await makeToken('app_user', { email: EMAIL });
    const fake = await scene.serve([bothDoors([token.cookieValue], [token.jwt], EMAIL)]);
    const result = await usage(fake, ['--source', 'rpc'], {
      CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${token.cookieValue}`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('a cookie cannot open api2');
    expect(result.stderr).toMatch(/Cursor app.*cursor-agent login.*CURSOR_API_KEY/s);
    expect(fake.requests).toHaveLength(0);
    expect(result.stderr).not.toContain(token.cookieValue);
  });

  it('a cached rpc snapshot still says rpc, and the cache is the only thing written', async () => {
    const { fake } = await appAccount((cookie, bearer) => bothDoors([cookie], [bearer], EMAIL));
    const first = await usage(fake, ['--json', '--source', 'rpc']);
    expect(first.code).toBe(0);
    const before = fake.requests.length;
    const second = await scene.run(
      ['usage', '--provider', 'cursor', '--verbose', '--json', '--source', 'rpc', '--max-age', '600'],
      { env: { CODEXBAR_CURSOR_API2_BASE_URL: fake.url }, now: new Date(NOW.getTime() + 60_000) },
    );
    expect(second.code).toBe(0);
    expect(fake.requests.length).toBe(before);
    expect(JSON.parse(second.stdout)[0].source).toBe('rpc');
    expect(second.stderr).toContain('[cache] Using the snapshot');
    const written = listFiles(scene.home).filter((file) => !file.includes(`${path.sep}Cursor${path.sep}`));
    expect(written.every((file) => file.includes(`${path.sep}codexbar${path.sep}`))).toBe(true);
  });
});

function listFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .flatMap((entry) => (entry.isFile() ? [path.join(entry.parentPath, entry.name)] : []));
}

describe('doctor reports both doors', () => {
  it('each door answers, and no credential is printed', async () => {
    const { fake, token } = await appAccount((cookie, bearer) => bothDoors([cookie], [bearer], EMAIL));
    const result = await scene.run(['doctor'], { env: { CODEXBAR_CURSOR_API2_BASE_URL: fake.url } });
    expect(result.stdout).toMatch(/web \(cursor\.com\)\s+answers\s+GET \/api\/usage-summary answered/);
    expect(result.stdout).toMatch(
      /rpc \(api2\)\s+answers\s+POST \/aiserver\.v1\.DashboardService\/GetCurrentPeriodUsage answered for the Cursor app token/,
    );
    expect(result.stdout + result.stderr).not.toContain(token.jwt);
    expect(result.stdout + result.stderr).not.toContain(token.cookieValue);
    expect(fake.requests.find((r) => r.path === USAGE_RPC)?.headers.cookie).toBeUndefined();
  });

  it('the JSON report carries both doors too', async () => {
    const { fake, token } = await appAccount((cookie, bearer) => bothDoors([cookie], [bearer], EMAIL));
    const result = await scene.run(['doctor', '--json'], {
      env: { CODEXBAR_CURSOR_API2_BASE_URL: fake.url },
    });
    const report = JSON.parse(result.stdout) as { doors: { door: string; state: string; detail: string }[] };
    expect(report.doors.map(({ door, state }) => [door, state])).toEqual([
      ['web', 'answers'],
      ['rpc', 'answers'],
    ]);
    expect(result.stdout).not.toContain(token.jwt);
  });

  it('an access token api2 does not know is reported rejected', async () => {
    const { fake } = await appAccount((cookie) => bothDoors([cookie], [], EMAIL));
    const result = await scene.run(['doctor'], { env: { CODEXBAR_CURSOR_API2_BASE_URL: fake.url } });
    expect(result.stdout).toMatch(/rpc \(api2\)\s+rejected\s+.*\(HTTP 401\)/);
  });

  it('with only a cookie, the rpc door is not checked and says why', async () => {
    const token = await makeToken('app_user', { email: EMAIL });
    const fake = await scene.serve([bothDoors([token.cookieValue], [token.jwt], EMAIL)]);
    const result = await scene.run(['doctor'], {
      env: {
        CODEXBAR_CURSOR_API2_BASE_URL: fake.url,
        CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${token.cookieValue}`,
      },
    });
    expect(result.stdout).toMatch(
      /rpc \(api2\)\s+unchecked\s+not checked: a manual cookie header cannot open api2/,
    );
    expect(fake.requests.map((r) => r.path)).not.toContain(USAGE_RPC);
  });
});

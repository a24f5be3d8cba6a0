import { describe, expect, it } from 'vitest';
import { PRICED_MODELS } from '../fake-cursor/models.js';
import { summaryWithPercent } from '../helpers/accounts.js';
import {
  connectMcp,
  expectNoCredential,
  MODELS_PATH,
  mcpAccount,
  mcpToken,
  SUMMARY_PATH,
  textOf,
} from '../helpers/mcp.js';
import { useScene } from '../helpers/scene.js';
import { serveWorkBrokenPersonal } from '../helpers/token-accounts.js';

/**
 * `codexbar mcp`'s tools, driven by the SDK's own client over its in-memory transport against the fake
 * cursor.com: each answers what the matching CLI command prints as JSON, from the same caches, and a failure
 * is a tool error with the CLI's own message.
 */

const NOW = new Date('2026-11-30T14:30:00Z');

const scene = useScene({
  now: NOW,
  frozen: true,
  setup: async (s) => {
    const token = await mcpToken(s);
    await s.serve([mcpAccount(token, NOW)]);
    return { token };
  },
});

/** A clock the test steps. */
function clock() {
  let ms = NOW.getTime();
  return { now: () => new Date(ms), advance: (seconds: number) => (ms += seconds * 1000) };
}

const requests = (path: string) => scene.fake!.requests.filter((request) => request.path === path).length;

describe('tools/list', () => {
  it('declares the four tools, each read-only with an input schema taking account and an output schema', async () => {
    const { client } = await connectMcp(scene, clock().now);
    const { tools } = await client.listTools();

    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'cursor_budget_check',
      'cursor_cost',
      'cursor_models',
      'cursor_usage',
    ]);
    for (const tool of tools) {
      expect(tool.inputSchema.properties).toHaveProperty('account');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    }
    const cost = tools.find((tool) => tool.name === 'cursor_cost');
    expect(Object.keys(cost?.inputSchema.properties ?? {}).sort()).toEqual(
      ['account', 'by', 'days', 'month', 'since', 'timezone', 'until'].sort(),
    );
    const budget = tools.find((tool) => tool.name === 'cursor_budget_check');
    expect(budget?.inputSchema.properties).toHaveProperty('min_remaining');
  });
});

describe('cursor_usage', () => {
  it('is the `usage --json` row, plus when it was fetched; the text gives the percent', async () => {
    const cli = JSON.parse((await scene.run(['usage', '--json'])).stdout)[0];
    const { call } = await connectMcp(scene, clock().now, { maxAgeMs: 0 });
    const result = await call('cursor_usage');

    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ ...cli, fetchedAt: '2026-11-30T14:30:00Z', fromCache: false });
    expect(textOf(result)).toMatch(/^Cursor: Total 45% used \(.+\); .*on-demand \$12\.34 of \$50\.00\.$/);
    expectNoCredential(result, scene.given.token);
  });

  it('answers from the usage cache within the max age, and fetches again past it', async () => {
    const time = clock();
    const { call } = await connectMcp(scene, time.now, { maxAgeMs: 60_000 });
    await call('cursor_usage');
    time.advance(60);
    const cached = await call('cursor_usage');
    expect(requests(SUMMARY_PATH)).toBe(1);
    expect(cached.structuredContent).toMatchObject({ fromCache: true, fetchedAt: '2026-11-30T14:30:00Z' });
    expect(textOf(cached)).toContain('\nFrom the cache, fetched 1m ago.');

    time.advance(1);
    const fresh = await call('cursor_usage');
    expect(requests(SUMMARY_PATH)).toBe(2);
    expect(fresh.structuredContent).toMatchObject({ fromCache: false });
  });

  it('calls at once for one account share one fetch', async () => {
    const { call } = await connectMcp(scene, clock().now, { maxAgeMs: 0 });
    const results = await Promise.all([
      call('cursor_usage'),
      call('cursor_usage'),
      call('cursor_budget_check'),
    ]);
    for (const result of results) expect(result.isError).toBeFalsy();
    expect(requests(SUMMARY_PATH)).toBe(1);
  });

  it('cursor.com failing is a tool error with the message `usage` prints, and the server goes on', async () => {
    const cli = await scene.run(['usage']);
    await scene.serve([mcpAccount(scene.given.token, NOW, { usageSummary: { status: 500, json: {} } })]);
    const failed = await scene.run(['usage']);
    const { call } = await connectMcp(scene, clock().now, { maxAgeMs: 0 });
    const result = await call('cursor_usage');

    expect(cli.code).toBe(0);
    expect(failed.code).toBe(1);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toBe(failed.stderr.trimEnd());
    expect(textOf(result)).toMatch(/^Error: /);
    expect((await call('cursor_models')).isError).toBeFalsy();
  });

  it('an account no config holds is the CLI’s selection error', async () => {
    const cli = await scene.run(['usage', '--account', 'work']);
    const { call } = await connectMcp(scene, clock().now);
    const result = await call('cursor_usage', { account: 'work' });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(cli.stderr.trimEnd());
    expect(textOf(result)).toMatch(/^Error: No token accounts configured for cursor\.\nHint: /);
  });
});

describe('token accounts', () => {
  it('account picks one as --account does; a rejected one is its labelled error, as `usage` prints it', async () => {
    await serveWorkBrokenPersonal(scene);
    const broken = await scene.run(['usage', '--account', 'broken']);
    const { call } = await connectMcp(scene, clock().now);
    const personal = await call('cursor_usage', { account: ' PERSONAL ' });
    const plain = await call('cursor_usage');
    const failed = await call('cursor_usage', { account: 'broken' });
    const gate = await call('cursor_budget_check', { account: 'personal' });

    expect(personal.structuredContent).toMatchObject({
      account: 'personal',
      usage: { primary: { usedPercent: 92 } },
    });
    expect(textOf(personal)).toMatch(/^Cursor \(personal\): Total 92% used/);
    expect(plain.structuredContent).toMatchObject({
      account: 'work',
      usage: { primary: { usedPercent: 45 } },
    });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe(broken.stderr.trimEnd());
    expect(textOf(failed)).toMatch(/^Error \(cursor - broken\): Not logged in to Cursor/);
    expect(gate.structuredContent).toMatchObject({
      account: 'personal',
      decision: 'blocked',
      remainingPercent: 8,
    });
  });
});

describe('cursor_budget_check, by guard’s rules', () => {
  it.each([
    [45, 'ok'],
    [55, 'ok'],
    [56, 'blocked'],
  ])('min_remaining %i with 55%% left: %s, as `guard --json` decides', async (min, decision) => {
    const guard = JSON.parse((await scene.run(['guard', '--json', '--min-remaining', String(min)])).stdout);
    const { call } = await connectMcp(scene, clock().now);
    const result = await call('cursor_budget_check', { min_remaining: min });

    expect(guard.decision).toBe(decision);
    expect(result.structuredContent).toMatchObject({
      provider: 'cursor',
      window: 'session',
      decision,
      remainingPercent: guard.remainingPercent,
      minimumRemainingPercent: min,
    });
    expect(textOf(result)).toBe(`${decision}: Cursor session window has 55% left (minimum ${min}%)`);
  });

  it('the weekly window is the secondary one; a plan without one is unknown (window-unavailable)', async () => {
    await scene.serve([mcpAccount(scene.given.token, NOW, { usageSummary: summaryWithPercent(30) })]);
    const guard = JSON.parse((await scene.run(['guard', '--json', '--window', 'weekly'])).stdout);
    const { call } = await connectMcp(scene, clock().now);
    const result = await call('cursor_budget_check', { window: 'weekly' });

    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      decision: guard.decision,
      unavailableReason: guard.unavailableReason,
    });
  });

  it('cursor.com failing is unknown (fetch-failed), never ok, with the CLI’s message', async () => {
    await scene.serve([mcpAccount(scene.given.token, NOW, { usageSummary: { status: 500, json: {} } })]);
    const guard = await scene.run(['guard', '--json']);
    const { call } = await connectMcp(scene, clock().now);
    const result = await call('cursor_budget_check', { min_remaining: 0 });

    expect(JSON.parse(guard.stdout).unavailableReason).toBe('fetch-failed');
    expect(result.structuredContent).toMatchObject({
      decision: 'unknown',
      unavailableReason: 'fetch-failed',
    });
    expect((result.structuredContent as { message: string }).message).toMatch(/^Error: /);
  });

  it('min_remaining outside 0-100 is refused before anything is fetched', async () => {
    const { call } = await connectMcp(scene, clock().now);
    const result = await call('cursor_budget_check', { min_remaining: 101 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('min_remaining');
    expect(requests(SUMMARY_PATH)).toBe(0);
  });
});

describe('cursor_cost', () => {
  it('with days and by: the `cost --json` row of the same flags', async () => {
    const { call } = await connectMcp(scene, clock().now);
    const result = await call('cursor_cost', { days: 30, by: 'model' });
    const cli = JSON.parse((await scene.run(['cost', '--days', '30', '--by', 'model', '--json'])).stdout)[0];

    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(cli);
    expect((result.structuredContent as { groupBy: string }).groupBy).toBe('model');
    expect(textOf(result)).toMatch(/^Cursor, Last 30 days: \$[\d.,]+ at API list prices, .*24 requests\.$/);
    expectNoCredential(result, scene.given.token);
  });

  it('since/until and month name the window as `cost` does', async () => {
    const { call } = await connectMcp(scene, clock().now);
    const ranged = await call('cursor_cost', { since: '2026-11-20', until: '20261125' });
    const month = await call('cursor_cost', { month: true });
    expect(ranged.structuredContent).toMatchObject({
      historyDays: 6,
      window: { start: '2026-11-20T00:00:00Z', end: '2026-11-25T23:59:59Z' },
    });
    expect(textOf(month)).toMatch(/^Cursor, Month to date: /);
  });

  it.each([
    [{ days: 7, month: true }, 'Error: days cannot be combined with since, until or month.'],
    [{ month: true, since: '2026-11-01' }, 'Error: month cannot be combined with since or until.'],
    [
      { since: '2026-02-30' },
      "Error: since must be a date as YYYY-MM-DD or YYYYMMDD, e.g. 2026-11-01 (got '2026-02-30').",
    ],
    [{ timezone: 'Mars/Base' }, 'Error: timezone must be an IANA time zone name'],
  ])('%j is an argument error, and nothing is fetched', async (args, message) => {
    const { call } = await connectMcp(scene, clock().now);
    const result = await call('cursor_cost', args);
    expect(result.isError).toBe(true);
    expect(textOf(result).startsWith(message)).toBe(true);
    expect(scene.fake!.requests).toHaveLength(0);
  });
});

describe('cursor_models', () => {
  it('is `models --json`’s rows, and the second call is answered from the 24 h cache', async () => {
    const { call } = await connectMcp(scene, clock().now);
    const first = await call('cursor_models');
    const cli = JSON.parse(
      (await scene.run(['models', '--json'], { env: { CODEXBAR_CURSOR_API2_BASE_URL: scene.fake?.url } }))
        .stdout,
    );
    const second = await call('cursor_models');

    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({
      models: cli,
      fromCache: false,
      unpriced: 200 - PRICED_MODELS.length,
    });
    expect(second.structuredContent).toMatchObject({ fromCache: true });
    expect(requests(MODELS_PATH)).toBe(1);
    expect(textOf(first)).toBe(`200 models; ${200 - PRICED_MODELS.length} of them have no list price.`);
    expectNoCredential(first, scene.given.token);
  });
});

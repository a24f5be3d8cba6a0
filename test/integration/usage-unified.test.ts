import { describe, expect, it } from 'vitest';
import type { FakeAccount, Handler } from '../fake-cursor/server.js';
import { useScene } from '../helpers/scene.js';
import { colleagueTeamEndpoints } from '../helpers/team-fixtures.js';
import { UNIFIED_POOL, unifiedSummary, unifiedUsageStatus } from '../helpers/unified.js';
import { expectSuccess, requestedPaths, runUsage, usageJson } from '../helpers/usage-cli.js';

/**
 * The unified Cursor/Grok account end to end: the weekly pool as the primary
 * bar, and monthly additional spend from GET /api/dashboard/v2/usage-status?scope=user. The CLI (in-process) against
 * the fake cursor.com, text and JSON, --verbose on, and no colleague in the output (checked by every run).
 */

const NOW = new Date('2026-11-28T12:00:00Z');
const SESSION = 'unified-session-cookie';
const scene = useScene({ now: NOW, env: { CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${SESSION}` } });

/** A personal membership whose monthly figures went stale at unification: 10 % / 5 % / 15 % used. */
const SUMMARY = unifiedSummary({ used: 200, totalPercentUsed: 10, autoPercentUsed: 5, apiPercentUsed: 15 });
/** The shared weekly pool: 42 % used, resetting Dec 3 07:57:50 UTC. */
const POOL = { ...UNIFIED_POOL, hasNonZeroIncludedLimit: true, sandTrialExpiresAt: null };
/** The affected-account answer; its period (Nov 1 → Dec 1) is not the summary's. */
const VALID_STATUS = unifiedUsageStatus('2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z');
const MONTHLY_STATUS = VALID_STATUS.monthly;

function unifiedAccount(overrides: Partial<FakeAccount> = {}): FakeAccount {
  return {
    cookies: [SESSION],
    usageSummary: { json: SUMMARY },
    me: { json: { email: 'dev@example.com', sub: 'user_01J0UNIFIED', name: 'Dev' } },
    legacyUsage: { json: { 'gpt-4': {} } },
    sand: { json: POOL },
    usageStatus: { json: VALID_STATUS },
    // A personal plan: the team endpoints are there, full of colleagues, and must stay unread.
    ...colleagueTeamEndpoints(),
    ...overrides,
  };
}

async function runBoth(account: FakeAccount) {
  const text = await runUsage(scene, account, { args: ['--no-color'] });
  const json = await runUsage(scene, account, { args: ['--json'] });
  expectSuccess(text.result);
  expectSuccess(json.result);
  return { text: text.result.stdout, row: usageJson(json.result), fake: json.fake };
}

const STATUS_SPEND = 'On-demand: $18.34 / $50.00\n';
const SUMMARY_SPEND = 'On-demand: $12.00 / $40.00\n';

describe('usage: the unified weekly pool', () => {
  it('isUnified with a current reset: one Weekly bar replaces Total, Cursor and Third Party', async () => {
    const { text, row, fake } = await runBoth(unifiedAccount());
    expect(text).toBe(
      [
        '== Cursor (web) ==',
        'Weekly: 58% left [======------]',
        'Pace: 11% in deficit | Expected 31% used | Runs out in 2d 23h',
        'Resets in 4d 19h',
        'On-demand: $18.34 / $50.00',
        'Account: dev@example.com',
        'Plan: Cursor Pro',
        '',
      ].join('\n'),
    );
    expect(text).not.toMatch(/^(Total|Cursor|Third Party|Grok Bot):/m);
    expect(row.usage.primary).toEqual({
      usedPercent: 42,
      windowMinutes: 10080,
      resetsAt: '2026-12-03T07:57:50Z',
      resetDescription: 'Resets Dec 3 at 7:57AM',
    });
    expect([row.usage.secondary, row.usage.tertiary]).toEqual([null, null]);
    expect(row.usage.extraRateWindows).toBeUndefined();
    expect(requestedPaths(fake)).not.toContain('/api/dashboard/teams');
  });

  it('a valid request quota keeps the request primary instead of the pool', async () => {
    // Without limitType "user" the legacy request lookup runs, and its quota wins.
    const { limitType: _dropped, ...requestPlan } = SUMMARY;
    const { text, row, fake } = await runBoth(
      unifiedAccount({
        usageSummary: { json: requestPlan },
        legacyUsage: { json: { 'gpt-4': { numRequests: 120, numRequestsTotal: 120, maxRequestUsage: 500 } } },
      }),
    );
    expect(text).toContain('Total: 76% left [=========---]\n');
    expect(text).toContain('Request quota: 120 / 500\n');
    expect(text).not.toMatch(/^(Weekly|Cursor|Third Party|Grok Bot):/m);
    expect(row.usage.primary).toMatchObject({ usedPercent: 24, resetDescription: '120 / 500 requests' });
    expect(requestedPaths(fake)).toContain('/api/usage');
  });

  it('a weekly reset in the past keeps the monthly Total, Cursor and Third Party bars', async () => {
    const { text, row } = await runBoth(
      unifiedAccount({ sand: { json: { ...POOL, nextResetTimestampUtc: '2026-11-28T11:00:00.000Z' } } }),
    );
    expect(text).toContain('Total: 90% left [==========--]\n');
    expect(text).toContain('Cursor: 95% left [===========-]\n');
    expect(text).toContain('Third Party: 85% left [==========--]\n');
    expect(text).not.toMatch(/^Weekly:/m);
    expect(row.usage.primary).toMatchObject({ usedPercent: 10, windowMinutes: 43200 });
    expect(row.usage.secondary?.usedPercent).toBe(5);
    expect(row.usage.tertiary?.usedPercent).toBe(15);
  });
});

describe('usage: unified additional spend from v2/usage-status', () => {
  it('a valid answer supplies the spend: usedCents/limitCents, creditsUsedCents not added', async () => {
    const { text, row, fake } = await runBoth(unifiedAccount());
    expect(text).toContain(STATUS_SPEND);
    expect(row.usage.providerCost).toMatchObject({
      used: 18.34,
      limit: 50,
      currencyCode: 'USD',
      period: 'Monthly',
      resetsAt: '2026-12-01T00:00:00Z',
    });
    const status = fake.requests.filter((request) => request.path === '/api/dashboard/v2/usage-status');
    expect(status.map((request) => [request.method, request.query])).toEqual([['GET', { scope: 'user' }]]);
    // It replaces the legacy request lookup for unified personal memberships.
    expect(requestedPaths(fake)).not.toContain('/api/usage');
  });

  it('money fields at the top level are read the same way', async () => {
    const { text } = await runBoth(
      unifiedAccount({ usageStatus: { json: { scope: 'user', limitType: 'user', ...MONTHLY_STATUS } } }),
    );
    expect(text).toContain(STATUS_SPEND);
  });

  it('a valid zero spend stays zero instead of falling back to the summary', async () => {
    const { text, row } = await runBoth(
      unifiedAccount({
        usageStatus: { json: { ...VALID_STATUS, monthly: { ...MONTHLY_STATUS, usedCents: 0 } } },
      }),
    );
    expect(text).toContain('On-demand: $0.00 / $50.00\n');
    expect(row.usage.providerCost).toMatchObject({ used: 0, limit: 50 });
  });

  const monthly = (fields: Record<string, unknown>): Handler => ({
    json: { ...VALID_STATUS, monthly: { ...MONTHLY_STATUS, ...fields } },
  });
  it.each<[string, Handler]>([
    ['available:false', monthly({ available: false })],
    ['a period that has not started', monthly({ periodStart: '2026-11-29T00:00:00.000Z' })],
    [
      'a period that has already reset',
      monthly({ periodStart: '2026-10-01T00:00:00.000Z', resetsAt: '2026-11-01T00:00:00.000Z' }),
    ],
    ['a missing limitCents', monthly({ limitCents: undefined })],
    ['a non-numeric usedCents', monthly({ usedCents: 'lots' })],
    ['a malformed period date', monthly({ resetsAt: 'next month' })],
    ['a non-JSON body', { text: '<html>Service unavailable</html>' }],
    ['HTTP 500', { status: 500, json: {} }],
  ])('%s keeps the summary spend, cap and reset; exit 0', async (_name, usageStatus) => {
    const { text, row } = await runBoth(unifiedAccount({ usageStatus }));
    expect(text).toContain(SUMMARY_SPEND);
    expect(text).toMatch(/^Weekly: 58% left/m);
    expect(row.usage.providerCost).toMatchObject({ used: 12, limit: 40, resetsAt: '2026-12-05T00:00:00Z' });
  });

  it('an answer slower than its budget keeps the summary spend', async () => {
    // The answer is held for a minute; its 5 s budget (src/api/timeouts.ts) runs out as soon as the request
    // has arrived, without the wait. Only its own: get-sand-usage-status shares the budget, answers at once
    // and must still make the account unified, which a short budget for all cannot promise under load.
    const passed = new AbortController();
    const held = () => {
      passed.abort();
      return { json: VALID_STATUS, delayMs: 60_000 };
    };
    const { result } = await runUsage(scene, unifiedAccount({ usageStatus: held }), {
      args: ['--no-color'],
      timing: {
        requestTimer: (ms, endpoint) =>
          endpoint.endsWith('/v2/usage-status') ? passed.signal : AbortSignal.timeout(ms),
      },
    });
    expectSuccess(result);
    expect(result.stdout).toContain(SUMMARY_SPEND);
    expect(result.stdout).toMatch(/^Weekly: 58% left/m);
    expect(result.stderr).toMatch(/v2\/usage-status.*timed out after 5 s/);
  });
});

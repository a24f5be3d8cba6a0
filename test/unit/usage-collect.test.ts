import { describe, expect, it } from 'vitest';
import { ApiError, NotLoggedInError } from '../../src/errors.js';
import { useScene } from '../helpers/scene.js';
import { unifiedUsageStatus } from '../helpers/unified.js';
import { WORKED_SAND, WORKED_SUMMARY } from '../helpers/usage-builders.js';
import { appSession, arrivals, collect, ME, PLAIN_COOKIE, routes } from '../helpers/usage-collect.js';

const scene = useScene();

describe('collectUsage: which requests go out', () => {
  it('a plain cookie with a failed /auth/me makes exactly 3 requests and skips /api/usage', async () => {
    const { snapshot, requests } = await collect(scene, {
      usageSummary: { json: WORKED_SUMMARY },
      me: { status: 500, json: {} },
      sand: { json: WORKED_SAND },
      legacyUsage: { json: { 'gpt-4': { numRequests: 1, maxRequestUsage: 2 } } },
    });
    expect(routes(requests).sort()).toEqual(
      ['/api/auth/me', '/api/dashboard/get-sand-usage-status', '/api/usage-summary'].sort(),
    );
    expect(snapshot.primary?.usedPercent).toBe(42);
    expect(snapshot.identity).toEqual({ providerID: 'cursor', loginMethod: 'Cursor Pro' });
  });

  it('summary, auth/me and sand are in flight together; /api/usage follows with the raw auth/me sub', async () => {
    const { snapshot, requests } = await collect(scene, {
      usageSummary: async () => {
        await arrivals(scene, '/api/auth/me', '/api/dashboard/get-sand-usage-status');
        return { json: WORKED_SUMMARY };
      },
      me: { json: ME },
      sand: { json: WORKED_SAND },
      legacyUsage: { json: { 'gpt-4': {}, startOfMonth: '2026-07-05' } },
    });
    expect(routes(requests).slice(3)).toEqual(['/api/usage']);
    expect(requests[3]?.query).toEqual({ user: 'auth0|12345' });
    for (const request of requests) {
      expect(request.headers.cookie).toBe(`WorkosCursorSessionToken=${PLAIN_COOKIE}`);
      expect(request.headers.authorization).toBeUndefined();
    }
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({});
    expect(snapshot.identity).toEqual({
      providerID: 'cursor',
      accountEmail: 'dev@acme.com',
      loginMethod: 'Cursor Pro',
      accountID: 'auth0|12345',
    });
    expect(snapshot.extraRateWindows.map((e) => e.id)).toEqual(['cursor-grok-bot']);
  });

  it('an app token with a failed /auth/me asks /api/usage for the lower-cased JWT subject', async () => {
    const { session, cookie } = await appSession('auth0|User_Test', 'User_Test');
    const { snapshot, requests } = await collect(
      scene,
      {
        usageSummary: { json: {} },
        me: { status: 401, json: {} },
        sand: { status: 404, json: {} },
        legacyUsage: { json: { 'gpt-4': { numRequests: 600, maxRequestUsage: 500 } } },
      },
      { session, cookies: [cookie] },
    );
    expect(requests.find((r) => r.path === '/api/usage')?.query).toEqual({ user: 'user_test' });
    expect(snapshot.primary?.usedPercent).toBe(120);
    expect(snapshot.primary?.resetDescription).toBe('600 / 500 requests');
    expect(snapshot.identity.accountID).toBe('auth0|User_Test');
  });

  it.each([
    [401, NotLoggedInError],
    [403, NotLoggedInError],
    [500, ApiError],
  ])('usage-summary %d fails the whole fetch', async (status, errorClass) => {
    await expect(
      collect(scene, { usageSummary: { status, json: {} }, me: { json: ME }, sand: { json: WORKED_SAND } }),
    ).rejects.toBeInstanceOf(errorClass);
  });
});

describe('collectUsage: best-effort lookups keep the summary', () => {
  it.each([
    ['a 500', { status: 500, json: {} }],
    ['a reset connection', { destroy: true }],
    ['a body that is not JSON', { text: '{"usagePercent":' }],
    // Never in time: the 100 ms budget gives up on it long before the minute is out.
    ['an answer slower than the sand budget', { json: WORKED_SAND, delayMs: 60_000 }],
  ])('sand with %s leaves the monthly bars and no Grok Bot window', async (_name, sand) => {
    const { snapshot, log } = await collect(
      scene,
      { usageSummary: { json: WORKED_SUMMARY }, me: { json: ME }, sand, legacyUsage: { json: {} } },
      { timeouts: { optionalMs: 100 } },
    );
    expect([
      snapshot.primary?.usedPercent,
      snapshot.secondary?.usedPercent,
      snapshot.tertiary?.usedPercent,
    ]).toEqual([42, 35, 61]);
    expect(snapshot.extraRateWindows).toEqual([]);
    expect(log.some((line) => line.includes('get-sand-usage-status unavailable'))).toBe(true);
  });

  it('a failed /api/usage is not a legacy plan', async () => {
    const { snapshot } = await collect(scene, {
      usageSummary: { json: WORKED_SUMMARY },
      me: { json: ME },
      sand: { json: WORKED_SAND },
      legacyUsage: { status: 500, json: {} },
    });
    expect(snapshot.details).toEqual([]);
    expect(snapshot.secondary?.usedPercent).toBe(35);
  });

  it('no log line carries the session cookie', async () => {
    const { log } = await collect(scene, {
      usageSummary: { json: {} },
      me: { status: 500, json: {} },
      sand: { status: 500 },
    });
    expect(log.length).toBeGreaterThan(0);
    expect(log.join('\n')).not.toContain(PLAIN_COOKIE);
  });
});

describe('collectUsage: unified personal memberships', () => {
  const UNIFIED_SAND = {
    usagePercent: 42,
    nextResetTimestampUtc: '2026-07-24T00:00:00.000Z',
    includedLimitZero: false,
    isUnified: true,
  };
  const STATUS = unifiedUsageStatus('2026-07-05T00:00:00.000Z', '2026-08-05T00:00:00.000Z');

  it('v2/usage-status replaces /api/usage and supplies the spend; the pool is the Weekly primary', async () => {
    const { snapshot, requests } = await collect(scene, {
      usageSummary: { json: WORKED_SUMMARY },
      me: { json: ME },
      sand: { json: UNIFIED_SAND },
      legacyUsage: { json: {} },
      usageStatus: { json: STATUS },
    });
    expect(routes(requests)).not.toContain('/api/usage');
    expect(requests.find((r) => r.path === '/api/dashboard/v2/usage-status')?.query).toEqual({
      scope: 'user',
    });
    expect(snapshot.providerCost).toMatchObject({ used: 18.34, limit: 50 });
    expect(snapshot.labels.primary).toBe('Weekly');
    expect(snapshot.primary).toMatchObject({ usedPercent: 42, windowMinutes: 10080 });
  });

  it('usage-status slower than its budget keeps the summary spend', async () => {
    // Its budget runs out once the request has arrived, and only its own: the sand lookup shares the budget,
    // answers at once and must still make the account unified, which a short budget cannot promise under load.
    const passed = new AbortController();
    const { snapshot, log } = await collect(
      scene,
      {
        usageSummary: { json: WORKED_SUMMARY },
        me: { json: ME },
        sand: { json: UNIFIED_SAND },
        usageStatus: () => {
          passed.abort();
          return { json: STATUS, delayMs: 60_000 };
        },
      },
      {
        timer: (ms, endpoint) =>
          endpoint.endsWith('/v2/usage-status') ? passed.signal : AbortSignal.timeout(ms),
      },
    );
    expect(snapshot.providerCost).toMatchObject({ used: 12.34, limit: 50 });
    expect(log.some((line) => line.includes('v2/usage-status') && line.includes('timed out'))).toBe(true);
  });

  it('available:false keeps the summary spend', async () => {
    const { snapshot } = await collect(scene, {
      usageSummary: { json: WORKED_SUMMARY },
      me: { json: ME },
      sand: { json: UNIFIED_SAND },
      usageStatus: { json: { ...STATUS, monthly: { ...STATUS.monthly, available: false } } },
    });
    expect(snapshot.providerCost).toMatchObject({ used: 12.34, limit: 50 });
  });

  it('a team membership is not a personal one: /api/usage is asked instead', async () => {
    const { requests } = await collect(scene, {
      usageSummary: { json: { ...WORKED_SUMMARY, limitType: 'team', membershipType: 'pro' } },
      me: { json: ME },
      sand: { json: UNIFIED_SAND },
      legacyUsage: { json: {} },
      usageStatus: { json: STATUS },
    });
    expect(routes(requests)).toContain('/api/usage');
    expect(routes(requests)).not.toContain('/api/dashboard/v2/usage-status');
  });
});

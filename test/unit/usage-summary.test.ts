import { describe, expect, it } from 'vitest';
import { authMeSchema } from '../../src/api/schemas/auth-me.js';
import { legacyUsageSchema } from '../../src/api/schemas/legacy-usage.js';
import { usageSummarySchema } from '../../src/api/schemas/usage-summary.js';
import type { JwtIdentity } from '../../src/auth/types.js';
import { parseIsoDate } from '../../src/lib/iso-date.js';
import { cycleMinutes, hasUsableRequestQuota, summarizeUsage } from '../../src/usage/summary.js';

const summaryOf = (json: unknown) => usageSummarySchema.parse(json);
const figuresOf = (json: unknown) => summarizeUsage({ summary: summaryOf(json) });

describe('usage-summary decoding', () => {
  it('accepts an empty object as a valid summary with everything absent', () => {
    expect(usageSummarySchema.safeParse({}).success).toBe(true);
    expect(figuresOf({}).planPercentUsed).toBe(0);
  });

  it('accepts null for optional fields, as Swift decodeIfPresent does', () => {
    expect(
      usageSummarySchema.safeParse({ individualUsage: { onDemand: { limit: null, remaining: null } } })
        .success,
    ).toBe(true);
  });

  it.each([
    ['a string where cents are expected', { individualUsage: { plan: { used: '86' } } }],
    ['fractional cents', { individualUsage: { plan: { limit: 2000.5 } } }],
    ['a string percent', { individualUsage: { plan: { totalPercentUsed: '0.4' } } }],
    ['a numeric billing date', { billingCycleEnd: 1_790_000_000_000 }],
    ['a string boolean', { isUnlimited: 'false' }],
  ])('fails the decode on a wrongly typed field: %s', (_name, json) => {
    expect(usageSummarySchema.safeParse(json).success).toBe(false);
  });

  it('ignores unknown fields', () => {
    expect(usageSummarySchema.safeParse({ somethingNew: { deep: [1, 2] } }).success).toBe(true);
  });
});

describe('headline percent: the first of eight rules that applies wins', () => {
  it.each([
    [
      '1. totalPercentUsed wins even when used/limit disagree',
      { plan: { used: 5400, limit: 2000, totalPercentUsed: 0.27 } },
      0.27,
    ],
    ['1. totalPercentUsed is clamped', { plan: { totalPercentUsed: 140 } }, 100],
    ['2. auto and api average', { plan: { autoPercentUsed: 12.5, apiPercentUsed: 3.0 } }, 7.75],
    ['3. api only', { plan: { apiPercentUsed: 61, used: 1, limit: 2 } }, 61],
    ['4. auto only', { plan: { autoPercentUsed: 35, used: 1, limit: 2 } }, 35],
    ['5. plan used/limit, clamped', { plan: { used: 15000, limit: 10000 } }, 100],
    ['5. plan used/limit', { plan: { used: 500, limit: 2000 } }, 25],
    ['6. personal overall cap', { overall: { used: 7384, limit: 10000 } }, 73.84],
    ['6. overall with limit 0 falls through', { overall: { used: 5, limit: 0 } }, 0],
    ['6. overall without a limit falls through', { overall: { used: 5 } }, 0],
    ['8. nothing applies', { plan: { used: 10, limit: 0 } }, 0],
  ])('%s', (_rule, individualUsage, expected) => {
    expect(figuresOf({ individualUsage }).planPercentUsed).toBeCloseTo(expected, 10);
  });

  it('7. the shared team pool: 12725135 of 28122000 is 45.249…%', () => {
    const figures = figuresOf({
      teamUsage: { pooled: { enabled: true, used: 12725135, limit: 28122000, remaining: 15396865 } },
    });
    expect(figures.planPercentUsed).toBeCloseTo((12725135 / 28122000) * 100, 10);
    expect(figures.planPercentUsed.toFixed(3)).toBe('45.250');
  });

  it('clamps the auto and api lanes to 0…100', () => {
    const figures = figuresOf({ individualUsage: { plan: { autoPercentUsed: -4, apiPercentUsed: 130 } } });
    expect([figures.autoPercentUsed, figures.apiPercentUsed]).toEqual([0, 100]);
  });
});

describe('dollars', () => {
  it.each([
    [
      'plan cents when a plan limit or spend exists',
      { individualUsage: { plan: { used: 86, limit: 2000 } } },
      [0.86, 20],
    ],
    [
      'overall when both used and limit exist, even a limit of 0',
      { individualUsage: { overall: { used: 1200, limit: 0 } } },
      [12, 0],
    ],
    [
      'pooled when overall is incomplete',
      { individualUsage: { overall: { used: 5 } }, teamUsage: { pooled: { used: 300, limit: 900 } } },
      [3, 9],
    ],
    [
      'plan cents when a plan limit exists but nothing is spent yet',
      { individualUsage: { plan: { used: 0, limit: 2000 }, overall: { used: 700, limit: 900 } } },
      [0, 20],
    ],
    [
      'plan cents when plan spend exists under a limit of 0',
      { individualUsage: { plan: { used: 86, limit: 0 }, overall: { used: 700, limit: 900 } } },
      [0.86, 0],
    ],
    [
      'overall when the plan has neither spend nor a limit',
      { individualUsage: { plan: { used: 0, limit: 0 }, overall: { used: 700, limit: 900 } } },
      [7, 9],
    ],
    ['zero when nothing is known', {}, [0, 0]],
  ])('%s', (_name, json, [used, limit]) => {
    const figures = figuresOf(json);
    expect([figures.planUsedUSD, figures.planLimitUSD]).toEqual([used, limit]);
  });

  it('on-demand: used defaults to 0, a null limit stays absent', () => {
    const figures = figuresOf({ individualUsage: { onDemand: { used: null, limit: null } } });
    expect(figures.onDemandUsedUSD).toBe(0);
    expect(figures.onDemandLimitUSD).toBeUndefined();
  });

  it('team on-demand converts used and limit separately, each absent when null', () => {
    const figures = figuresOf({ teamUsage: { onDemand: { used: 2500, limit: null } } });
    expect(figures.teamOnDemandUsedUSD).toBe(25);
    expect(figures.teamOnDemandLimitUSD).toBeUndefined();
  });
});

describe('legacy request quota', () => {
  const withLegacy = (json: unknown) =>
    summarizeUsage({ summary: summaryOf({}), legacy: legacyUsageSchema.parse(json) });

  it('prefers numRequestsTotal over numRequests', () => {
    const figures = withLegacy({
      'gpt-4': { numRequests: 200, numRequestsTotal: 240, maxRequestUsage: 500 },
    });
    expect([figures.requestsUsed, figures.requestsLimit, figures.isLegacyRequestPlan]).toEqual([
      240,
      500,
      true,
    ]);
  });

  it('counts a limit of 0 as a legacy plan', () => {
    expect(withLegacy({ 'gpt-4': { numRequests: 3, maxRequestUsage: 0 } }).isLegacyRequestPlan).toBe(true);
  });

  it.each([
    ['a count and a positive limit', { numRequests: 3, maxRequestUsage: 500 }, true],
    ['a count and a limit of 0', { numRequests: 3, maxRequestUsage: 0 }, false],
    ['a positive limit without a count', { maxRequestUsage: 500 }, false],
    ['a count without a limit', { numRequests: 3 }, false],
  ])('a request quota is usable only with a count and a positive limit: %s', (_label, gpt4, usable) => {
    expect(hasUsableRequestQuota(withLegacy({ 'gpt-4': gpt4 }))).toBe(usable);
  });

  it('a token-based answer {"gpt-4":{}} is not a legacy plan', () => {
    expect(withLegacy({ 'gpt-4': {}, startOfMonth: '2026-05-23' }).isLegacyRequestPlan).toBe(false);
  });
});

describe('identity', () => {
  const jwt: JwtIdentity = {
    userId: 'app-user',
    subject: 'auth0|app-user',
    email: 'jwt@example.com',
    expiresAt: new Date('2030-01-01T00:00:00Z'),
  };

  it('takes email, sub and name from auth/me first; sub is kept raw', () => {
    const me = authMeSchema.parse({
      email: 'user@example.com',
      email_verified: true,
      name: 'Test User',
      sub: 'auth0|12345',
    });
    const figures = summarizeUsage({ summary: summaryOf({ membershipType: 'pro' }), me, jwt });
    expect([figures.accountEmail, figures.accountID, figures.accountName, figures.membershipType]).toEqual([
      'user@example.com',
      'auth0|12345',
      'Test User',
      'pro',
    ]);
  });

  it('falls back to the JWT email and raw subject when auth/me failed', () => {
    const figures = summarizeUsage({ summary: summaryOf({}), jwt });
    expect([figures.accountEmail, figures.accountID]).toEqual(['jwt@example.com', 'auth0|app-user']);
  });

  it('auth/me with one wrongly typed field is rejected as a whole', () => {
    expect(authMeSchema.safeParse({ email: 'a@b.c', email_verified: 'yes' }).success).toBe(false);
  });
});

describe('billing dates: ISO-8601 with fractional seconds, then without', () => {
  it.each([
    ['2026-03-18T20:45:42.000Z', '2026-03-18T20:45:42.000Z'],
    ['2026-03-18T20:45:42Z', '2026-03-18T20:45:42.000Z'],
    ['2026-03-18T20:45:42.123456Z', '2026-03-18T20:45:42.123Z'],
    ['2026-03-18T22:45:42+02:00', '2026-03-18T20:45:42.000Z'],
  ])('parses %s', (text, iso) => {
    expect(parseIsoDate(text)?.toISOString()).toBe(iso);
  });

  it.each([
    '2026-03-18',
    'yesterday',
    '',
    '2026-13-01T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2026-02-30T00:00:00+02:00',
    '2026-01-01T24:00:00Z',
    '1790000000000',
  ])('gives no date for %j', (text) => {
    expect(parseIsoDate(text)).toBeUndefined();
  });

  it('a date-only billing end leaves the cycle unknown', () => {
    const figures = figuresOf({ billingCycleStart: '2026-04-01T00:00:00Z', billingCycleEnd: '2026-05-01' });
    expect(figures.billingCycleEnd).toBeUndefined();
    expect(cycleMinutes(figures)).toBeUndefined();
  });
});

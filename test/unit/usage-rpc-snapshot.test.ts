/**
 * The rpc door's mapping (src/usage/rpc-snapshot.ts) and its schema: Cursor's percents read as sent, the
 * display messages when the numbers are absent, personal on-demand before the team pool, an unlimited hard
 * limit, and the answers the schema refuses.
 */
import { describe, expect, it } from 'vitest';
import { currentPeriodUsageSchema } from '../../src/api/api2/schemas/current-period-usage.js';
import { messagePercent, rpcUsageSnapshot } from '../../src/usage/rpc-snapshot.js';

const now = new Date('2026-12-01T00:00:00Z');
const cycle = { billingCycleStart: '1763164800000', billingCycleEnd: '1765756800000' };
const snapshotOf = (json: unknown, extra: object = {}) =>
  rpcUsageSnapshot({ usage: currentPeriodUsageSchema.parse(json), now, timeZone: 'UTC', ...extra });

describe('the percents', () => {
  it('are read as reported, never spend over limit', () => {
    const snapshot = snapshotOf({
      ...cycle,
      planUsage: {
        totalSpend: 2768,
        limit: 2000,
        totalPercentUsed: 5.59,
        autoPercentUsed: 1,
        apiPercentUsed: 9,
      },
    });
    expect(snapshot.primary?.usedPercent).toBe(5.59);
    expect(snapshot.secondary?.usedPercent).toBe(1);
    expect(snapshot.tertiary?.usedPercent).toBe(9);
    expect(snapshot.source).toBe('rpc');
  });

  it('come from the display messages when the numbers are absent', () => {
    const snapshot = snapshotOf({
      ...cycle,
      displayMessage: "You've used 42% of your included total usage",
      namedModelSelectedDisplayMessage: "You've used 15% of your included API usage",
    });
    expect(snapshot.primary?.usedPercent).toBe(42);
    expect(snapshot.tertiary?.usedPercent).toBe(15);
    expect(snapshot.secondary).toBeNull();
  });

  it('a message percent outside 0–100 or about another pool is not taken', () => {
    expect(messagePercent(["You've used 420% of your included total usage"], 'total')).toBeUndefined();
    expect(messagePercent(["You've used 15% of your included API usage"], 'total')).toBeUndefined();
    expect(messagePercent(["You've used 7.5% of your auto usage"], 'auto')).toBe(7.5);
  });
});

describe('the cycle, the plan and the account', () => {
  it('the reset is billingCycleEnd, the window the cycle, the plan GetPlanInfo', () => {
    const snapshot = snapshotOf(
      { ...cycle, planUsage: { totalPercentUsed: 10 } },
      {
        planInfo: { planInfo: { planName: 'Ultra' } },
        jwt: { email: 'a@b.c', subject: 'auth0|u', userId: 'u', expiresAt: now },
      },
    );
    expect(snapshot.primary?.resetsAt?.toISOString()).toBe('2025-12-15T00:00:00.000Z');
    expect(snapshot.primary?.windowMinutes).toBe(30 * 24 * 60);
    expect(snapshot.identity).toEqual({
      providerID: 'cursor',
      accountEmail: 'a@b.c',
      loginMethod: 'Cursor Ultra',
      accountID: 'auth0|u',
    });
  });

  it('a sparse Enterprise payload keeps its reset and plan', () => {
    const snapshot = snapshotOf(
      { ...cycle, displayThreshold: 200 },
      { planInfo: { planInfo: { planName: 'Enterprise' } } },
    );
    expect(snapshot.primary?.resetDescription).toBeDefined();
    expect(snapshot.identity.loginMethod).toBe('Cursor Enterprise');
    expect(snapshot.providerCost).toBeUndefined();
  });
});

describe('on-demand', () => {
  it('the personal budget wins over the team pool', () => {
    const snapshot = snapshotOf({
      ...cycle,
      spendLimitUsage: { individualLimit: 5000, individualUsed: 100, pooledLimit: 90000, pooledUsed: 300 },
    });
    expect(snapshot.providerCost).toMatchObject({ used: 1, limit: 50 });
    expect(snapshot.providerCost?.personalUsed).toBeUndefined();
  });

  it('the team pool, with the member share, when there is no personal limit', () => {
    const snapshot = snapshotOf({
      ...cycle,
      spendLimitUsage: { limitType: 'team', individualUsed: 100, pooledLimit: 90000, pooledUsed: 300 },
    });
    expect(snapshot.providerCost).toMatchObject({ used: 3, limit: 900, personalUsed: 1 });
  });

  it('an unlimited hard limit leaves the spend without a cap', () => {
    const snapshot = snapshotOf(
      { ...cycle, spendLimitUsage: { individualLimit: 5000, individualUsed: 700 } },
      { hardLimit: { hardLimit: 100_000_000 } },
    );
    expect(snapshot.providerCost).toMatchObject({ used: 7, limit: 0 });
  });
});

describe('the schema', () => {
  it.each([
    [{ planUsage: { totalPercentUsed: 100.5 } }, 'planUsage.totalPercentUsed'],
    [{ planUsage: { autoPercentUsed: -0.1 } }, 'planUsage.autoPercentUsed'],
    [{ planUsage: { apiSpend: -1 } }, 'planUsage.apiSpend'],
    [{ spendLimitUsage: { pooledUsed: -1 } }, 'spendLimitUsage.pooledUsed'],
    [{ billingCycleEnd: '17e5' }, 'billingCycleEnd'],
  ])('refuses %j, naming %s', (json, field) => {
    const parsed = currentPeriodUsageSchema.safeParse(json);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path.join('.')).toBe(field);
  });

  it('accepts int64 as strings or numbers, and {}', () => {
    expect(currentPeriodUsageSchema.parse({ billingCycleEnd: '5', billingCycleStart: 4 })).toMatchObject({
      billingCycleEnd: 5,
      billingCycleStart: 4,
    });
    expect(currentPeriodUsageSchema.parse({})).toEqual({});
  });
});

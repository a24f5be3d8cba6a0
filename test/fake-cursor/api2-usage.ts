/**
 * api2 usage payloads for the fake (docs/api2.md, "Methods"): accounts as api2's DashboardService describes
 * them, int64 fields as decimal strings and default fields left out, as Connect's JSON codec writes them.
 * `bothDoors` describes one state through cursor.com's usage-summary and through GetCurrentPeriodUsage, for
 * the cross-check that both doors show the same figures.
 */
import { proAccount } from '../helpers/accounts.js';
import type { FakeAccount, FakeResponse } from './types.js';

const CYCLE_START = Date.parse('2026-11-15T00:00:00.000Z');
const CYCLE_END = Date.parse('2026-12-15T00:00:00.000Z');
const cycle = { billingCycleStart: String(CYCLE_START), billingCycleEnd: String(CYCLE_END) };

const planInfo = (planName: string): FakeResponse => ({ json: { planInfo: { planName } } });

/** An individual Ultra seat shaped like the captured example. */
export function individualRpc(planName = 'Ultra'): NonNullable<FakeAccount['rpc']> {
  return {
    'DashboardService/GetCurrentPeriodUsage': {
      json: {
        ...cycle,
        planUsage: {
          totalSpend: 23222,
          includedSpend: 23222,
          remaining: 16778,
          limit: 40000,
          apiPercentUsed: 46.444,
          totalPercentUsed: 15.48,
        },
        spendLimitUsage: { individualLimit: 5000, individualUsed: 1234, limitType: 'user' },
        displayThreshold: 200,
        enabled: true,
      },
    },
    'DashboardService/GetPlanInfo': planInfo(planName),
    'DashboardService/GetHardLimit': { json: { hardLimit: 50 } },
  };
}

/** A team seat: the pooled on-demand budget, with the personal one unset. */
export function teamRpc(): NonNullable<FakeAccount['rpc']> {
  return {
    'DashboardService/GetCurrentPeriodUsage': {
      json: {
        ...cycle,
        planUsage: {
          totalSpend: 1000,
          limit: 2000,
          autoPercentUsed: 10,
          apiPercentUsed: 20,
          totalPercentUsed: 12,
        },
        spendLimitUsage: { pooledLimit: 100000, pooledUsed: 25000, individualUsed: 700, limitType: 'team' },
        enabled: true,
      },
    },
    'DashboardService/GetPlanInfo': planInfo('Team'),
    'DashboardService/GetHardLimit': { status: 403, json: { code: 'permission_denied', message: 'denied' } },
  };
}

/** An Enterprise seat: no planUsage at all, only the cycle, the threshold and the display message. */
export function enterpriseSparseRpc(message?: string): NonNullable<FakeAccount['rpc']> {
  return {
    'DashboardService/GetCurrentPeriodUsage': {
      json: { ...cycle, displayThreshold: 200, ...(message ? { displayMessage: message } : {}) },
    },
    'DashboardService/GetPlanInfo': planInfo('Enterprise'),
  };
}

/** On-demand without a cap: GetHardLimit at 100 000 000 dollars. */
export function unlimitedOnDemandRpc(): NonNullable<FakeAccount['rpc']> {
  const rpc = individualRpc('Pro+');
  rpc['DashboardService/GetHardLimit'] = { json: { hardLimit: 100_000_000 } };
  rpc['DashboardService/GetCurrentPeriodUsage'] = {
    json: {
      ...cycle,
      planUsage: {
        totalSpend: 2000,
        limit: 2000,
        totalPercentUsed: 100,
        autoPercentUsed: 100,
        apiPercentUsed: 40,
      },
      spendLimitUsage: { individualUsed: 9876, limitType: 'user' },
    },
  };
  return rpc;
}

/**
 * One Pro account's state through both doors: 30 % auto, 60 % API, 45 % total, $12.34 of $50 on demand.
 * The web door is test/helpers/accounts.ts's Pro account, whose cycle is the one here.
 */
export function bothDoors(cookies: string[], bearers: string[], email = 'dev@example.com'): FakeAccount {
  return proAccount(cookies, email, {
    bearers,
    rpc: {
      'DashboardService/GetCurrentPeriodUsage': {
        json: {
          ...cycle,
          planUsage: {
            totalSpend: 900,
            includedSpend: 900,
            remaining: 1100,
            limit: 2000,
            autoPercentUsed: 30,
            apiPercentUsed: 60,
            totalPercentUsed: 45,
          },
          spendLimitUsage: { individualLimit: 5000, individualUsed: 1234, limitType: 'user' },
          enabled: true,
        },
      },
      'DashboardService/GetPlanInfo': planInfo('Pro'),
      'DashboardService/GetHardLimit': { json: { hardLimit: 50 } },
    },
  });
}

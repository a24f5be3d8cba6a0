/**
 * A unified personal membership: a Pro cycle Nov 5 → Dec 5 2026 whose monthly
 * figures went stale at unification, the shared weekly pool at 42 %, and the v2/usage-status answer of an
 * affected account. Shared by the mapping tests and the CLI tests, each choosing the figures it reads.
 */

export const UNIFIED_CYCLE_END = '2026-12-05T00:00:00.000Z';

/** The usage-summary: on-demand $12 of $40, the plan at the given figures. */
export function unifiedSummary(plan: {
  used: number;
  totalPercentUsed: number;
  autoPercentUsed: number;
  apiPercentUsed: number;
}) {
  return {
    billingCycleStart: '2026-11-05T00:00:00.000Z',
    billingCycleEnd: UNIFIED_CYCLE_END,
    membershipType: 'pro',
    limitType: 'user',
    individualUsage: {
      plan: {
        used: plan.used,
        limit: 2000,
        totalPercentUsed: plan.totalPercentUsed,
        autoPercentUsed: plan.autoPercentUsed,
        apiPercentUsed: plan.apiPercentUsed,
      },
      onDemand: { used: 1200, limit: 4000 },
    },
  };
}

/** The shared weekly pool: 42 % used, resetting Dec 3 07:57:50 UTC. */
export const UNIFIED_POOL = {
  usagePercent: 42,
  nextResetTimestampUtc: '2026-12-03T07:57:50.647Z',
  currentPeriodStart: '2026-11-26T07:57:50.647Z',
  hasAvailableUsage: true,
  includedLimitZero: false,
  isUnified: true,
};

/** v2/usage-status for a user: $18.34 of $50 this month (plus 250 cents of credits), over the given period. */
export function unifiedUsageStatus(periodStart: string, resetsAt: string) {
  return {
    scope: 'user',
    limitType: 'user',
    monthly: {
      available: true,
      usedCents: 1834,
      limitCents: 5000,
      creditsUsedCents: 250,
      periodStart,
      resetsAt,
    },
  };
}

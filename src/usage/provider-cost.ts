import type { UsageFigures } from './summary.js';
import type { ProviderCost } from './types.js';

/**
 * docs/behaviour.md §12.7: the on-demand ("Extra usage") budget. A personal cap wins over the team budget;
 * a budget with nothing spent is shown, and spend without a limit is shown with a limit of 0.
 */
export function providerCostFrom(figures: UsageFigures, now: Date): ProviderCost | undefined {
  let used: number;
  let limit: number;
  let personalUsed: number | undefined;
  if ((figures.onDemandLimitUSD ?? 0) > 0) {
    used = figures.onDemandUsedUSD;
    limit = figures.onDemandLimitUSD ?? 0;
  } else if ((figures.teamOnDemandLimitUSD ?? 0) > 0) {
    used = figures.teamOnDemandUsedUSD ?? 0;
    limit = figures.teamOnDemandLimitUSD ?? 0;
    personalUsed = figures.onDemandUsedUSD > 0 ? figures.onDemandUsedUSD : undefined;
  } else {
    used = figures.onDemandUsedUSD;
    limit = figures.onDemandLimitUSD ?? 0;
  }
  if (!(used > 0 || limit > 0)) return undefined;
  const cost: ProviderCost = { used, limit, currencyCode: 'USD', period: 'Monthly', updatedAt: now };
  if (figures.billingCycleEnd) cost.resetsAt = figures.billingCycleEnd;
  if (personalUsed !== undefined) cost.personalUsed = personalUsed;
  return cost;
}

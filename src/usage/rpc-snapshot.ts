/**
 * api2's usage answers (docs/api2.md, "Methods") to the same `UsageSnapshot` the web door builds. The figures
 * go through the web door's own `buildUsageSnapshot`, so both doors word, order and round things alike; only
 * the reading differs:
 *
 * - Cursor's three percents are read as reported and never derived from spend and limit (docs/api2.md: the
 *   real denominator appears nowhere in the answer). When the numbers are absent, the display messages
 *   ("You've used 42% of your included total usage") carry them.
 * - Enterprise and team seats get no `planUsage` at all: what the account does have (the cycle, on-demand,
 *   the plan) is still shown, never "no subscription".
 * - On-demand comes from `spendLimitUsage`: the personal budget before the team pool, as on the web door.
 */
import type { CurrentPeriodUsage } from '../api/api2/schemas/current-period-usage.js';
import { type HardLimit, UNLIMITED_HARD_LIMIT } from '../api/api2/schemas/hard-limit.js';
import type { PlanInfo } from '../api/api2/schemas/plan-info.js';
import type { JwtIdentity } from '../auth/types.js';
import { usdFromCents } from '../lib/money.js';
import { buildUsageSnapshot } from './snapshot.js';
import { centsToUSD, type UsageFigures } from './summary.js';
import type { UsageSnapshot } from './types.js';

export interface RpcInputs {
  usage: CurrentPeriodUsage;
  planInfo?: PlanInfo;
  hardLimit?: HardLimit;
  jwt?: JwtIdentity;
  now: Date;
  timeZone: string;
}

/** A hard limit at or past 100 000 000 dollars: on-demand without a cap. */
function isUnlimitedOnDemand(hardLimit: HardLimit | undefined): boolean {
  return (hardLimit?.hardLimit ?? 0) >= UNLIMITED_HARD_LIMIT;
}

export function rpcUsageSnapshot(inputs: RpcInputs): UsageSnapshot {
  const snapshot = buildUsageSnapshot({
    figures: rpcFigures(inputs),
    now: inputs.now,
    timeZone: inputs.timeZone,
  });
  snapshot.source = 'rpc';
  return snapshot;
}

function rpcFigures({ usage, planInfo, hardLimit, jwt }: RpcInputs): UsageFigures {
  const plan = usage.planUsage;
  const limits = usage.spendLimitUsage;
  const messages = [
    usage.displayMessage,
    usage.autoModelSelectedDisplayMessage,
    usage.namedModelSelectedDisplayMessage,
  ];
  const total = plan?.totalPercentUsed ?? messagePercent(messages, 'total');
  const auto = plan?.autoPercentUsed ?? messagePercent(messages, 'auto');
  const api = plan?.apiPercentUsed ?? messagePercent(messages, 'api');
  const team = limits?.limitType === 'team';
  // An unlimited hard limit is no cap to measure against: the spend is shown with no limit (limit 0), as the
  // web door shows spend without a limit.
  const unlimited = isUnlimitedOnDemand(hardLimit);
  const personalLimit = unlimited ? undefined : limits?.individualLimit;
  const figures: UsageFigures = {
    planPercentUsed: total ?? api ?? auto ?? 0,
    autoPercentUsed: auto,
    apiPercentUsed: api,
    planUsedUSD: usdFromCents(plan?.includedSpend ?? plan?.totalSpend ?? 0),
    planLimitUSD: usdFromCents(plan?.limit ?? 0),
    onDemandUsedUSD: usdFromCents(limits?.individualUsed ?? 0),
    onDemandLimitUSD: centsToUSD(personalLimit),
    teamOnDemandUsedUSD: centsToUSD(limits?.pooledUsed ?? (team ? limits?.totalSpend : undefined)),
    teamOnDemandLimitUSD: centsToUSD(unlimited ? undefined : limits?.pooledLimit),
    isLegacyRequestPlan: false,
    billingCycleStart: msDate(usage.billingCycleStart),
    billingCycleEnd: msDate(usage.billingCycleEnd),
    membershipType: planInfo?.planInfo?.planName?.trim() || undefined,
    limitType: limits?.limitType,
    accountEmail: jwt?.email,
    accountID: jwt?.subject,
  };
  return figures;
}

/**
 * The percent a display message carries: "You've used 42% of your included total usage" (total), "… API
 * usage" (api), "… auto usage" (auto). Only a number between 0 and 100 counts.
 */
export function messagePercent(
  messages: readonly (string | undefined)[],
  pool: 'total' | 'auto' | 'api',
): number | undefined {
  for (const message of messages) {
    if (message === undefined) continue;
    const match = /(\d+(?:\.\d+)?)\s*%\s+of\s+your\s+(?:included\s+)?(\w+)/i.exec(message);
    if (!match || match[2]!.toLowerCase() !== pool) continue;
    const value = Number(match[1]);
    if (Number.isFinite(value) && value >= 0 && value <= 100) return value;
  }
  return undefined;
}

/** int64 milliseconds; 0 or absent is no date. */
function msDate(ms: number | undefined): Date | undefined {
  if (ms === undefined || ms <= 0) return undefined;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

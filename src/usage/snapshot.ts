import type { SandStatus } from '../api/schemas/sand-status.js';
import type { UsageStatus } from '../api/schemas/usage-status.js';
import { grokBotWindow } from './grok-bot.js';
import { planName } from './plan-name.js';
import { resetText } from './reset-text.js';
import { cycleMinutes, hasUsableRequestQuota, type UsageFigures } from './summary.js';
import {
  DEFAULT_LABELS,
  type DetailSection,
  type Identity,
  type ProviderCost,
  type RateWindow,
  type UsageSnapshot,
} from './types.js';
import {
  providerCostFromUnifiedSpend,
  qualifiesForUsageStatus,
  unifiedSpendFrom,
  unifiedWeeklyPool,
  WEEKLY_LABEL,
} from './unified.js';

export interface SnapshotInputs {
  /** Summary figures, with a verified team budget already applied. */
  figures: UsageFigures;
  sand?: SandStatus;
  /** v2/usage-status, only ever consulted for unified personal memberships. */
  usageStatus?: UsageStatus;
  now: Date;
  /** IANA zone for `Resets Feb 1 at 12:00AM`. */
  timeZone: string;
}

/** `remainingPercent = max(0, 100 − usedPercent)`. */
export function remainingPercent(window: RateWindow): number {
  return Math.max(0, 100 - window.usedPercent);
}

export function buildUsageSnapshot({
  figures,
  sand,
  usageStatus,
  now,
  timeZone,
}: SnapshotInputs): UsageSnapshot {
  const snapshot: UsageSnapshot = {
    ...monthlyWindows(figures, timeZone),
    labels: { ...DEFAULT_LABELS },
    extraRateWindows: [],
    details: requestQuotaDetails(figures),
    updatedAt: now,
    identity: identityFrom(figures),
  };

  const context = { now, timeZone, requestQuotaUsable: hasUsableRequestQuota(figures) };
  const pool = unifiedWeeklyPool(sand, context);
  if (pool) {
    // The shared weekly pool replaces the stale monthly Total/Cursor/Third Party
    // bars. It is the same allowance the Grok Bot extra would show, so it is not listed twice.
    snapshot.primary = pool;
    snapshot.secondary = null;
    snapshot.tertiary = null;
    snapshot.labels.primary = WEEKLY_LABEL;
  } else {
    const grok = grokBotWindow(sand, context);
    if (grok) snapshot.extraRateWindows.push(grok);
  }

  const unifiedSpend = qualifiesForUsageStatus(sand, figures.limitType)
    ? unifiedSpendFrom(usageStatus, now)
    : undefined;
  const cost = unifiedSpend
    ? providerCostFromUnifiedSpend(unifiedSpend, now)
    : providerCostFrom(figures, now);
  if (cost) snapshot.providerCost = cost;
  return snapshot;
}

/** A usable request quota as the primary window, else the plan, auto and API percents. */
function monthlyWindows(
  figures: UsageFigures,
  timeZone: string,
): Pick<UsageSnapshot, 'primary' | 'secondary' | 'tertiary'> {
  const minutes = cycleMinutes(figures);
  const end = figures.billingCycleEnd;
  const timing = (usedPercent: number): RateWindow => {
    const window: RateWindow = { usedPercent };
    if (minutes !== undefined) window.windowMinutes = minutes;
    if (end) {
      window.resetsAt = end;
      window.resetDescription = resetText(end, timeZone);
    }
    return window;
  };

  if (hasUsableRequestQuota(figures)) {
    const used = figures.requestsUsed!;
    const limit = figures.requestsLimit!;
    // Not clamped: 600 of 500 requests is 120 %.
    const primary = timing((used / limit) * 100);
    primary.resetDescription = `${used} / ${limit} requests`;
    primary.figures = [used, limit];
    return { primary, secondary: null, tertiary: null };
  }
  return {
    primary: timing(figures.planPercentUsed),
    secondary: figures.autoPercentUsed === undefined ? null : timing(figures.autoPercentUsed),
    tertiary: figures.apiPercentUsed === undefined ? null : timing(figures.apiPercentUsed),
  };
}

function requestQuotaDetails(figures: UsageFigures): DetailSection[] {
  if (!hasUsableRequestQuota(figures)) return [];
  return [
    {
      title: 'Usage',
      rows: [
        {
          label: 'Request quota',
          value: `${figures.requestsUsed} / ${figures.requestsLimit}`,
          figures: [figures.requestsUsed ?? 0, figures.requestsLimit ?? 0],
        },
      ],
    },
  ];
}

/**
 * The on-demand ("Extra usage") budget. A personal cap wins over the team budget;
 * a budget with nothing spent is shown, and spend without a limit is shown with a limit of 0.
 */
export function providerCostFrom(figures: UsageFigures, now: Date): ProviderCost | undefined {
  const team = !((figures.onDemandLimitUSD ?? 0) > 0) && (figures.teamOnDemandLimitUSD ?? 0) > 0;
  const used = team ? (figures.teamOnDemandUsedUSD ?? 0) : figures.onDemandUsedUSD;
  const limit = (team ? figures.teamOnDemandLimitUSD : figures.onDemandLimitUSD) ?? 0;
  if (!(used > 0 || limit > 0)) return undefined;
  const cost: ProviderCost = { used, limit, currencyCode: 'USD', period: 'Monthly', updatedAt: now };
  if (figures.billingCycleEnd) cost.resetsAt = figures.billingCycleEnd;
  if (team && figures.onDemandUsedUSD > 0) cost.personalUsed = figures.onDemandUsedUSD;
  return cost;
}

function identityFrom(figures: UsageFigures): Identity {
  const identity: Identity = { providerID: 'cursor' };
  if (figures.accountEmail !== undefined) identity.accountEmail = figures.accountEmail;
  const loginMethod = planName(figures.membershipType);
  if (loginMethod !== undefined) identity.loginMethod = loginMethod;
  if (figures.accountID !== undefined) identity.accountID = figures.accountID;
  return identity;
}

import type { SandStatus } from '../api/schemas/sand-status.js';
import type { UsageStatus } from '../api/schemas/usage-status.js';
import { parseIsoDate } from '../lib/iso-date.js';
import { usdFromCents } from '../lib/money.js';
import { grokAllowance, paidWeeklyWindow, type SandContext } from './grok-bot.js';
import { clampPercent } from './summary.js';
import type { ProviderCost, RateWindow } from './types.js';

/** The unified Cursor/Grok account: its weekly pool and additional spend. */

export const WEEKLY_LABEL = 'Weekly';

/**
 * `isUnified: true` with a usable pool and a current reset, and no valid request quota: the shared weekly
 * pool becomes the primary bar. Missing or expired timing keeps the monthly layout (undefined here).
 */
export function unifiedWeeklyPool(
  sand: SandStatus | undefined,
  context: SandContext,
): RateWindow | undefined {
  if (sand?.isUnified !== true || context.requestQuotaUsable || sand.usagePercent === undefined)
    return undefined;
  if (grokAllowance(sand, context.now) !== 'paid') return undefined;
  const window = paidWeeklyWindow(sand, clampPercent(sand.usagePercent), context.timeZone);
  if (!window.resetsAt || window.resetsAt.getTime() <= context.now.getTime()) return undefined;
  return window;
}

/** v2/usage-status replaces the legacy /api/usage lookup only for unified personal memberships. */
export function qualifiesForUsageStatus(
  sand: SandStatus | undefined,
  summaryLimitType: string | undefined,
): boolean {
  return sand?.isUnified === true && summaryLimitType === 'user';
}

export interface UnifiedSpend {
  usedUSD: number;
  limitUSD: number;
  periodStart: Date;
  resetsAt: Date;
}

/**
 * `available: false`, a missing or malformed field, another limit type, or a period
 * that does not contain now make the response unavailable (undefined), which keeps the summary's spend.
 * `creditsUsedCents` is separate consumption and is not added.
 */
export function unifiedSpendFrom(status: UsageStatus | undefined, now: Date): UnifiedSpend | undefined {
  if (!status) return undefined;
  if (status.limitType !== undefined && status.limitType !== 'user') return undefined;
  const monthly = status.monthly;
  const available = monthly?.available ?? status.available;
  const usedCents = monthly?.usedCents ?? status.usedCents;
  const limitCents = monthly?.limitCents ?? status.limitCents;
  const periodStart = parseIsoDate(monthly?.periodStart ?? status.periodStart);
  const resetsAt = parseIsoDate(monthly?.resetsAt ?? status.resetsAt);
  if (available !== true || !isCents(usedCents) || !isCents(limitCents) || !periodStart || !resetsAt) {
    return undefined;
  }
  const time = now.getTime();
  if (periodStart.getTime() > time || resetsAt.getTime() <= time) return undefined;
  return { usedUSD: usdFromCents(usedCents), limitUSD: usdFromCents(limitCents), periodStart, resetsAt };
}

function isCents(value: number | undefined): value is number {
  return value !== undefined && Number.isFinite(value) && value >= 0;
}

/** A valid reading replaces the summary's cost; zero stays zero. */
export function providerCostFromUnifiedSpend(spend: UnifiedSpend, now: Date): ProviderCost | undefined {
  if (!(spend.usedUSD > 0 || spend.limitUSD > 0)) return undefined;
  return {
    used: spend.usedUSD,
    limit: spend.limitUSD,
    currencyCode: 'USD',
    period: 'Monthly',
    resetsAt: spend.resetsAt,
    updatedAt: now,
  };
}

import type { SandStatus } from '../api/schemas/sand-status.js';
import { parseIsoDate } from '../lib/iso-date.js';
import { resetText } from './reset-text.js';
import { clampPercent } from './summary.js';
import type { ExtraRateWindow, RateWindow } from './types.js';

/** The Grok Bot allowance from get-sand-usage-status. */

/** Paid allowances run on the documented 7-day cadence whatever `currentPeriodStart` says. */
const WEEK_MINUTES = 10_080;

export type GrokAllowance = 'paid' | 'trial';

/**
 * The current `includedLimitZero` wins over the older `hasNonZeroIncludedLimit`. A trial grants an allowance
 * only while its expiry parses and lies ahead, even when exhausted; paid wins when both are present.
 */
export function grokAllowance(sand: SandStatus, now: Date): GrokAllowance | undefined {
  const paid =
    sand.includedLimitZero !== undefined
      ? sand.includedLimitZero === false
      : sand.hasNonZeroIncludedLimit === true;
  if (paid) return 'paid';
  const trialEnd = parseIsoDate(sand.sandTrialExpiresAt);
  if (trialEnd && trialEnd.getTime() > now.getTime()) return 'trial';
  return undefined;
}

/**
 * The paid weekly allowance as a window: the reset from nextResetTimestampUtc and the fixed 10080 minutes.
 * Shared by the Grok Bot bar and the unified pool; no valid reset gives the percent alone (no pace).
 */
export function paidWeeklyWindow(sand: SandStatus, usedPercent: number, timeZone: string): RateWindow {
  const resetsAt = parseIsoDate(sand.nextResetTimestampUtc);
  if (!resetsAt) return { usedPercent };
  return {
    usedPercent,
    windowMinutes: WEEK_MINUTES,
    resetsAt,
    resetDescription: resetText(resetsAt, timeZone),
  };
}

/** What the Grok Bot window and the unified pool are decided in. */
export interface SandContext {
  now: Date;
  timeZone: string;
  /** Usable legacy request plans hide both. */
  requestQuotaUsable: boolean;
}

export function grokBotWindow(
  sand: SandStatus | undefined,
  context: SandContext,
): ExtraRateWindow | undefined {
  if (!sand || context.requestQuotaUsable || sand.usagePercent === undefined) return undefined;
  const allowance = grokAllowance(sand, context.now);
  if (!allowance) return undefined;
  const usedPercent = clampPercent(sand.usagePercent);
  // Trial expiry does not replenish quota: no reset, no duration, no pace.
  const window =
    allowance === 'trial' ? { usedPercent } : paidWeeklyWindow(sand, usedPercent, context.timeZone);
  return {
    id: 'cursor-grok-bot',
    title: 'Grok Bot',
    window,
    usageKnown: true,
    showsPace: window.resetsAt !== undefined,
  };
}

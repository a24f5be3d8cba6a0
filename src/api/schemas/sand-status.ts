import { z } from 'zod';
import { lenientBoolean, lenientNumber, lenientString } from './lenient.js';

/**
 * POST /api/dashboard/get-sand-usage-status, its full field set (Grok Bot weekly allowance and the unified
 * Cursor/Grok pool), decoded leniently.
 */
export const sandStatusSchema = z.object({
  usagePercent: lenientNumber,
  nextResetTimestampUtc: lenientString,
  currentPeriodStart: lenientString,
  hasAvailableUsage: lenientBoolean,
  hasNonZeroIncludedLimit: lenientBoolean,
  includedLimitZero: lenientBoolean,
  sandTrialExpiresAt: lenientString,
  isUnified: lenientBoolean,
});

export type SandStatus = z.infer<typeof sandStatusSchema>;

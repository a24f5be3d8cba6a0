import { z } from 'zod';
import { lenientBoolean, lenientNumber, lenientString } from './lenient.js';

/**
 * POST /api/dashboard/get-sand-usage-status, the full field set of newer-endpoints.md (Grok Bot weekly
 * allowance and the unified Cursor/Grok pool), decoded leniently.
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

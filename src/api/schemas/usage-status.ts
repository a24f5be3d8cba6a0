import { z } from 'zod';
import { lenientBoolean, lenientNumber, lenientString } from './lenient.js';

/**
 * GET /api/dashboard/v2/usage-status?scope=user, decoded leniently. The money fields may sit inside `monthly`
 * or at the top level.
 */
const monthlyFields = {
  available: lenientBoolean,
  usedCents: lenientNumber,
  limitCents: lenientNumber,
  creditsUsedCents: lenientNumber,
  periodStart: lenientString,
  resetsAt: lenientString,
};

export const usageStatusSchema = z.object({
  scope: lenientString,
  limitType: lenientString,
  monthly: z.object(monthlyFields).optional().catch(undefined),
  ...monthlyFields,
});

export type UsageStatus = z.infer<typeof usageStatusSchema>;

import { z } from 'zod';
import { lenientId, lenientNumber, lenientString } from '../../schemas/lenient.js';
import { requiredCount } from './fields.js';

/**
 * `POST /teams/spend`: one page of members' spend in the current cycle. Money
 * fields are read leniently (number or numeric text; another shape reads as unknown, shown as `—`, never
 * as 0); the counts the pager proves completeness with are required.
 */
const memberSpendSchema = z.looseObject({
  userId: lenientId,
  name: lenientString,
  email: lenientString,
  role: lenientString,
  /** On-demand spend this cycle (2026: the overage beyond what the plan includes). */
  spendCents: lenientNumber,
  /** Included plus on-demand; older answers send includedSpendCents instead. */
  overallSpendCents: lenientNumber,
  includedSpendCents: lenientNumber,
  fastPremiumRequests: lenientNumber,
  hardLimitOverrideDollars: lenientNumber,
  monthlyLimitDollars: lenientNumber,
  effectivePerUserLimitDollars: lenientNumber,
});

export const spendPageSchema = z.looseObject({
  teamMemberSpend: z.array(memberSpendSchema),
  subscriptionCycleStart: lenientNumber,
  totalMembers: requiredCount('totalMembers'),
  totalPages: requiredCount('totalPages'),
});

export type SpendPage = z.output<typeof spendPageSchema>;
export type MemberSpendRow = z.output<typeof memberSpendSchema>;

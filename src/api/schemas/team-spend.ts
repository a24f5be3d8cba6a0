import { z } from 'zod';
import { lenientNumber, lenientString } from './lenient.js';

/**
 * POST /api/dashboard/get-team-spend, decoded leniently. Only the fields the member budget needs are read:
 * names, user ids and roles of other members are never parsed, and the caller reduces each page to the
 * signed-in member's row at once (docs/invariants.md, "Other members' data stays out").
 */
const memberSchema = z.object({
  email: lenientString,
  overallSpendCents: lenientNumber,
  effectivePerUserLimitDollars: lenientNumber,
  monthlyLimitDollars: lenientNumber,
});

export const teamSpendSchema = z.object({
  teamMemberSpend: z.array(memberSchema.nullable().catch(null)).optional().catch(undefined),
  totalMembers: lenientNumber,
  totalPages: lenientNumber,
});

export type TeamSpendPage = z.infer<typeof teamSpendSchema>;

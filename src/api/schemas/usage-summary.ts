import { z } from 'zod';
import { optionalField } from './lenient.js';

/**
 * GET /api/usage-summary: every field optional (`{}` is valid), but a field of the wrong type fails the
 * decode. Cents are integers; the `*PercentUsed` fields are percent-unit doubles.
 */

const cents = optionalField(z.number().int());
const percent = optionalField(z.number());
const flag = optionalField(z.boolean());
const text = optionalField(z.string());

const budgetSchema = z.object({
  enabled: flag,
  used: cents,
  limit: cents,
  remaining: cents,
});

const planSchema = z.object({
  enabled: flag,
  used: cents,
  limit: cents,
  remaining: cents,
  breakdown: optionalField(z.object({ included: cents, bonus: cents, total: cents })),
  autoPercentUsed: percent,
  apiPercentUsed: percent,
  totalPercentUsed: percent,
});

export const usageSummarySchema = z.object({
  billingCycleStart: text,
  billingCycleEnd: text,
  membershipType: text,
  limitType: text,
  isUnlimited: flag,
  autoModelSelectedDisplayMessage: text,
  namedModelSelectedDisplayMessage: text,
  individualUsage: optionalField(
    z.object({
      plan: optionalField(planSchema),
      onDemand: optionalField(budgetSchema),
      overall: optionalField(budgetSchema),
    }),
  ),
  teamUsage: optionalField(
    z.object({
      onDemand: optionalField(budgetSchema),
      pooled: optionalField(budgetSchema),
    }),
  ),
});

export type UsageSummary = z.infer<typeof usageSummarySchema>;
export type UsageBudget = z.infer<typeof budgetSchema>;

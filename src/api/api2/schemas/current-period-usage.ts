/**
 * `DashboardService/GetCurrentPeriodUsage` (docs/api2.md, "Methods"): every field optional, since api2 leaves
 * out fields at their default and Enterprise seats get no `planUsage` at all. int64 fields arrive as decimal
 * strings. A percent outside 0–100 or a negative spend fails the decode with the field's path, so the run
 * reports the answer as invalid rather than showing it (docs/invariants.md, "Fail closed").
 */
import { z } from 'zod';
import { optionalField } from '../../schemas/lenient.js';

/** int64 as Connect's JSON codec writes it: a decimal string, or a number from a lenient encoder. */
const int64 = optionalField(
  z.union([
    z.number().int(),
    z
      .string()
      .regex(/^-?\d+$/, 'expected a decimal integer')
      .transform(Number),
  ]),
);
/** Cents spent: never negative. */
const spend = optionalField(z.number().int().nonnegative('a spend cannot be negative'));
/** Cents of a limit or a remainder; a remainder may go below 0 when spend passes the limit. */
const cents = optionalField(z.number().int());
/** Cursor's own percent, read and never derived (docs/api2.md): 0–100. */
const percent = optionalField(
  z.number().min(0, 'a percent cannot be below 0').max(100, 'a percent cannot be above 100'),
);
const text = optionalField(z.string());

const planUsageSchema = z.object({
  totalSpend: spend,
  includedSpend: spend,
  bonusSpend: spend,
  remaining: cents,
  limit: cents,
  autoSpend: spend,
  apiSpend: spend,
  autoLimit: cents,
  apiLimit: cents,
  autoPercentUsed: percent,
  apiPercentUsed: percent,
  totalPercentUsed: percent,
});

const spendLimitUsageSchema = z.object({
  totalSpend: spend,
  pooledLimit: cents,
  pooledUsed: spend,
  pooledRemaining: cents,
  individualLimit: cents,
  individualUsed: spend,
  individualRemaining: cents,
  limitType: text,
  overallLimit: cents,
  overallUsed: spend,
  overallRemaining: cents,
});

export const currentPeriodUsageSchema = z.object({
  billingCycleStart: int64,
  billingCycleEnd: int64,
  planUsage: optionalField(planUsageSchema),
  spendLimitUsage: optionalField(spendLimitUsageSchema),
  displayThreshold: optionalField(z.number()),
  enabled: optionalField(z.boolean()),
  displayMessage: text,
  autoModelSelectedDisplayMessage: text,
  namedModelSelectedDisplayMessage: text,
});

export type CurrentPeriodUsage = z.infer<typeof currentPeriodUsageSchema>;

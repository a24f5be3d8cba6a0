/**
 * `DashboardService/GetHardLimit` (docs/api2.md): `hardLimit` in dollars; 100 000 000 or more means the
 * on-demand budget is unlimited.
 */
import { z } from 'zod';
import { optionalField } from '../../schemas/lenient.js';

export const UNLIMITED_HARD_LIMIT = 100_000_000;

export const hardLimitSchema = z.object({
  hardLimit: optionalField(z.number().nonnegative('a limit cannot be negative')),
  noUsageBasedAllowed: optionalField(z.boolean()),
});

export type HardLimit = z.infer<typeof hardLimitSchema>;

import { z } from 'zod';
import { optionalField } from './lenient.js';

/** GET /api/usage?user=<id>: legacy request quotas, strict integer types. */
const count = optionalField(z.number().int());

export const legacyUsageSchema = z.object({
  'gpt-4': optionalField(
    z.object({
      numRequests: count,
      numRequestsTotal: count,
      numTokens: count,
      maxRequestUsage: count,
      maxTokenUsage: count,
    }),
  ),
  startOfMonth: optionalField(z.string()),
});

export type LegacyUsage = z.infer<typeof legacyUsageSchema>;

import { z } from 'zod';
import { lenientInteger } from '../../schemas/events.js';

/**
 * A count the completeness rules depend on (`totalMembers`, `totalPages`): a whole number ≥ 0, sent as a
 * number or numeric text. Anything else fails the page, because paging cannot be proven complete
 * without it (docs/invariants.md, "No partial total").
 */
export function requiredCount(name: string) {
  return z.unknown().transform((value, ctx) => {
    const count = lenientInteger(value);
    if (count === undefined || count < 0) {
      ctx.addIssue({ code: 'custom', message: `${name} is not a whole number ≥ 0` });
      return z.NEVER;
    }
    return count;
  });
}

/** An optional whole number ≥ 0; a value of another shape reads as absent. */
const optionalCount = z
  .unknown()
  .transform((value) => {
    const count = lenientInteger(value);
    return count !== undefined && count >= 0 ? count : undefined;
  })
  .optional();

/** `pagination` as the Admin API sends it on paged endpoints; every field optional. */
export const paginationSchema = z
  .looseObject({
    numPages: optionalCount,
    currentPage: optionalCount,
    pageSize: optionalCount,
    hasNextPage: z.boolean().optional().catch(undefined),
    hasPreviousPage: z.boolean().optional().catch(undefined),
  })
  .optional()
  .catch(undefined);

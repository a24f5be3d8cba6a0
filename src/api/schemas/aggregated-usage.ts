/**
 * `POST /api/dashboard/get-aggregated-usage-events`: cursor.com's own totals of a range's events, in one
 * answer (no pages). Token counts are decimal strings, absent when zero; money is in cents. Only the
 * range's totals are read: they are what the event store's content check compares
 * (docs/invariants.md, "When a stored range may be trusted"). An answer without the `aggregations` array
 * (an unsupported window gives `{"code":"internal"}`) is not totals, so it fails the schema.
 */
import { z } from 'zod';

/** A count as text or a number; absent is 0. A count past 2^53 is kept as the double it rounds to. */
const tokenCount = z
  .union([z.string().regex(/^\d+$/).transform(Number), z.number().int().nonnegative()])
  .optional()
  .transform((count) => count ?? 0);

export const aggregatedUsageSchema = z
  .object({
    aggregations: z.array(z.unknown()),
    totalInputTokens: tokenCount,
    totalOutputTokens: tokenCount,
    totalCacheReadTokens: tokenCount,
    totalCacheWriteTokens: tokenCount,
    totalCostCents: z.number().nonnegative().optional(),
  })
  // Absent money means none only for a range with nothing in it.
  .refine((body) => body.totalCostCents !== undefined || body.aggregations.length === 0, {
    message: 'totalCostCents is missing',
    path: ['totalCostCents'],
  })
  .transform((body) => ({
    inputTokens: body.totalInputTokens,
    outputTokens: body.totalOutputTokens,
    cacheReadTokens: body.totalCacheReadTokens,
    cacheWriteTokens: body.totalCacheWriteTokens,
    totalCents: body.totalCostCents ?? 0,
  }));

/** A range's totals: four token sums and the API-rate cost in cents. */
export type RangeTotals = z.infer<typeof aggregatedUsageSchema>;

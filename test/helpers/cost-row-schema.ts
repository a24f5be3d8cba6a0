/**
 * The documented `cost --json` row: CodexBar's CostPayload (docs/behaviour.md §21.8) plus the README's
 * additive fields (window, apiRateCostUSD, byModel, byKind, requestCounts). Every object is strict, so a
 * field that neither document names fails validation.
 */
import { z } from 'zod';

/** docs/behaviour.md §3.7: ISO-8601 UTC without milliseconds. */
const isoDate = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
const dayKey = z.string().regex(/^\d{4}-\d\d-\d\d$/);
const count = z.number().int().nonnegative();
const usd = z.number();

const tokenFields = {
  inputTokens: count.optional(),
  outputTokens: count.optional(),
  cacheReadTokens: count.optional(),
  cacheCreationTokens: count.optional(),
  reasoningTokens: count.optional(),
  totalTokens: count.optional(),
};

const provenance = z.enum(['listPriceEstimate', 'vendorMetered', 'mixed', 'unknown']);
const coverage = z.strictObject({ priced: count, unpriced: count, unmetered: count, estimated: count });

const costDay = z.strictObject({
  date: dayKey,
  ...tokenFields,
  totalCost: usd.optional(),
  modelsUsed: z.array(z.string()).optional(),
  modelBreakdowns: z
    .array(z.strictObject({ modelName: z.string(), cost: usd.optional(), totalTokens: count.optional() }))
    .optional(),
});

const totals = z.strictObject({
  ...tokenFields,
  totalCost: usd.optional(),
  provenance: provenance.optional(),
  coverage: coverage.optional(),
});

/** README "JSON": requests priced by Cursor, estimated at list price, and left unpriced. */
const requestCounts = z.strictObject({ reported: count, estimated: count, unpriced: count });

const byModelEntry = z.strictObject({
  modelName: z.string(),
  apiRateCostUSD: usd.optional(),
  meteredCostUSD: usd.optional(),
  ...tokenFields,
  requests: count,
  requestCounts,
});

const byKindEntry = z.strictObject({
  requests: count,
  totalTokens: count.optional(),
  apiRateCostUSD: usd.optional(),
  meteredCostUSD: usd.optional(),
});

export const costRowSchema = z.strictObject({
  provider: z.literal('cursor'),
  account: z.string().min(1).optional(),
  source: z.literal('web'),
  updatedAt: isoDate,
  currencyCode: z.literal('USD').optional(),
  sessionTokens: count.optional(),
  sessionCostUSD: usd.optional(),
  historyDays: count.optional(),
  historyCoverageIsEstablished: z.literal(true).optional(),
  last30DaysTokens: count.optional(),
  last30DaysCostUSD: usd.optional(),
  meteredCostUSD: usd.optional(),
  daily: z.array(costDay),
  projects: z.tuple([]),
  totals: totals.optional(),
  provenance: provenance.optional(),
  coverage: coverage.optional(),
  // README additive fields.
  window: z.strictObject({ start: isoDate, end: isoDate, timeZone: z.string().min(1) }),
  apiRateCostUSD: usd.optional(),
  byModel: z.array(byModelEntry),
  byKind: z.strictObject({
    included: byKindEntry,
    onDemand: byKindEntry,
    notCharged: byKindEntry,
    byok: byKindEntry,
    other: byKindEntry,
  }),
  requestCounts,
});

/**
 * docs/behaviour.md §3.9: the cost error row; `updatedAt` is the time of the error and there is no `kind`.
 */
export const costErrorRowSchema = z.strictObject({
  provider: z.literal('cursor'),
  account: z.string().min(1).optional(),
  source: z.literal('web'),
  updatedAt: isoDate,
  daily: z.tuple([]),
  projects: z.tuple([]),
  error: z.strictObject({ code: count, message: z.string().min(1) }),
});

export const costOutputSchema = z.array(z.union([costRowSchema, costErrorRowSchema])).length(1);

export type CostRowJson = z.infer<typeof costRowSchema>;

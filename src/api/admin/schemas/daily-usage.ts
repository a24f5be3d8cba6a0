import { z } from 'zod';
import { lenientNumber, lenientString } from '../../schemas/lenient.js';
import { paginationSchema } from './fields.js';

/** The per-member daily counters that add up across days and members. */
export const DAILY_METRICS = [
  'totalLinesAdded',
  'totalLinesDeleted',
  'acceptedLinesAdded',
  'acceptedLinesDeleted',
  'totalApplies',
  'totalAccepts',
  'totalRejects',
  'totalTabsShown',
  'totalTabsAccepted',
  'composerRequests',
  'chatRequests',
  'agentRequests',
  'cmdkUsages',
  'subscriptionIncludedReqs',
  'usageBasedReqs',
  'apiKeyReqs',
  'bugbotUsages',
] as const;

export type DailyMetric = (typeof DAILY_METRICS)[number];

const metricFields = Object.fromEntries(DAILY_METRICS.map((metric) => [metric, lenientNumber])) as Record<
  DailyMetric,
  typeof lenientNumber
>;

const dailyRowSchema = z.looseObject({
  /** Epoch ms of the day. */
  date: lenientNumber,
  /** `YYYY-MM-DD`, on newer rows. */
  day: lenientString,
  userId: z.union([z.string(), z.number()]).optional().catch(undefined),
  email: lenientString,
  isActive: z.boolean().optional().catch(undefined),
  mostUsedModel: lenientString,
  clientVersion: lenientString,
  ...metricFields,
});

/**
 * `POST /teams/daily-usage-data`: `data` must be an array (a page without it is not the documented
 * envelope); row fields are lenient, and a counter of the wrong shape is unknown in every sum it enters.
 */
export const dailyUsageSchema = z.looseObject({
  data: z.array(dailyRowSchema),
  pagination: paginationSchema,
});

export type DailyUsagePage = z.output<typeof dailyUsageSchema>;
export type DailyUsageRow = z.output<typeof dailyRowSchema>;

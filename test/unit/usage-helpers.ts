import { legacyUsageSchema } from '../../src/api/schemas/legacy-usage.js';
import { type SandStatus, sandStatusSchema } from '../../src/api/schemas/sand-status.js';
import { type UsageStatus, usageStatusSchema } from '../../src/api/schemas/usage-status.js';
import { usageSummarySchema } from '../../src/api/schemas/usage-summary.js';
import { buildUsageSnapshot } from '../../src/usage/snapshot.js';
import { summarizeUsage, type UsageFigures } from '../../src/usage/summary.js';
import type { UsageSnapshot } from '../../src/usage/types.js';

/** Builders shared by the usage mapping tests: every input goes through the real zod schema first. */

export const figuresFrom = (summary: unknown, legacy?: unknown): UsageFigures =>
  summarizeUsage({
    summary: usageSummarySchema.parse(summary),
    legacy: legacy === undefined ? undefined : legacyUsageSchema.parse(legacy),
  });

export const sandFrom = (json: unknown): SandStatus => sandStatusSchema.parse(json);
export const usageStatusFrom = (json: unknown): UsageStatus => usageStatusSchema.parse(json);

export interface SnapshotCase {
  summary?: unknown;
  legacy?: unknown;
  sand?: unknown;
  usageStatus?: unknown;
  figures?: UsageFigures;
  now: Date;
  timeZone?: string;
}

export function snapshotFrom(input: SnapshotCase): UsageSnapshot {
  return buildUsageSnapshot({
    figures: input.figures ?? figuresFrom(input.summary ?? {}, input.legacy),
    sand: input.sand === undefined ? undefined : sandFrom(input.sand),
    usageStatus: input.usageStatus === undefined ? undefined : usageStatusFrom(input.usageStatus),
    now: input.now,
    timeZone: input.timeZone ?? 'UTC',
  });
}

/** The §2.5 worked example of codexbar-cli.md: TZ=UTC, now 2026-07-20T15:00:00Z. */
export const WORKED_NOW = new Date('2026-07-20T15:00:00Z');
export const WORKED_SUMMARY = {
  billingCycleStart: '2026-07-05T00:00:00.000Z',
  billingCycleEnd: '2026-08-05T00:00:00.000Z',
  membershipType: 'pro',
  limitType: 'user',
  individualUsage: {
    plan: {
      enabled: true,
      used: 840,
      limit: 2000,
      totalPercentUsed: 42,
      autoPercentUsed: 35,
      apiPercentUsed: 61,
    },
    onDemand: { enabled: true, used: 1234, limit: 5000 },
  },
};
export const WORKED_SAND = {
  usagePercent: 20,
  currentPeriodStart: '2026-07-17T00:00:00.000Z',
  nextResetTimestampUtc: '2026-07-24T00:00:00.000Z',
  hasAvailableUsage: true,
  hasNonZeroIncludedLimit: true,
};

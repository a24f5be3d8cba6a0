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
const usageStatusFrom = (json: unknown): UsageStatus => usageStatusSchema.parse(json);

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

export { WORKED_NOW, WORKED_SAND, WORKED_SUMMARY } from '../../fixtures/worked-example.js';

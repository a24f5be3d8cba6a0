import { z } from 'zod';
import { ACCOUNT_KEY, isIsoInstant, SNAPSHOT_VERSION, type SnapshotFile } from './snapshot-file.js';

/**
 * The zod schema of the usage snapshot file (docs/behaviour.md §26.2), used by the full CLI. The statusline
 * fast path checks the same shape by hand (snapshot-check.ts); a test proves the two agree.
 */

/** Built on first use: only a run that may answer from the cache reads a snapshot (docs/behaviour.md §26.10). */
export const snapshotFileSchema: z.ZodType<SnapshotFile> = z.lazy(buildSchema);

function buildSchema() {
  const instant = z.string().refine(isIsoInstant);
  const count = z.number();

  const windowSchema = z.object({
    usedPercent: count,
    windowMinutes: count.optional(),
    resetsAt: instant.optional(),
    resetDescription: z.string().optional(),
  });

  return z.object({
    version: z.literal(SNAPSHOT_VERSION),
    account: z.string().regex(ACCOUNT_KEY),
    fetchedAt: instant,
    baseUrl: z.string(),
    timeZone: z.string(),
    snapshot: z.object({
      primary: windowSchema.nullable(),
      secondary: windowSchema.nullable(),
      tertiary: windowSchema.nullable(),
      labels: z.object({ primary: z.string(), secondary: z.string(), tertiary: z.string() }),
      extraRateWindows: z.array(
        z.object({
          id: z.string(),
          title: z.string(),
          window: windowSchema,
          usageKnown: z.boolean().optional(),
          showsPace: z.boolean().optional(),
        }),
      ),
      providerCost: z
        .object({
          used: count,
          limit: count,
          currencyCode: z.literal('USD'),
          period: z.string().optional(),
          resetsAt: instant.optional(),
          personalUsed: count.optional(),
          updatedAt: instant,
        })
        .optional(),
      details: z.array(
        z.object({
          title: z.string().optional(),
          rows: z.array(
            z.object({ label: z.string(), value: z.string(), secondaryValue: z.string().optional() }),
          ),
        }),
      ),
      updatedAt: instant,
      identity: z.object({
        providerID: z.literal('cursor'),
        accountEmail: z.string().optional(),
        accountOrganization: z.string().optional(),
        loginMethod: z.string().optional(),
        accountID: z.string().optional(),
      }),
    }),
  });
}

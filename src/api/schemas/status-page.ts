import { z } from 'zod';

/**
 * Statuspage's `GET /api/v2/status.json`: `status.indicator` is required; the description and
 * `page.updated_at` are optional. Unknown keys are ignored.
 */
export const statusPageSchema = z.object({
  page: z.object({ updated_at: z.string().nullish() }).nullish(),
  status: z.object({
    indicator: z.string(),
    description: z.string().nullish(),
  }),
});

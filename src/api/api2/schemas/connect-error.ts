/**
 * A Connect error body (docs/api2.md, "Errors"): `{"code":"unauthenticated","message":…,"details":[{"type":
 * "aiserver.v1.ErrorDetails","debug":{"error":"ERROR_NOT_LOGGED_IN",…}}]}`. Only `code` and `debug.error`
 * are read: they decide which typed error the answer becomes.
 */
import { z } from 'zod';

export const connectErrorSchema = z.object({
  code: z.string().optional(),
  details: z.array(z.object({ debug: z.object({ error: z.string().optional() }).optional() })).optional(),
});

/** `DashboardService/GetPlanInfo` (docs/api2.md): only the plan's name is read. */
import { z } from 'zod';
import { optionalField } from '../../schemas/lenient.js';

export const planInfoSchema = z.object({
  planInfo: optionalField(z.object({ planName: optionalField(z.string()) })),
});

export type PlanInfo = z.infer<typeof planInfoSchema>;

/**
 * `aiserver.v1.AiService/AvailableModels` (docs/api2.md): `{models: [{name, clientDisplayName,
 * serverModelName, supportsMaxMode, supportsNonMaxMode, …}], modelNames?}`. Fields at their default value
 * are absent (a `false` flag, an empty name or list), so every field is optional; keys not listed here
 * (tooltips, parameter definitions, variants, aliases) are dropped, which keeps the cached answer small.
 */
import { z } from 'zod';

const availableModelSchema = z.object({
  name: z.string().optional(),
  clientDisplayName: z.string().optional(),
  serverModelName: z.string().optional(),
  supportsMaxMode: z.boolean().optional(),
  supportsNonMaxMode: z.boolean().optional(),
});

export const availableModelsSchema = z.object({
  models: z.array(availableModelSchema).optional(),
  modelNames: z.array(z.string()).optional(),
});

export type AvailableModels = z.infer<typeof availableModelsSchema>;

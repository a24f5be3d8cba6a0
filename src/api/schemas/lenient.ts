import { z } from 'zod';

/**
 * Field decoders for the newer endpoints: unknown fields are ignored, numbers may arrive as numeric strings,
 * every field is optional, and a field of the wrong type reads as absent (the mapping rules then treat the
 * response as unavailable where that field matters).
 */

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

const numericString = z
  .string()
  .trim()
  .regex(NUMERIC)
  .transform((text) => Number(text))
  .pipe(z.number());

export const lenientNumber = z.union([z.number(), numericString]).optional().catch(undefined);
export const lenientString = z.string().optional().catch(undefined);
export const lenientBoolean = z.boolean().optional().catch(undefined);
/** Ids that may be numbers or opaque strings; kept as sent so a request can echo them back. */
export const lenientId = z
  .union([z.number().int(), z.string().trim().min(1)])
  .optional()
  .catch(undefined);

/**
 * Strict about types, lenient about presence. Swift's `decodeIfPresent` reads JSON null as absent, so null is
 * accepted and normalised to undefined.
 */
export function optionalField<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((value) => value ?? undefined);
}

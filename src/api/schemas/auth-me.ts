import { z } from 'zod';
import { optionalField } from './lenient.js';

/** GET /api/auth/me: strict types; one wrongly typed field voids the whole answer. */
export const authMeSchema = z.object({
  email: optionalField(z.string()),
  email_verified: optionalField(z.boolean()),
  name: optionalField(z.string()),
  sub: optionalField(z.string()),
  created_at: optionalField(z.string()),
  updated_at: optionalField(z.string()),
  picture: optionalField(z.string()),
});

export type AuthMe = z.infer<typeof authMeSchema>;

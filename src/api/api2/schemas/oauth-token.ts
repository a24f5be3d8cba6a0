/**
 * `POST <api2>/oauth/token` (docs/api2.md, "Token refresh (opt-in)"): `{"access_token":"<jwt>","id_token":
 * "<jwt>","shouldLogout":false}`, or `shouldLogout: true` with empty tokens when the refresh token is dead.
 * Strict about types, lenient about presence: a field at its default may be left out, and an answer without
 * `access_token` is the refresher's to word. `refresh_token` appears only if Cursor rotates it.
 */
import { z } from 'zod';
import { optionalField } from '../../schemas/lenient.js';

export const oauthTokenSchema = z.object({
  access_token: optionalField(z.string()),
  id_token: optionalField(z.string()),
  shouldLogout: optionalField(z.boolean()),
  refresh_token: optionalField(z.string()),
});

export type OauthToken = z.infer<typeof oauthTokenSchema>;

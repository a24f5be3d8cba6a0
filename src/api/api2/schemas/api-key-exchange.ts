/**
 * `POST <api2>/auth/exchange_user_api_key` (docs/api2.md, "API-key sign-in (CI)"): `{"accessToken":"<jwt>",
 * "refreshToken":…}`. Strict about types, lenient about presence: an answer without `accessToken` is the
 * source's to word.
 */
import { z } from 'zod';
import { optionalField } from '../../schemas/lenient.js';

export const apiKeyExchangeSchema = z.object({
  accessToken: optionalField(z.string()),
  refreshToken: optionalField(z.string()),
});

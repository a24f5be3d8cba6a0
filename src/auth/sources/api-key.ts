/**
 * CI sign-in with a Cursor user API key (docs/api2.md, "API-key sign-in (CI)"): `CURSOR_API_KEY`, the key
 * Cursor's own CLI takes in CI, exchanged at `<api2>/auth/exchange_user_api_key` for a short-lived access
 * token that lives in this run's memory only. The session opens api2's door only (`rpcOnly`, no cookie):
 * cursor.com is never asked with it. The key is registered as a secret before it is sent, and no reason,
 * error or note ever quotes it, or anything else set in the variable.
 */
import { apiKeyExchangeSchema } from '../../api/api2/schemas/api-key-exchange.js';
import { ApiError, NotLoggedInError, ParseError } from '../../errors.js';
import { registerSecret } from '../../lib/redact.js';
import type { LocalEnvironment } from '../../local/environment.js';
import { type Api2Access, api2Request } from '../api2-access.js';
import { inspectAccessToken } from '../jwt.js';
import { type Session, type SourceResult, skipped } from '../types.js';

const API_KEY_VARIABLE = 'CURSOR_API_KEY';
const EXCHANGE_PATH = '/auth/exchange_user_api_key';
const ENDPOINT = `POST ${EXCHANGE_PATH}`;
/** Cursor's user API keys start so; anything else in the variable is someone else's key. */
const KEY_PREFIX = 'crsr_';

const NEW_KEY_HINT =
  'Check CURSOR_API_KEY: mint a new user API key at cursor.com/dashboard (Integrations, User API Keys), or sign in another way.';

/** The skip of a run that reads only cursor.com (`cost`): the exchanged token opens api2 only. */
export function notForCursorCom(env: LocalEnvironment, what: string): SourceResult {
  if (!keyValue(env)) return skipped('absent', `${API_KEY_VARIABLE} is not set`);
  return skipped(
    'not-applicable',
    `${API_KEY_VARIABLE} signs in to api2 only, and ${what} reads cursor.com, which never gets that token`,
  );
}

export async function load(env: LocalEnvironment, access: Api2Access): Promise<SourceResult> {
  const key = keyValue(env);
  if (!key) return skipped('absent', `${API_KEY_VARIABLE} is not set`);
  if (!key.startsWith(KEY_PREFIX)) {
    return skipped(
      'not-applicable',
      `${API_KEY_VARIABLE} is set but does not hold a Cursor user API key (${KEY_PREFIX}…)`,
    );
  }
  registerSecret(key);
  let exchanged: { accessToken?: string; refreshToken?: string };
  try {
    exchanged = await api2Request(access, {
      path: EXCHANGE_PATH,
      bearer: key,
      body: {},
      schema: apiKeyExchangeSchema,
    });
  } catch (error) {
    throw exchangeFailure(error);
  }
  const token = exchanged.accessToken?.trim();
  if (exchanged.refreshToken) registerSecret(exchanged.refreshToken);
  if (!token) {
    throw new ApiError(ENDPOINT, `exchanging ${API_KEY_VARIABLE} gave no access token`, { status: 200 });
  }
  registerSecret(token);
  const session: Session = {
    source: 'apikey',
    description: `Cursor API key (${API_KEY_VARIABLE}), exchanged for an access token for this run`,
    cookieHeader: '',
    accessToken: token,
    rpcOnly: true,
  };
  // The identity names the account for the usage cache; a token that is no JWT is still sent as it came.
  const inspection = inspectAccessToken(token, env.now());
  if (inspection.kind === 'usable') session.jwt = inspection.identity;
  else if (inspection.kind === 'expired') {
    return skipped('expired', `the access token exchanged for ${API_KEY_VARIABLE} is already expired`);
  }
  return { kind: 'session', session };
}

function keyValue(env: LocalEnvironment): string | undefined {
  const value = env.env[API_KEY_VARIABLE]?.trim();
  return value ? value : undefined;
}

/**
 * A refused key is "not logged in" (it is the last source, so the run ends with it); any other failure is an
 * API error naming the exchange. Neither quotes the key: the client's messages hold only the status and the
 * Connect code.
 */
function exchangeFailure(error: unknown): unknown {
  if (error instanceof NotLoggedInError || (error instanceof ApiError && error.status === 403)) {
    return new NotLoggedInError(
      ENDPOINT,
      error.status ?? 401,
      `api2 refused the key in ${API_KEY_VARIABLE} (HTTP ${error.status ?? 401} on ${ENDPOINT})`,
      NEW_KEY_HINT,
    );
  }
  if (error instanceof ParseError) {
    return new ApiError(
      ENDPOINT,
      `exchanging ${API_KEY_VARIABLE} gave an answer that is not the documented JSON`,
    );
  }
  if (error instanceof ApiError) {
    return new ApiError(ENDPOINT, `exchanging ${API_KEY_VARIABLE} failed: ${error.detail}`, {
      status: error.status,
      retryAfterMs: error.retryAfterMs,
      transport: error.transport,
    });
  }
  return error;
}

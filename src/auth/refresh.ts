/**
 * The opt-in token refresh (docs/api2.md, "Token refresh (opt-in)"): the Cursor app's or cursor-agent's
 * refresh token is posted to `<api2>/oauth/token` and the new access token is used for this run only.
 *
 * - Only with `--refresh-token` or `"allowTokenRefresh": true`, and only for a token that has expired or was
 *   rejected: whether Cursor rotates refresh tokens is unverified, and a rotated token spent here could sign
 *   the IDE out at its own next refresh.
 * - The new token lives in memory: it is never written to Cursor's files or to ours, never logged, printed or
 *   put in argv. The refresh token and every token the answer carries are registered as secrets first, so
 *   no error text can show them.
 * - A refused refresh (any HTTP error, `shouldLogout: true`, an answer that does not parse) is "not logged
 *   in" (its message is a clause the resolver puts in its own sentence), which moves the ladder on; a 200
 *   without a token is transient and ends the run; a timeout stays a timeout.
 */
import { type OauthToken, oauthTokenSchema } from '../api/api2/schemas/oauth-token.js';
import { ApiError, NotLoggedInError, ParseError } from '../errors.js';
import { registerSecret } from '../lib/redact.js';
import { type Api2Access, api2Request } from './api2-access.js';

/** Cursor's public OAuth client id, the same in every build (docs/api2.md, "Token refresh (opt-in)"). */
const CURSOR_CLIENT_ID = 'KbZUR41cY7W6zRSdpSUJ7I7mLYBKOCmB';
const OAUTH_TOKEN_PATH = '/oauth/token';
const ENDPOINT = `POST ${OAUTH_TOKEN_PATH}`;

const SIGN_IN_AGAIN_HINT =
  'Sign in to Cursor again: open the Cursor app and sign in, or run `cursor-agent login`.';

export interface RefreshTarget {
  /** e.g. `Cursor app token`: what the messages name. */
  label: string;
  /** Whose copy of the refresh token a rotation leaves stale, e.g. `the Cursor app's`. */
  owner: string;
}

/** A new access token for `refreshToken`, or a typed error that never holds either. */
export async function refreshAccessToken(
  refreshToken: string,
  access: Api2Access,
  target: RefreshTarget,
): Promise<string> {
  const sent = refreshToken.trim();
  registerSecret(sent);
  let answer: OauthToken;
  try {
    answer = await api2Request(access, {
      path: OAUTH_TOKEN_PATH,
      body: { grant_type: 'refresh_token', client_id: CURSOR_CLIENT_ID, refresh_token: sent },
      schema: oauthTokenSchema,
    });
  } catch (error) {
    throw refused(error, target);
  }
  for (const token of [answer.access_token, answer.id_token, answer.refresh_token]) {
    if (token) registerSecret(token);
  }
  if (answer.shouldLogout === true) {
    throw new NotLoggedInError(
      ENDPOINT,
      200,
      `Cursor refused to refresh the ${target.label} and asked to sign in again`,
      SIGN_IN_AGAIN_HINT,
    );
  }
  const token = answer.access_token?.trim();
  if (!token) {
    throw new ApiError(ENDPOINT, `refreshing the ${target.label} gave no access token`, {
      status: 200,
      hint: 'This may be transient: try again in a minute.',
    });
  }
  const rotated = answer.refresh_token?.trim();
  if (rotated && rotated !== sent) {
    access.warn(
      `Cursor rotated the refresh token when codexbar refreshed the ${target.label}; codexbar did not keep the new one, so ${target.owner} copy may now be stale (sign in there again if it stops working).`,
    );
  }
  return token;
}

/** Every failure of the request but a timeout (or the run's own abort) is "not logged in". */
function refused(error: unknown, target: RefreshTarget): unknown {
  let why: string;
  if (error instanceof NotLoggedInError) why = `HTTP ${error.status}`;
  else if (error instanceof ParseError) why = 'its answer was not the JSON it documents';
  else if (error instanceof ApiError)
    why = error.status === undefined ? error.detail : `HTTP ${error.status}`;
  else return error;
  return new NotLoggedInError(
    ENDPOINT,
    error instanceof ApiError || error instanceof NotLoggedInError ? (error.status ?? 0) : 0,
    `refreshing the ${target.label} failed (${why})`,
    SIGN_IN_AGAIN_HINT,
  );
}

/**
 * The fake api2.cursor.sh, served by the same loopback server as the fake cursor.com (paths do not
 * collide): Connect unary RPCs with the JSON codec under `/aiserver.v1.<Service>/<Method>`, and the two
 * auth routes `/oauth/token` and `/auth/exchange_user_api_key` (docs/api2.md). As the real service does, a
 * unary RPC needs `POST` and `Content-Type: application/json` (415 otherwise) and a Bearer token of a
 * known account (a Connect `unauthenticated` 401 otherwise). A Cookie header sent here, or an
 * Authorization header sent to a cursor.com route, is answered 400: a credential for one door that
 * reached the other fails the test that sent it.
 */
import type {
  FakeAccount,
  FakeCursorOptions,
  FakeResponse,
  HandlerFunction,
  RecordedRequest,
} from './types.js';

const RPC_PREFIX = '/aiserver.v1.';
const OAUTH_TOKEN_PATH = '/oauth/token';
const EXCHANGE_API_KEY_PATH = '/auth/exchange_user_api_key';

/** Whether a path belongs to the fake api2 rather than the fake cursor.com. */
export function isApi2Path(path: string): boolean {
  return path.startsWith(RPC_PREFIX) || path === OAUTH_TOKEN_PATH || path === EXCHANGE_API_KEY_PATH;
}

/** A Connect error body, as api2 sends one (docs/api2.md, "Errors"). */
export function connectError(status: number, code: string, debugError?: string): FakeResponse {
  const details =
    debugError === undefined
      ? []
      : [
          {
            type: 'aiserver.v1.ErrorDetails',
            debug: {
              error: debugError,
              details: { title: 'Error', detail: 'If you are logged in, try logging out and back in.' },
            },
          },
        ];
  return { status, json: { code, message: 'Error', details } };
}

const NOT_LOGGED_IN = connectError(401, 'unauthenticated', 'ERROR_NOT_LOGGED_IN');

/** The Bearer token of an `Authorization` header, untouched. */
function bearerOf(header: string | undefined): string | undefined {
  const match = /^Bearer (.+)$/.exec(header ?? '');
  return match?.[1];
}

const asHandler = (handler: FakeResponse | HandlerFunction): HandlerFunction =>
  typeof handler === 'function' ? handler : () => handler;

/**
 * Answers an api2 request. `attempt` counts earlier requests to the same account and path (0 on the first),
 * as the cursor.com routes count theirs.
 */
export function answerApi2(
  req: RecordedRequest,
  accounts: readonly FakeAccount[],
  options: FakeCursorOptions,
  attempt: (key: string) => number,
): FakeResponse | Promise<FakeResponse> {
  if (req.method !== 'POST') return connectError(405, 'unimplemented');
  if (req.headers.cookie !== undefined) return { status: 400, json: { error: 'a cookie was sent to api2' } };
  if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) {
    return { status: 415, json: { code: 'unknown', message: 'unsupported content type' } };
  }
  const bearer = bearerOf(req.headers.authorization);
  if (req.path === OAUTH_TOKEN_PATH) {
    const handler = options.api2?.oauthToken;
    if (handler === undefined) return connectError(404, 'not_found');
    return asHandler(handler)(req, attempt(`oauth|${JSON.stringify(req.body)}`));
  }
  if (req.path === EXCHANGE_API_KEY_PATH) {
    const handler = options.api2?.exchangeApiKey;
    if (handler === undefined) return connectError(404, 'not_found');
    return asHandler(handler)(req, attempt(`exchange|${bearer ?? ''}`));
  }
  const index = bearer === undefined ? -1 : accounts.findIndex((a) => a.bearers?.includes(bearer));
  if (index < 0) return NOT_LOGGED_IN;
  req.accountIndex = index;
  const method = req.path.slice(RPC_PREFIX.length);
  const handler = accounts[index]!.rpc?.[method];
  if (handler === undefined) return connectError(404, 'unimplemented');
  return asHandler(handler)(req, attempt(`${index}|${method}`));
}

/**
 * What the sources that ask api2 themselves (the opt-in token refresh, the API-key exchange) need to send one
 * request: the base URL checked by `resolveApi2BaseUrl`, the run's proxy settings and request timer, and a
 * sink for the one warning the user must see even without `--verbose` (docs/api2.md, "Token refresh
 * (opt-in)"). Each request gets its own client, closed when it is answered: a source is read at most once per
 * run, and a run that never reaches it opens nothing.
 */
import { Api2Client, type Api2Request } from '../api/api2/client.js';
import type { RequestTimer } from '../api/client.js';
import type { ProxySettings } from '../api/transport.js';
import { UnsupportedError } from '../errors.js';

export interface Api2Access {
  baseUrl: string;
  proxy: ProxySettings;
  timer?: RequestTimer;
  timeoutMs: number;
  /** A warning for stderr, shown even without `--verbose` (never a credential); its owner says it once. */
  warn: (line: string) => void;
}

export async function api2Request<T>(
  access: Api2Access,
  request: Omit<Api2Request<T>, 'timeoutMs'>,
): Promise<T> {
  const client = new Api2Client({ baseUrl: access.baseUrl, proxy: access.proxy, timer: access.timer });
  try {
    return await client.request({ ...request, timeoutMs: access.timeoutMs });
  } finally {
    await client.close();
  }
}

/**
 * What a run that must open api2 says when its session holds only a cookie: the ways to an access token,
 * and `hintTail` to end the hint (another way round the command's own).
 */
export function cookieCannotOpenApi2(what: string, description: string, hintTail = '.'): UnsupportedError {
  return new UnsupportedError(
    `${what} needs an access token, and the ${description} is a cookie: a cookie cannot open api2.`,
    `Sign in to the Cursor app, or run \`cursor-agent login\` on this machine, or set CURSOR_API_KEY to a Cursor user API key (crsr_…)${hintTail}`,
  );
}

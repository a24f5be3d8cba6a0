import { ConfigError } from '../errors.js';

export const CURSOR_ORIGIN = 'https://cursor.com';
/** The Statuspage site of cursor.com; its API lives at `<url>/api/v2/status.json`. */
const CURSOR_STATUS_URL = 'https://status.cursor.com';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * docs/behaviour.md §10.1: CODEXBAR_CURSOR_BASE_URL replaces https://cursor.com only when it is https, or
 * plain http on a loopback host, so credentials can never be sent in clear to a stranger. Checked before any
 * request.
 */
export function resolveBaseUrl(raw: string | undefined): string {
  return resolveServiceUrl('CODEXBAR_CURSOR_BASE_URL', raw, CURSOR_ORIGIN);
}

/** docs/behaviour.md §27.6: CODEXBAR_CURSOR_STATUS_URL replaces the Statuspage site under the same rule. */
export function resolveStatusUrl(raw: string | undefined): string {
  return resolveServiceUrl('CODEXBAR_CURSOR_STATUS_URL', raw, CURSOR_STATUS_URL);
}

/**
 * The https-or-loopback rule for any URL an environment variable may redirect (docs/behaviour.md §10.1):
 * `variable`'s value `raw` replaces `fallback` only when it is `https://…`, or `http://` on 127.0.0.1,
 * localhost or [::1]; anything else is a config error before any request. No trailing slash.
 */
function resolveServiceUrl(variable: string, raw: string | undefined, fallback: string): string {
  const value = raw?.trim();
  if (!value) return fallback;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      `${variable} is not a URL: ${value}`,
      'Use https://… or http://127.0.0.1:<port> for a local test server.',
    );
  }
  const loopbackHttp = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) {
    throw new ConfigError(
      `Refusing ${variable} ${url.origin}: only https:// or http:// on a loopback host is allowed.`,
      `Unset ${variable} to talk to ${fallback}.`,
    );
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

import { ConfigError } from '../errors.js';

export const CURSOR_ORIGIN = 'https://cursor.com';
/** The Statuspage site of cursor.com; its API lives at `<url>/api/v2/status.json`. */
const CURSOR_STATUS_URL = 'https://status.cursor.com';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A base URL a variable may replace: the variable's name (for messages) and the default URL. */
export interface BaseUrlTarget {
  variable: string;
  defaultUrl: string;
  /** What a refusal suggests; default: unset the variable to talk to the default URL. */
  hint?: string;
}

/**
 * docs/invariants.md, "Credentials only to their own server, over HTTPS": CODEXBAR_CURSOR_BASE_URL replaces
 * https://cursor.com only when it is https, or plain http on a loopback host, so credentials can never be
 * sent in clear to a stranger. Checked before any request.
 */
export function resolveBaseUrl(raw: string | undefined): string {
  return resolveOverridableUrl(raw, { variable: 'CODEXBAR_CURSOR_BASE_URL', defaultUrl: CURSOR_ORIGIN });
}

/** CODEXBAR_CURSOR_STATUS_URL replaces the Statuspage site under the same rule. */
export function resolveStatusUrl(raw: string | undefined): string {
  return resolveOverridableUrl(raw, {
    variable: 'CODEXBAR_CURSOR_STATUS_URL',
    defaultUrl: CURSOR_STATUS_URL,
  });
}

/** The same https-or-loopback rule for any overridable base URL (the Admin API's too). */
export function resolveOverridableUrl(raw: string | undefined, target: BaseUrlTarget): string {
  const value = raw?.trim();
  if (!value) return target.defaultUrl;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      `${target.variable} is not a URL: ${value}`,
      'Use https://… or http://127.0.0.1:<port> for a local test server.',
    );
  }
  const loopbackHttp = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) {
    throw new ConfigError(
      `Refusing ${target.variable} ${url.origin}: only https:// or http:// on a loopback host is allowed.`,
      target.hint ?? `Unset ${target.variable} to talk to ${target.defaultUrl}.`,
    );
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** The Connect RPC host of Cursor's own IDE (docs/api2.md). */
const API2_ORIGIN = 'https://api2.cursor.sh';

/** CODEXBAR_CURSOR_API2_BASE_URL replaces https://api2.cursor.sh under the same rule. */
export function resolveApi2BaseUrl(raw: string | undefined): string {
  return resolveOverridableUrl(raw, { variable: 'CODEXBAR_CURSOR_API2_BASE_URL', defaultUrl: API2_ORIGIN });
}

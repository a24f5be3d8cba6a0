import { ConfigError } from '../errors.js';

export const CURSOR_ORIGIN = 'https://cursor.com';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * docs/behaviour.md §10.1: CODEXBAR_CURSOR_BASE_URL replaces https://cursor.com only when it is https, or
 * plain http on a loopback host, so credentials can never be sent in clear to a stranger. Checked before any
 * request.
 */
export function resolveBaseUrl(raw: string | undefined): string {
  const value = raw?.trim();
  if (!value) return CURSOR_ORIGIN;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      `CODEXBAR_CURSOR_BASE_URL is not a URL: ${value}`,
      'Use https://… or http://127.0.0.1:<port> for a local test server.',
    );
  }
  const loopbackHttp = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) {
    throw new ConfigError(
      `Refusing CODEXBAR_CURSOR_BASE_URL ${url.origin}: only https:// or http:// on a loopback host is allowed.`,
      'Unset CODEXBAR_CURSOR_BASE_URL to talk to https://cursor.com.',
    );
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

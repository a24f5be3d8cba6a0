/**
 * `config dump` without `--show-secrets`: every credential value is replaced by `"[REDACTED]"`, wherever it
 * sits: CodexBar's secret fields (`apiKey`, `secretKey`, `cookieHeader`, a token account's `token`, each
 * value of `pluginSecrets`), `proxy.upstreamKey` and, to be safe with keys we do not know, any string under a key that names a
 * token, secret, password or cookie, and any session cookie, JWT or Admin API key found in another string.
 */

import { redact } from '../lib/redact.js';

const REDACTED = '[REDACTED]';

const SECRET_KEY =
  /^(?:apikey|secretkey|cookieheader|token|accesstoken|refreshtoken|password|secret|cookie|upstreamkey)$/i;

/** An Admin API key (`key_` and hex), wherever it sits: `redact` knows session cookies and JWTs. */
const ADMIN_KEY = /\bkey_[0-9a-f]{32,}\b/gi;

/**
 * Any other string is checked by its value too: a cookie, a JWT or a key stored under a key this code does
 * not know is redacted where it stands, the text around it kept.
 */
function redactValue(text: string): string {
  return redact(text).replace(ADMIN_KEY, REDACTED);
}

export function redactConfig(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactConfig);
  if (typeof value === 'string') return redactValue(value);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === 'pluginSecrets' && item !== null && typeof item === 'object' && !Array.isArray(item)) {
      out[key] = Object.fromEntries(Object.keys(item).map((name) => [name, REDACTED]));
    } else if (SECRET_KEY.test(key) && item !== null && typeof item !== 'object') {
      out[key] = REDACTED;
    } else {
      out[key] = redactConfig(item);
    }
  }
  return out;
}

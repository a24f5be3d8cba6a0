/**
 * `config dump` without `--show-secrets`: every credential value is replaced by `"[REDACTED]"`, wherever it
 * sits: CodexBar's secret fields (`apiKey`, `secretKey`, `cookieHeader`, a token account's `token`, each
 * value of `pluginSecrets`) and, to be safe with keys we do not know, any string under a key that names a
 * token, secret, password or cookie.
 */

const REDACTED = '[REDACTED]';

const SECRET_KEY =
  /^(?:apikey|secretkey|cookieheader|token|accesstoken|refreshtoken|password|secret|cookie)$/i;

export function redactConfig(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactConfig);
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

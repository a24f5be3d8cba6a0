/**
 * Credentials never reach the terminal (docs/invariants.md, "Never a credential shown"). Every credential a
 * run uses is registered here before its first request, and the one error printer and the verbose log pass
 * their text through `redact`, so a server that echoes the Cookie header into an error body cannot make us
 * print it. The registry lives for the process: a long-running `serve` or a test run only ever adds to it.
 */

const REDACTED = '[REDACTED]';
/** Shorter pieces are not secret on their own (a user id prefix, `true`), and would redact ordinary words. */
const MIN_SECRET_LENGTH = 8;

const secrets = new Set<string>();

/**
 * A credential in use: a Cookie header (each cookie's value, in raw and percent-decoded form, and each dot- or
 * `::`-separated part of it) or a key.
 */
export function registerSecret(value: string): void {
  for (const pair of value.split(';')) {
    const eq = pair.indexOf('=');
    const raw = (eq >= 0 ? pair.slice(eq + 1) : pair).trim();
    for (const form of new Set([raw, safeDecode(raw)])) {
      addPiece(form);
      for (const part of form.split(/::|\./)) addPiece(part);
    }
  }
}

function addPiece(piece: string): void {
  if (piece.length >= MIN_SECRET_LENGTH) secrets.add(piece);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Anything that looks like a JWT (base64url JSON, `eyJ…`, whole or cut short after any part), and the value of
 * a Cursor session cookie, whether registered or not.
 */
const PATTERNS = [
  /eyJ[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*){0,2}/g,
  /((?:WorkosCursorSessionToken|(?:__Secure-)?next-auth\.session-token)=)[^;\s"']+/g,
];

export function redact(text: string): string {
  let out = text;
  for (const pattern of PATTERNS) {
    out = out.replace(pattern, (_match, name?: string) =>
      typeof name === 'string' ? name + REDACTED : REDACTED,
    );
  }
  // Longest first, so a whole value is replaced before any of its parts.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

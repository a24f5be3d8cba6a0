/** cursor.com answers 431 long before undici would refuse a header; real session cookies are ~1 KiB. */
const COOKIE_HEADER_LIMIT = 8 * 1024;

/**
 * Why a Cookie header cannot be sent, or undefined when it can.
 * docs/invariants.md, "Credentials only to their own server, over HTTPS": printable ASCII only (a CR/LF, a
 * control or a non-ASCII character would make undici throw or forge a header) and at most 8 KiB. The reason
 * never quotes the value.
 */
export function cookieHeaderProblem(value: string): string | undefined {
  if (value.length > COOKIE_HEADER_LIMIT) return `it is longer than 8 KiB (${value.length} characters)`;
  const bad = /[^\x20-\x7e]/.exec(value);
  if (bad) return `it holds ${describeCharacter(bad[0])}, and only printable ASCII may be sent`;
  return undefined;
}

function describeCharacter(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  if (code === 0x0a || code === 0x0d) return 'a line break';
  if (code < 0x20 || code === 0x7f) return 'a control character';
  return 'a non-ASCII character';
}

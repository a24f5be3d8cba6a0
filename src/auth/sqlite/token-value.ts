/** Turns the stored `cursorAuth/accessToken` value into a token. Pure. */
import { decodeText, type TextEncoding } from './header.js';
import type { SqlValue } from './record.js';

export type DecodedToken =
  | { kind: 'absent' }
  | { kind: 'token'; token: string }
  | { kind: 'malformed'; reason: string };

/** BOM-less ASCII UTF-16LE (every odd byte 0, every even byte non-zero ASCII). */
function isAsciiUtf16le(bytes: Uint8Array): boolean {
  if (bytes.length === 0 || bytes.length % 2 !== 0) return false;
  for (let i = 0; i < bytes.length; i += 2) {
    const low = bytes[i]!;
    if (low === 0 || low > 0x7f || bytes[i + 1] !== 0) return false;
  }
  return true;
}

function strictDecode(bytes: Uint8Array, encoding: 'utf-8' | 'utf-16le'): string | undefined {
  if (encoding === 'utf-16le' && bytes.length % 2 !== 0) return undefined;
  try {
    // ignoreBOM keeps a leading BOM as a character: no BOM is sniffed.
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** TEXT is read like a C string (up to the first NUL), invalid sequences replaced, never rejected. */
function decodeStoredText(bytes: Uint8Array, encoding: TextEncoding): string {
  if (encoding === 'utf-8') {
    const nul = bytes.indexOf(0);
    return decodeText(nul < 0 ? bytes : bytes.subarray(0, nul), encoding);
  }
  const text = decodeText(bytes, encoding);
  const nul = text.indexOf('\0');
  return nul < 0 ? text : text.slice(0, nul);
}

/** `encoding` is the database's: it applies to TEXT, never to a BLOB. */
export function decodeTokenValue(value: SqlValue | undefined, encoding: TextEncoding): DecodedToken {
  let token: string | undefined;
  if (value?.type === 'text') {
    token = decodeStoredText(value.bytes, encoding);
  } else if (value?.type === 'blob') {
    token = isAsciiUtf16le(value.bytes)
      ? strictDecode(value.bytes, 'utf-16le')
      : (strictDecode(value.bytes, 'utf-8') ?? strictDecode(value.bytes, 'utf-16le'));
    if (token === undefined) {
      return {
        kind: 'malformed',
        reason: `the stored access token (${value.bytes.length}-byte BLOB) is neither UTF-8 nor UTF-16LE`,
      };
    }
  }
  // Empty or whitespace-only is no token; anything else is kept untrimmed.
  if (token === undefined || token.trim() === '') return { kind: 'absent' };
  return { kind: 'token', token };
}

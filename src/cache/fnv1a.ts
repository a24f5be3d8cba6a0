/**
 * 64-bit FNV-1a of a string's UTF-8 bytes, as 16 hex digits: a short file name for something that is not a
 * secret (an account record's set-up, a bundle's path). Cheaper to start than node:crypto, which neither
 * the statusline fast path nor the compile cache loads (docs/behaviour.md §26.7, §26.10).
 */
export function fnv1a(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

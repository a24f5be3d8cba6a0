import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/lib/hash.js';

/** Characters from every UTF-8 length: ASCII, two- and three-byte BMP, and astral (a surrogate pair). */
const ALPHABET = ['a', 'Z', '0', '\0', 'é', 'ß', '中', '€', '😀'];

describe('sha256Hex: the account key’s hash without node:crypto', () => {
  it('matches the FIPS 180-4 examples', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('matches node:crypto for every length across several 64-byte blocks, in any script', () => {
    for (let length = 0; length < 300; length++) {
      let text = '';
      for (let i = 0; i < length; i++) text += ALPHABET[(i * 7 + length) % ALPHABET.length];
      expect(sha256Hex(text), `length ${length}`).toBe(createHash('sha256').update(text).digest('hex'));
    }
  });
});

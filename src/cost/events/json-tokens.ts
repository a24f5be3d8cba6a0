/**
 * A JSON tokenizer over bytes, for decoders that read a few fields of a large answer (src/api/schemas/
 * events-bytes.ts): values come out exactly as JSON.parse gives them, and anything it does not handle
 * (escaped or non-ASCII text it would keep, invalid JSON, nesting past 64 levels) makes it give up by
 * throwing GIVE_UP, so the caller can fall back to JSON.parse and its schema.
 */

export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
/** Nesting deeper than this inside a skipped value is left to JSON.parse. */
const MAX_DEPTH = 64;
/** 10^0 … 10^22: exactly representable, so one multiplication or division rounds correctly (Clinger). */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, i) => 10 ** i);

/** Thrown to give up; caught by the decoder that uses the scanner. */
export const GIVE_UP = Symbol('give up');

export abstract class JsonBytes {
  protected p = 0;
  protected readonly buffer: Buffer;

  constructor(protected readonly b: Uint8Array) {
    this.buffer = Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  }

  /** Index of the closing quote of a string without escapes, control or non-ASCII characters. */
  protected plainStringEnd(start: number): number {
    const b = this.b;
    let i = start;
    for (;;) {
      const c = b[i];
      if (c === QUOTE) return i;
      if (c === undefined || c < 0x20 || c === BACKSLASH || c > 0x7f) throw GIVE_UP;
      i++;
    }
  }

  /** The text of a string without escapes or non-ASCII (plainStringEnd's), one string per distinct text. */
  protected plainText(start: number, end: number): string {
    return sharedText(this.buffer, start, end);
  }

  /** A value as JSON.parse would give it; strings, numbers and literals without building a string of the body. */
  protected value(): unknown {
    const c = this.b[this.p];
    if (c === QUOTE) {
      const start = this.p + 1;
      const end = this.plainStringEnd(start);
      this.p = end + 1;
      return sharedText(this.buffer, start, end);
    }
    if (c === MINUS || (c !== undefined && c >= ZERO && c <= NINE)) return this.number();
    if (c === 0x74) return this.literal('true', true);
    if (c === 0x66) return this.literal('false', false);
    if (c === 0x6e) return this.literal('null', null);
    if (c !== OPEN_OBJECT && c !== OPEN_ARRAY) throw GIVE_UP;
    // An object or array where a primitive was expected: let JSON.parse build it; the schema then decides.
    const start = this.p;
    this.skipContainer(c, 0);
    return JSON.parse(this.buffer.toString('latin1', start, this.p));
  }

  protected literal<T>(word: string, value: T): T {
    const b = this.b;
    for (let i = 0; i < word.length; i++) if (b[this.p + i] !== word.charCodeAt(i)) throw GIVE_UP;
    this.p += word.length;
    return value;
  }

  /**
   * A JSON number literal, validated, as the double JSON.parse gives: up to 15 significant digits and a
   * decimal exponent within ±22 are computed exactly (one correctly rounded operation); anything longer goes
   * through Number(), which converts as JSON.parse does.
   */
  protected number(): number {
    const b = this.b;
    const start = this.p;
    let p = start;
    const negative = b[p] === MINUS;
    if (negative) p++;
    let mantissa = 0;
    let significant = 0;
    let exponent = 0;
    let exact = true;
    let c = b[p];
    if (c === ZERO) {
      c = b[++p];
    } else if (c !== undefined && c > ZERO && c <= NINE) {
      while (c !== undefined && c >= ZERO && c <= NINE) {
        if (significant < 15) {
          mantissa = mantissa * 10 + (c - ZERO);
          if (mantissa !== 0) significant++;
        } else {
          exponent++;
          exact = false;
        }
        c = b[++p];
      }
    } else {
      throw GIVE_UP;
    }
    if (c === DOT) {
      c = b[++p];
      if (c === undefined || c < ZERO || c > NINE) throw GIVE_UP;
      while (c !== undefined && c >= ZERO && c <= NINE) {
        if (significant < 15) {
          mantissa = mantissa * 10 + (c - ZERO);
          exponent--;
          if (mantissa !== 0) significant++;
        } else if (c !== ZERO) {
          exact = false;
        }
        c = b[++p];
      }
    }
    if (c === LOWER_E || c === UPPER_E) {
      c = b[++p];
      let sign = 1;
      if (c === PLUS || c === MINUS) {
        if (c === MINUS) sign = -1;
        c = b[++p];
      }
      if (c === undefined || c < ZERO || c > NINE) throw GIVE_UP;
      let written = 0;
      while (c !== undefined && c >= ZERO && c <= NINE) {
        if (written < 100_000) written = written * 10 + (c - ZERO);
        c = b[++p];
      }
      exponent += sign * written;
    }
    this.p = p;
    if (!exact || exponent > 22 || exponent < -22) return Number(this.buffer.toString('latin1', start, p));
    const magnitude =
      exponent >= 0 ? mantissa * POWERS_OF_TEN[exponent]! : mantissa / POWERS_OF_TEN[-exponent]!;
    return negative ? -magnitude : magnitude;
  }

  /** Skips any JSON value, checking it is valid JSON (escapes and non-ASCII text included). */
  protected skipValue(depth: number): void {
    const b = this.b;
    const c = b[this.p];
    if (c === QUOTE) this.skipString();
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) this.skipContainer(c, depth);
    else this.value();
  }

  protected skipContainer(open: number, depth: number): void {
    const b = this.b;
    if (depth >= MAX_DEPTH) throw GIVE_UP;
    const close = open === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
    this.p++;
    this.ws();
    if (b[this.p] === close) {
      this.p++;
      return;
    }
    for (;;) {
      if (open === OPEN_OBJECT) {
        if (b[this.p] !== QUOTE) throw GIVE_UP;
        this.skipString();
        this.ws();
        if (b[this.p++] !== COLON) throw GIVE_UP;
        this.ws();
      }
      this.skipValue(depth + 1);
      this.ws();
      const next = b[this.p++];
      if (next === close) return;
      if (next !== COMMA) throw GIVE_UP;
      this.ws();
    }
  }

  /** A string with any valid escapes; control characters are invalid JSON. */
  protected skipString(): void {
    const b = this.b;
    let i = this.p + 1;
    for (;;) {
      if (i >= b.length) throw GIVE_UP;
      const c = b[i]!;
      if (c === QUOTE) break;
      if (c < 0x20) throw GIVE_UP;
      if (c === BACKSLASH) {
        const escaped = b[i + 1];
        if (escaped === 0x75) {
          for (let k = 2; k < 6; k++) if (!isHexDigit(b[i + k])) throw GIVE_UP;
          i += 6;
          continue;
        }
        if (escaped === undefined || !SIMPLE_ESCAPES.has(escaped)) throw GIVE_UP;
        i += 2;
        continue;
      }
      i++;
    }
    this.p = i + 1;
  }

  protected ws(): void {
    this.p = skipWs(this.b, this.p);
  }

  /**
   * A numeric field's plain number as JSON.parse gives it, read from a JSON number of up to 15 digits without
   * an exponent or from a string of up to 15 digits (the schema decodes both alike, src/cost/events/keys.ts);
   * NaN, with nothing read, for anything else, which value() then reads. The hot path of a numeric field: no
   * string and no boxed number is made.
   */
  protected plainNumber(): number {
    const b = this.b;
    let p = this.p;
    let c = b[p];
    if (c === QUOTE) {
      let n = 0;
      c = b[++p];
      while (c !== undefined && c >= ZERO && c <= NINE) {
        n = n * 10 + (c - ZERO);
        c = b[++p];
      }
      if (c !== QUOTE || p === this.p + 1 || p - this.p - 1 > 15) return Number.NaN;
      this.p = p + 1;
      return n;
    }
    const negative = c === MINUS;
    if (negative) c = b[++p];
    if (c === undefined || c < ZERO || c > NINE) return Number.NaN;
    let mantissa = 0;
    let digits = 0;
    let scale = 0;
    if (c === ZERO) {
      // A leading zero is a whole integer part: a digit after it is invalid JSON, which the caller finds.
      c = b[++p];
      digits = 1;
    } else {
      while (c !== undefined && c >= ZERO && c <= NINE) {
        mantissa = mantissa * 10 + (c - ZERO);
        digits++;
        c = b[++p];
      }
    }
    if (c === DOT) {
      c = b[++p];
      if (c === undefined || c < ZERO || c > NINE) return Number.NaN;
      while (c !== undefined && c >= ZERO && c <= NINE) {
        mantissa = mantissa * 10 + (c - ZERO);
        digits++;
        scale++;
        c = b[++p];
      }
    }
    if (c === LOWER_E || c === UPPER_E || digits > 15) return Number.NaN;
    this.p = p;
    // Both operands are exact doubles (at most 15 digits), so the one division rounds correctly (Clinger).
    const magnitude = scale === 0 ? mantissa : mantissa / POWERS_OF_TEN[scale]!;
    return negative ? -magnitude : magnitude;
  }
}

/** The index of the first byte at or after `p` that is not JSON whitespace. */
export function skipWs(b: Uint8Array, p: number): number {
  let c = b[p];
  // Compact JSON (cursor.com's) has no whitespace: every token starts above the space character.
  if (c === undefined || c > 0x20) return p;
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++p];
  return p;
}

/** `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`. */
const SIMPLE_ESCAPES = new Set([QUOTE, BACKSLASH, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

function isHexDigit(c: number | undefined): boolean {
  return (
    c !== undefined && ((c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66))
  );
}

/**
 * Model, kind and owner names repeat on every event: one string per distinct text (up to a bound) instead of
 * one per event, found by a hash of the bytes and checked character by character.
 */
const texts = new Map<number, string>();
const MAX_SHARED_TEXTS = 4096;

function sharedText(buffer: Buffer, start: number, end: number): string {
  let hash = end - start;
  for (let i = start; i < end; i++) hash = (Math.imul(hash, 31) + buffer[i]!) | 0;
  const known = texts.get(hash);
  if (known !== undefined && known.length === end - start) {
    let i = 0;
    while (i < known.length && known.charCodeAt(i) === buffer[start + i]) i++;
    if (i === known.length) return known;
  }
  const text = buffer.toString('latin1', start, end);
  if (texts.size < MAX_SHARED_TEXTS) texts.set(hash, text);
  return text;
}

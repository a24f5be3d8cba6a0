/**
 * The fast path for `get-filtered-usage-events` pages: a JSON tokenizer over the response bytes that hands
 * the known fields of each event to the schema's own `decodeUsageEvent`, skipping everything else.
 *
 * Why: a heavy month is 150 pages of about 340 KB. `JSON.parse` builds every field of every event (most of
 * which nothing reads), after the body has been copied into a string; that was most of the CPU of
 * `codexbar cost` (docs/behaviour.md §28.6). Here no body string and no full event object is made.
 *
 * How it stays exact: it only tokenizes. Each known field's JSON value (a string, number, boolean or null,
 * exactly as JSON.parse would give it; anything else parsed by JSON.parse itself) goes through the same
 * `decodeUsageEvent` as the schema path, so the two cannot disagree on a rule. It gives up (returns
 * undefined) on anything it does not handle — a BOM, non-ASCII or escaped text in a field it keeps, an
 * envelope without the array, a field of the wrong type, invalid JSON — and the caller then decodes the
 * page with JSON.parse and `eventsPageSchema`, which also words every error. test/unit/events-bytes.test.ts
 * compares the two paths on the schema tests' edge cases and on fuzzed pages.
 */
import {
  type DecodedUsageEvent,
  decodeEventCount,
  decodeUsageEvent,
  type EventsPage,
  type Issues,
} from './events.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
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

/** Thrown to give up; never escapes this module. */
const GIVE_UP = Symbol('give up');

/**
 * Event fields the schema reads, in the order `decodeUsageEvent` lists them; every other key is skipped. The
 * numeric ones are read by the schema's lenient number rules, under which a string of up to 15 digits and
 * the number it spells decode alike.
 */
const EVENT_FIELDS = [
  'timestamp',
  'model',
  'kind',
  'requestsCosts',
  'usageBasedCosts',
  'isTokenBasedCall',
  'owningUser',
  'owningTeam',
  'cursorTokenFee',
  'isChargeable',
  'isHeadless',
  'chargedCents',
  'tokenUsage',
] as const;
const TOKEN_FIELDS = [
  'inputTokens',
  'outputTokens',
  'cacheWriteTokens',
  'cacheReadTokens',
  'totalCents',
] as const;
const NUMERIC_FIELDS = new Set<string>([
  'timestamp',
  'requestsCosts',
  'cursorTokenFee',
  'chargedCents',
  ...TOKEN_FIELDS,
]);
const TOKEN_USAGE = EVENT_FIELDS.indexOf('tokenUsage');

interface Field {
  /** Index into the field list. */
  index: number;
  bytes: Uint8Array;
  numeric: boolean;
}

/** Known keys by their first character, so most keys are recognised without scanning them twice. */
type KeyTable = Field[][];

function keyTable(names: readonly string[]): KeyTable {
  const table: KeyTable = Array.from({ length: 128 }, () => []);
  names.forEach((name, index) => {
    table[name.charCodeAt(0)]!.push({
      index,
      bytes: Buffer.from(name, 'latin1'),
      numeric: NUMERIC_FIELDS.has(name),
    });
  });
  return table;
}

const EVENT_KEYS = keyTable(EVENT_FIELDS);
const TOKEN_KEYS = keyTable(TOKEN_FIELDS);
const ENVELOPE_FIELDS = ['totalUsageEventsCount', 'usageEventsDisplay'] as const;
const ENVELOPE_KEYS = keyTable(ENVELOPE_FIELDS);

/** The page, or undefined when the schema path must decode it. */
export function decodeEventsPageBytes(bytes: Uint8Array): EventsPage | undefined {
  try {
    return new PageTokenizer(bytes).page();
  } catch (error) {
    if (error === GIVE_UP) return undefined;
    throw error;
  }
}

class PageTokenizer {
  private p = 0;
  private readonly buffer: Buffer;
  /** The raw values of the event being read and of its tokenUsage, by field index, reused for every event. */
  private readonly values: unknown[] = new Array(EVENT_FIELDS.length).fill(undefined);
  private readonly usage: unknown[] = new Array(TOKEN_FIELDS.length).fill(undefined);
  private readonly issues: Issues = [];
  private readonly raw: Record<(typeof EVENT_FIELDS)[number], unknown> = {
    timestamp: undefined,
    model: undefined,
    kind: undefined,
    requestsCosts: undefined,
    usageBasedCosts: undefined,
    isTokenBasedCall: undefined,
    owningUser: undefined,
    owningTeam: undefined,
    cursorTokenFee: undefined,
    isChargeable: undefined,
    isHeadless: undefined,
    chargedCents: undefined,
    tokenUsage: undefined,
  };
  private readonly rawUsage: Record<(typeof TOKEN_FIELDS)[number], unknown> = {
    inputTokens: undefined,
    outputTokens: undefined,
    cacheWriteTokens: undefined,
    cacheReadTokens: undefined,
    totalCents: undefined,
  };

  constructor(private readonly b: Uint8Array) {
    this.buffer = Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  }

  page(): EventsPage {
    const b = this.b;
    this.ws();
    if (b[this.p] !== OPEN_OBJECT) throw GIVE_UP;
    this.p++;
    let count: number | undefined;
    let events: DecodedUsageEvent[] | undefined;
    this.ws();
    if (b[this.p] === CLOSE_OBJECT) throw GIVE_UP;
    for (;;) {
      const key = this.key(ENVELOPE_KEYS);
      if (key === undefined) this.skipValue(0);
      else if (ENVELOPE_FIELDS[key.index] === 'usageEventsDisplay') events = this.events();
      else count = this.count();
      if (this.endOfMembers()) break;
    }
    this.ws();
    if (this.p !== b.length || events === undefined) throw GIVE_UP;
    return { totalUsageEventsCount: count, usageEventsDisplay: events };
  }

  private count(): number | undefined {
    const count = decodeEventCount(this.value(false), this.issues);
    if (this.issues.length > 0) throw GIVE_UP;
    return count;
  }

  private events(): DecodedUsageEvent[] {
    const b = this.b;
    if (b[this.p] !== OPEN_ARRAY) throw GIVE_UP;
    this.p++;
    const events: DecodedUsageEvent[] = [];
    this.ws();
    if (b[this.p] === CLOSE_ARRAY) {
      this.p++;
      return events;
    }
    for (;;) {
      events.push(this.event());
      this.ws();
      const next = b[this.p++];
      if (next === CLOSE_ARRAY) return events;
      if (next !== COMMA) throw GIVE_UP;
      this.ws();
    }
  }

  /** The event's known fields, then the schema's own decoder over them (as over JSON.parse's object). */
  private event(): DecodedUsageEvent {
    const v = this.values;
    v.fill(undefined);
    this.members(EVENT_KEYS, v, true);
    // One scratch record of a fixed shape, filled in place: decodeUsageEvent only reads it.
    const raw = this.raw;
    raw.timestamp = v[0];
    raw.model = v[1];
    raw.kind = v[2];
    raw.requestsCosts = v[3];
    raw.usageBasedCosts = v[4];
    raw.isTokenBasedCall = v[5];
    raw.owningUser = v[6];
    raw.owningTeam = v[7];
    raw.cursorTokenFee = v[8];
    raw.isChargeable = v[9];
    raw.isHeadless = v[10];
    raw.chargedCents = v[11];
    raw.tokenUsage = v[12];
    const event = decodeUsageEvent(raw, this.issues);
    if (this.issues.length > 0) throw GIVE_UP;
    return event;
  }

  /**
   * A record of the known token fields (what JSON.parse would give, less the fields nothing reads; a scratch
   * record, read once by the schema's decoder), or any other value as JSON.parse gives it. A second
   * `tokenUsage` replaces the first, as in JSON.parse.
   */
  private tokenUsage(): unknown {
    if (this.b[this.p] !== OPEN_OBJECT) return this.value(false);
    const u = this.usage;
    u.fill(undefined);
    this.members(TOKEN_KEYS, u, false);
    const usage = this.rawUsage;
    usage.inputTokens = u[0];
    usage.outputTokens = u[1];
    usage.cacheWriteTokens = u[2];
    usage.cacheReadTokens = u[3];
    usage.totalCents = u[4];
    return usage;
  }

  /** `{ "key": value, … }` into `values`: known keys are read (the last one wins), others skipped and validated. */
  private members(keys: KeyTable, values: unknown[], isEvent: boolean): void {
    const b = this.b;
    if (b[this.p] !== OPEN_OBJECT) throw GIVE_UP;
    this.p++;
    this.ws();
    if (b[this.p] === CLOSE_OBJECT) {
      this.p++;
      return;
    }
    for (;;) {
      const field = this.key(keys);
      if (field === undefined) this.skipValue(0);
      else if (isEvent && field.index === TOKEN_USAGE) values[field.index] = this.tokenUsage();
      else values[field.index] = this.value(field.numeric);
      if (this.endOfMembers()) return;
    }
  }

  /** After a member: `,` (and whitespace) continues, `}` ends. */
  private endOfMembers(): boolean {
    this.ws();
    const next = this.b[this.p++];
    if (next === CLOSE_OBJECT) return true;
    if (next !== COMMA) throw GIVE_UP;
    this.ws();
    return false;
  }

  /** `"key" :` — the known field it names, or undefined. Escaped keys are left to JSON.parse. */
  private key(keys: KeyTable): Field | undefined {
    const b = this.b;
    if (b[this.p] !== QUOTE) throw GIVE_UP;
    const start = this.p + 1;
    let found: Field | undefined;
    let end = -1;
    const candidates = keys[b[start]!];
    if (candidates !== undefined) {
      for (const candidate of candidates) {
        const expected = candidate.bytes;
        let i = 0;
        while (i < expected.length && b[start + i] === expected[i]) i++;
        if (i === expected.length && b[start + i] === QUOTE) {
          found = candidate;
          end = start + i;
          break;
        }
      }
    }
    if (end < 0) end = this.plainStringEnd(start);
    this.p = end + 1;
    this.ws();
    if (b[this.p++] !== COLON) throw GIVE_UP;
    this.ws();
    return found;
  }

  /** Index of the closing quote of a string without escapes, control or non-ASCII characters. */
  private plainStringEnd(start: number): number {
    const b = this.b;
    let i = start;
    for (;;) {
      const c = b[i];
      if (c === QUOTE) return i;
      if (c === undefined || c < 0x20 || c === BACKSLASH || c > 0x7f) throw GIVE_UP;
      i++;
    }
  }

  /**
   * A value as JSON.parse would give it; strings, numbers and literals without building a string of the body.
   * For a numeric field a string of digits is handed over as its number (decoded alike, see NUMERIC_FIELDS).
   */
  private value(numeric: boolean): unknown {
    const b = this.b;
    const c = b[this.p];
    if (c === QUOTE) {
      const start = this.p + 1;
      const end = this.plainStringEnd(start);
      this.p = end + 1;
      if (numeric && end > start && end - start <= 15) {
        let n = 0;
        let i = start;
        for (; i < end; i++) {
          const d = b[i]! - ZERO;
          if (d < 0 || d > 9) break;
          n = n * 10 + d;
        }
        if (i === end) return n;
      }
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

  private literal<T>(word: string, value: T): T {
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
  private number(): number {
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
  private skipValue(depth: number): void {
    const b = this.b;
    const c = b[this.p];
    if (c === QUOTE) this.skipString();
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) this.skipContainer(c, depth);
    else this.value(false);
  }

  private skipContainer(open: number, depth: number): void {
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
  private skipString(): void {
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

  private ws(): void {
    const b = this.b;
    let c = b[this.p];
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++this.p];
  }
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

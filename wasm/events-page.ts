// AssemblyScript, compiled to WebAssembly by scripts/build-wasm.ts: the first decoder of
// `get-filtered-usage-events` pages (docs/behaviour.md §28.6), loaded by src/api/schemas/events-wasm.ts.
//
// Why: a heavy month is 150 pages of ~340 KB. The JavaScript byte decoder (src/api/schemas/events-bytes.ts)
// needs ~0.5 s of a cold run's CPU for them, most of it while V8 warms it up in every new process; this
// module is compiled in about a millisecond and scans the same bytes several times faster
// (docs/architecture.md, "Cost CPU").
//
// What it does: it tokenizes the page and writes each event's fields into columns in its memory, in the
// layout of src/api/schemas/event-rows.ts. It applies the schema's field rules (src/api/schemas/events.ts)
// only where they are plain: a number of up to 15 significant digits without an exponent, or a string of
// up to 15 digits, in a numeric field; true, false or null in a boolean field; null anywhere. Everything
// else is handed to JavaScript, which applies the schema's own rule to JSON.parse's value:
// - a text field's value is interned per page: each distinct value is handed over once, as the place of its
//   JSON in the page;
// - any other value of a numeric field is a "fix-up": the event, the field, and where its JSON is; so is
//   any other value of the page's totalUsageEventsCount.
// It gives up (decode returns -1) on what the schema would reject or JavaScript decodes better: invalid
// JSON, a page that is not an object holding the events array, a non-object event, a boolean field or
// tokenUsage of the wrong type, a boolean or container in a text field (or a number, but for the owner and
// team ids), an escaped or non-ASCII key, nesting past 64 levels, more rows, texts or fix-ups than it has
// room for.
//
// Memory: the page is copied in at `layout(length)`'s answer and followed by zero bytes, which no loop
// reads past (every token ends before a zero), so the scan needs no bounds checks.

const CAPACITY: i32 = 4096; // events per page (cursor.com sends 1,000)
const TEXT_FIELDS: i32 = 5; // model, kind, usageBasedCosts, owningUser, owningTeam
const MAX_TEXTS: i32 = 8192; // distinct text values per page
const TEXT_SLOTS: u32 = 16384; // the interning table, a power of two at least twice MAX_TEXTS
const MAX_FIXUPS: i32 = 8192;
const SLACK: usize = 64; // zero bytes after the page: the longest read past a token's end is 24 bytes

// Number columns, in the order of NUMBER_COLUMNS in src/api/schemas/event-rows.ts.
const TIMESTAMP = 0;
const REQUESTS_COSTS = 1;
const CURSOR_TOKEN_FEE = 2;
const CHARGED_CENTS = 3;
const INPUT_TOKENS = 4; // then outputTokens, cacheWriteTokens, cacheReadTokens
const TOTAL_CENTS = 8;
const NUMBER_COLUMNS = 9;

// `flags` bits of src/api/schemas/event-rows.ts.
const HAS_TOKENS: u32 = 1;
const TOTAL_CENTS_INVALID: u32 = 2;

// Field codes: the event fields in the order of EVENT_FIELDS (src/api/schemas/event-keys.ts), the token
// fields from 100 in the order of TOKEN_FIELDS, the envelope's from 200. A fix-up names its field by code.
const TOKEN_USAGE = 12;
const TOKEN_FIELD = 100;
// Where each event field's value goes, by field code: its number column, its boolean pair in `flags`
// (isTokenBasedCall, isChargeable, isHeadless), or its text column (TEXT_FIELDS order: model, kind,
// usageBasedCosts, owningUser, owningTeam; the last two are ids, which may be numbers).
const NUMBER_FIELD = 0;
const BOOLEAN_FIELD = 1;
const TEXT_FIELD = 2;
const FIELD_KIND: StaticArray<i32> = [
  NUMBER_FIELD, TEXT_FIELD, TEXT_FIELD, NUMBER_FIELD, TEXT_FIELD, BOOLEAN_FIELD, TEXT_FIELD, TEXT_FIELD,
  NUMBER_FIELD, BOOLEAN_FIELD, BOOLEAN_FIELD, NUMBER_FIELD,
];
const FIELD_SLOT: StaticArray<i32> = [
  TIMESTAMP, 0, 1, REQUESTS_COSTS, 2, 0, 3, 4, CURSOR_TOKEN_FEE, 1, 2, CHARGED_CENTS,
];
const FIRST_ID_TEXT = 3;
const TOTAL_CENTS_FIELD = 104;
const EVENT_COUNT = 200;
const EVENTS = 201;
const KEY_NAMES: StaticArray<string> = [
  'timestamp', 'model', 'kind', 'requestsCosts', 'usageBasedCosts', 'isTokenBasedCall', 'owningUser',
  'owningTeam', 'cursorTokenFee', 'isChargeable', 'isHeadless', 'chargedCents', 'tokenUsage',
  'inputTokens', 'outputTokens', 'cacheWriteTokens', 'cacheReadTokens', 'totalCents',
  'totalUsageEventsCount', 'usageEventsDisplay',
];
const KEY_CODES: StaticArray<i32> = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 100, 101, 102, 103, 104, 200, 201];
// A known key as its bytes and closing quote in three 64-bit words, their masks, and its length.
const KEY_ENTRY: usize = 56;

const POWERS_OF_TEN: StaticArray<f64> = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

// The layout, set once.
let keysByFirstByte: usize = 0; // 128 × 4 key indexes (-1: none)
let keyEntries: usize = 0;
let numbers: usize = 0; // NUMBER_COLUMNS × CAPACITY f64
let flags: usize = 0; // CAPACITY u8
let fixupMasks: usize = 0; // CAPACITY u32: bit (field code, token fields from 13) set while a fix-up is due
let texts: usize = 0; // TEXT_FIELDS × CAPACITY i32: the text's id, -1 for none
let textStart: usize = 0; // MAX_TEXTS i32 each: where the value's JSON starts and ends,
let textEnd: usize = 0;
let textField: usize = 0; // and its field, plus 8 when it is not plain ASCII text in quotes
let textSlots: usize = 0; // TEXT_SLOTS i32: a text's id + 1, 0 for free
let fixups: usize = 0; // MAX_FIXUPS × 4 i32: event, field code, start, end
let input: usize = 0;
let inputCapacity: usize = 0;

// The current page's answers.
let eventCount: i32 = 0;
let textCount: i32 = 0;
let fixupCount: i32 = 0;
let pageCount: f64 = NaN;
let countStart: usize = 0; // a count that is not plain: where its JSON is (0: none)
let countEnd: usize = 0;
// A scanning function's second answer (a number, a literal's code, whether an object ended).
let value: f64 = 0;
let field: i32 = 0;

function setUp(): void {
  keysByFirstByte = (__heap_base + 15) & ~15;
  keyEntries = keysByFirstByte + 512;
  memory.fill(keysByFirstByte, 0xff, 512);
  memory.fill(keyEntries, 0, <usize>KEY_NAMES.length * KEY_ENTRY);
  for (let k = 0; k < KEY_NAMES.length; k++) {
    const name = unchecked(KEY_NAMES[k]);
    const entry = keyEntries + <usize>k * KEY_ENTRY;
    for (let i = 0; i <= name.length; i++) {
      store<u8>(entry + <usize>i, i < name.length ? <u8>name.charCodeAt(i) : 0x22);
      store<u8>(entry + 24 + <usize>i, 0xff);
    }
    store<i32>(entry + 48, name.length);
    const candidates = keysByFirstByte + (<usize>name.charCodeAt(0) << 2);
    let c: usize = 0;
    while (load<i8>(candidates + c) >= 0) c++;
    store<i8>(candidates + c, <i8>k);
  }
  numbers = (keyEntries + <usize>KEY_NAMES.length * KEY_ENTRY + 15) & ~15;
  flags = numbers + <usize>(NUMBER_COLUMNS * CAPACITY * 8);
  fixupMasks = flags + <usize>CAPACITY;
  texts = fixupMasks + <usize>(CAPACITY * 4);
  textStart = texts + <usize>(TEXT_FIELDS * CAPACITY * 4);
  textEnd = textStart + <usize>(MAX_TEXTS * 4);
  textField = textEnd + <usize>(MAX_TEXTS * 4);
  textSlots = textField + <usize>(MAX_TEXTS * 4);
  fixups = textSlots + <usize>(TEXT_SLOTS * 4);
  input = fixups + <usize>(MAX_FIXUPS * 16);
}

/** Where to copy a page of `length` bytes, with room made for it. */
export function layout(length: i32): usize {
  if (input == 0) setUp();
  const needed = <usize>length + SLACK;
  if (needed > inputCapacity) {
    inputCapacity = needed > 1 << 20 ? needed : 1 << 20;
    const pages = <i32>((input + inputCapacity + 0xffff) >> 16);
    if (pages > memory.size() && memory.grow(pages - memory.size()) < 0) unreachable();
  }
  return input;
}

export function capacity(): i32 { return CAPACITY; }
export function numbersAt(): usize { return numbers; }
export function flagsAt(): usize { return flags; }
export function fixupMasksAt(): usize { return fixupMasks; }
export function textsAt(): usize { return texts; }
export function textStartAt(): usize { return textStart; }
export function textEndAt(): usize { return textEnd; }
export function textFieldAt(): usize { return textField; }
export function fixupsAt(): usize { return fixups; }
export function textTotal(): i32 { return textCount; }
export function fixupTotal(): i32 { return fixupCount; }
/** totalUsageEventsCount: NaN when absent, null or not an integer (decodeEventCount's undefined). */
export function count(): f64 { return pageCount; }
/** Where a count that is not plain is, for JavaScript to decode instead (0: none). */
export function countStartAt(): usize { return countStart; }
export function countEndAt(): usize { return countEnd; }

@inline function byte(at: usize): u32 { return <u32>load<u8>(at); }
@inline function isDigit(c: u32): bool { return c - 0x30 < 10; }
@inline function isHexDigit(c: u32): bool { return isDigit(c) || (c | 0x20) - 0x61 < 6; }
@inline function isInteger(x: f64): bool { return x == Math.trunc(x); }

@inline function whitespace(at: usize): usize {
  let c = byte(at);
  // Compact JSON (cursor.com's) has no whitespace: every token starts above the space character.
  if (c > 0x20) return at;
  while (c == 0x20 || c == 0x0a || c == 0x0d || c == 0x09) c = byte(++at);
  return at;
}

/**
 * A plain number into `value`: a JSON number of up to 15 significant digits without an exponent, or a string
 * of 1 to 15 digits, which the lenient rules read alike. Both operands of the one division are exact
 * doubles, so it rounds as JSON.parse does (Clinger). 0 for anything else, with nothing read.
 */
function plainNumber(at: usize): usize {
  let c = byte(at);
  if (c == 0x22) {
    const start = at + 1;
    let n: f64 = 0;
    c = byte(++at);
    while (isDigit(c)) {
      n = n * 10 + <f64>(c - 0x30);
      c = byte(++at);
    }
    const digits = at - start;
    if (c != 0x22 || digits == 0 || digits > 15) return 0;
    value = n;
    return at + 1;
  }
  const negative = c == 0x2d;
  if (negative) c = byte(++at);
  if (!isDigit(c)) return 0;
  let mantissa: f64 = 0;
  let digits = 0;
  let scale = 0;
  if (c == 0x30) {
    // A leading zero is the whole integer part: a digit after it is invalid JSON, found by the caller.
    c = byte(++at);
    digits = 1;
  } else {
    while (isDigit(c)) {
      mantissa = mantissa * 10 + <f64>(c - 0x30);
      digits++;
      c = byte(++at);
    }
  }
  if (c == 0x2e) {
    c = byte(++at);
    if (!isDigit(c)) return 0;
    while (isDigit(c)) {
      mantissa = mantissa * 10 + <f64>(c - 0x30);
      digits++;
      scale++;
      c = byte(++at);
    }
  }
  if (c == 0x65 || c == 0x45 || digits > 15) return 0;
  const magnitude = scale == 0 ? mantissa : mantissa / unchecked(POWERS_OF_TEN[scale]);
  value = negative ? -magnitude : magnitude;
  return at;
}

@inline function nullAt(at: usize): usize {
  return load<u32>(at) == 0x6c6c756e ? at + 4 : 0; // "null"
}

/** `true`, `false` or `null`, with `value` 1, 0 or 2; 0 for anything else. */
function literal(at: usize): usize {
  const word = load<u32>(at);
  if (word == 0x65757274) {
    value = 1; // "true"
    return at + 4;
  }
  if (word == 0x736c6166 && byte(at + 4) == 0x65) {
    value = 0; // "false"
    return at + 5;
  }
  if (word == 0x6c6c756e) {
    value = 2; // "null"
    return at + 4;
  }
  return 0;
}

/** A string from its opening quote, escapes checked as JSON.parse checks them; past it, or 0. */
function skipString(at: usize): usize {
  at++;
  while (true) {
    const c = byte(at);
    if (c == 0x22) return at + 1;
    if (c < 0x20) return 0;
    if (c == 0x5c) {
      const escaped = byte(at + 1);
      if (escaped == 0x75) {
        if (!(isHexDigit(byte(at + 2)) && isHexDigit(byte(at + 3)) && isHexDigit(byte(at + 4)) && isHexDigit(byte(at + 5))))
          return 0;
        at += 6;
        continue;
      }
      // \" \\ \/ \b \f \n \r \t
      if (!(escaped == 0x22 || escaped == 0x5c || escaped == 0x2f || escaped == 0x62 || escaped == 0x66 ||
          escaped == 0x6e || escaped == 0x72 || escaped == 0x74))
        return 0;
      at += 2;
      continue;
    }
    at++;
  }
  return 0;
}

/** Any JSON number, checked; past it, or 0. */
function skipNumber(at: usize): usize {
  let c = byte(at);
  if (c == 0x2d) c = byte(++at);
  if (c == 0x30) c = byte(++at);
  else if (c - 0x31 < 9) {
    while (isDigit(c)) c = byte(++at);
  } else return 0;
  if (c == 0x2e) {
    c = byte(++at);
    if (!isDigit(c)) return 0;
    while (isDigit(c)) c = byte(++at);
  }
  if (c == 0x65 || c == 0x45) {
    c = byte(++at);
    if (c == 0x2b || c == 0x2d) c = byte(++at);
    if (!isDigit(c)) return 0;
    while (isDigit(c)) c = byte(++at);
  }
  return at;
}

/** Any JSON value, checked; past it, or 0. */
function skipValue(at: usize, depth: i32): usize {
  const c = byte(at);
  if (c == 0x22) return skipString(at);
  if (c == 0x7b || c == 0x5b) return skipContainer(at, c, depth);
  if (c == 0x2d || isDigit(c)) return skipNumber(at);
  return literal(at);
}

function skipContainer(at: usize, open: u32, depth: i32): usize {
  if (depth >= 64) return 0;
  const close = open + 2; // `{` → `}`, `[` → `]`
  at = whitespace(at + 1);
  if (byte(at) == close) return at + 1;
  while (true) {
    if (open == 0x7b) {
      if (byte(at) != 0x22) return 0;
      at = skipString(at);
      if (at == 0) return 0;
      at = whitespace(at);
      if (byte(at) != 0x3a) return 0;
      at = whitespace(at + 1);
    }
    at = skipValue(at, depth + 1);
    if (at == 0) return 0;
    at = whitespace(at);
    const next = byte(at++);
    if (next == close) return at;
    if (next != 0x2c) return 0;
    at = whitespace(at);
  }
  return 0;
}

/**
 * `"key" :` with `field` its code, or -1 for a key it does not know; at the value, or 0. A known key is
 * matched by three masked 64-bit compares among the few that start with its first byte.
 */
function key(at: usize): usize {
  if (byte(at) != 0x22) return 0;
  const start = at + 1;
  const first = byte(start);
  field = -1;
  if (first < 128) {
    const candidates = keysByFirstByte + (<usize>first << 2);
    for (let c: usize = 0; c < 4; c++) {
      const k = <i32>load<i8>(candidates + c);
      if (k < 0) break;
      const entry = keyEntries + <usize>k * KEY_ENTRY;
      if ((load<u64>(start) & load<u64>(entry, 24)) == load<u64>(entry) &&
          (load<u64>(start, 8) & load<u64>(entry, 32)) == load<u64>(entry, 8) &&
          (load<u64>(start, 16) & load<u64>(entry, 40)) == load<u64>(entry, 16)) {
        field = unchecked(KEY_CODES[k]);
        at = start + <usize>load<i32>(entry, 48);
        break;
      }
    }
  }
  if (field < 0) {
    at = start;
    let c = first;
    while (c != 0x22) {
      // An escaped or non-ASCII key may spell a known one: JavaScript decodes that page.
      if (c < 0x20 || c == 0x5c || c > 0x7f) return 0;
      c = byte(++at);
    }
  }
  at = whitespace(at + 1);
  if (byte(at) != 0x3a) return 0;
  return whitespace(at + 1);
}

/** After a member: past `,` (`value` 0) or `}` (`value` 1), or 0. */
@inline function endOfMember(at: usize): usize {
  at = whitespace(at);
  const next = byte(at);
  if (next == 0x7d) {
    value = 1;
    return at + 1;
  }
  if (next != 0x2c) return 0;
  value = 0;
  return whitespace(at + 1);
}

@inline function numberAt(column: i32, row: i32): usize {
  return numbers + ((<usize>column * CAPACITY + <usize>row) << 3);
}

@inline function sameBytes(a: usize, b: usize, length: usize): bool {
  let k: usize = 0;
  for (; k + 8 <= length; k += 8) if (load<u64>(a + k) != load<u64>(b + k)) return false;
  for (; k < length; k++) if (load<u8>(a + k) != load<u8>(b + k)) return false;
  return true;
}

/**
 * A text field's value: its id among the page's distinct values into `value` (-1 for null); past it, or 0.
 * A string or (in an id field) a number; JavaScript turns each distinct one into its value.
 */
function text(at: usize, column: i32): usize {
  const start = at;
  let kind = column;
  let c = byte(at);
  if (c == 0x22) {
    c = byte(++at);
    while (c != 0x22) {
      if (c < 0x20 || c == 0x5c || c > 0x7f) {
        at = skipString(start);
        if (at == 0) return 0;
        kind |= 8;
        break;
      }
      c = byte(++at);
    }
    if ((kind & 8) == 0) at++;
  } else if (c == 0x2d || isDigit(c)) {
    // owningUser and owningTeam take numbers; a number anywhere else fails its page (the schema words that).
    if (column < FIRST_ID_TEXT) return 0;
    at = skipNumber(at);
    if (at == 0) return 0;
    kind |= 8;
  } else {
    at = nullAt(at);
    value = -1;
    return at;
  }
  const length = at - start;
  // The slot: from the value's first and last 8 bytes, its length and its field.
  let h = length >= 8
    ? load<u64>(start) ^ (load<u64>(at - 8) * 0x9e3779b97f4a7c15)
    : load<u64>(start) & ((<u64>1 << (<u64>length << 3)) - 1);
  h = (h ^ (h >> 29) ^ <u64>length ^ (<u64>column << 56)) * 0xbf58476d1ce4e5b9;
  let slot = <u32>(h >> 40) & (TEXT_SLOTS - 1);
  while (true) {
    const entry = load<i32>(textSlots + (<usize>slot << 2));
    if (entry == 0) break;
    const id = <usize>(entry - 1) << 2;
    const otherStart = <usize>load<i32>(textStart + id);
    if ((load<i32>(textField + id) & 7) == column && <usize>load<i32>(textEnd + id) - otherStart == length &&
        sameBytes(otherStart, start, length)) {
      value = <f64>(entry - 1);
      return at;
    }
    slot = (slot + 1) & (TEXT_SLOTS - 1);
  }
  if (textCount >= MAX_TEXTS) return 0;
  const id = <usize>textCount << 2;
  store<i32>(textStart + id, <i32>start);
  store<i32>(textEnd + id, <i32>at);
  store<i32>(textField + id, kind);
  store<i32>(textSlots + (<usize>slot << 2), textCount + 1);
  value = <f64>textCount;
  textCount++;
  return at;
}

/** The bit of `fixupMasks` for a field code. */
@inline function fixupBit(code: i32): u32 {
  return <u32>1 << <u32>(code >= TOKEN_FIELD ? code - TOKEN_FIELD + 13 : code);
}

/**
 * A numeric field's value: a plain one into `value`, NaN for null (absent); anything else becomes a fix-up
 * for JavaScript, with `value` NaN too. Past it, or 0.
 */
function numeric(at: usize, row: i32, code: i32): usize {
  const mask = fixupMasks + (<usize>row << 2);
  let next = plainNumber(at);
  if (next == 0) {
    next = nullAt(at);
    value = NaN;
    if (next == 0) {
      next = skipValue(at, 2);
      if (next == 0 || fixupCount >= MAX_FIXUPS) return 0;
      const entry = fixups + (<usize>fixupCount << 4);
      store<i32>(entry, row);
      store<i32>(entry, code, 4);
      store<i32>(entry, <i32>at, 8);
      store<i32>(entry, <i32>next, 12);
      fixupCount++;
      store<u32>(mask, load<u32>(mask) | fixupBit(code));
      return next;
    }
  }
  // A later value replaces an earlier one, as in JSON.parse: an earlier fix-up no longer applies.
  store<u32>(mask, load<u32>(mask) & ~fixupBit(code));
  return next;
}

/** Row `row` gets token usage with nothing in it yet, or (`present` false) none. */
function resetTokens(row: i32, present: bool): void {
  for (let c = INPUT_TOKENS; c < TOTAL_CENTS; c++) store<f64>(numberAt(c, row), 0);
  store<f64>(numberAt(TOTAL_CENTS, row), NaN);
  const at = flags + <usize>row;
  store<u8>(at, <u8>((<u32>load<u8>(at) & ~(HAS_TOKENS | TOTAL_CENTS_INVALID)) | (present ? HAS_TOKENS : 0)));
  const mask = fixupMasks + (<usize>row << 2);
  store<u32>(mask, load<u32>(mask) & 0x1fff);
}

/** `tokenUsage`: an object of token fields, or null (none); past it, or 0 (anything else fails the page). */
function tokenUsage(at: usize, row: i32): usize {
  if (byte(at) != 0x7b) {
    at = nullAt(at);
    if (at != 0) resetTokens(row, false);
    return at;
  }
  resetTokens(row, true);
  at = whitespace(at + 1);
  if (byte(at) == 0x7d) return at + 1;
  while (true) {
    at = key(at);
    if (at == 0) return 0;
    const code = field;
    if (code < TOKEN_FIELD || code > TOTAL_CENTS_FIELD) {
      at = skipValue(at, 2);
    } else {
      at = numeric(at, row, code);
      const n = value;
      if (code == TOTAL_CENTS_FIELD) {
        // totalCents: usable when ≥ 0; present (not null) but negative is invalid (docs/behaviour.md §20.1).
        const flag = flags + <usize>row;
        const invalid = n < 0;
        store<f64>(numberAt(TOTAL_CENTS, row), invalid ? NaN : n);
        const bits = <u32>load<u8>(flag);
        store<u8>(flag, <u8>(invalid ? bits | TOTAL_CENTS_INVALID : bits & ~TOTAL_CENTS_INVALID));
      } else {
        // A token count that is not an integer is 0 (docs/behaviour.md §18.2).
        store<f64>(numberAt(INPUT_TOKENS + code - TOKEN_FIELD, row), isInteger(n) ? n : 0);
      }
    }
    if (at == 0) return 0;
    at = endOfMember(at);
    if (at == 0) return 0;
    if (value == 1) return at;
  }
  return 0;
}

/** A boolean field's bit pair in `flags` (event-rows.ts): `literal` 0 false, 1 true, 2 null (none). */
function setBoolean(row: i32, pair: i32, literalCode: i32): void {
  const shift = <u32>(2 * pair);
  const set = <u32>4 << shift;
  const on = <u32>8 << shift;
  const at = flags + <usize>row;
  const rest = <u32>load<u8>(at) & ~(set | on);
  store<u8>(at, <u8>(literalCode == 2 ? rest : literalCode == 1 ? rest | set | on : rest | set));
}

/** One event into row `row`, every field absent until read; past it, or 0. */
function event(at: usize, row: i32): usize {
  if (byte(at) != 0x7b) return 0;
  for (let c = 0; c < INPUT_TOKENS; c++) store<f64>(numberAt(c, row), NaN);
  store<u8>(flags + <usize>row, 0);
  store<u32>(fixupMasks + (<usize>row << 2), 0);
  resetTokens(row, false);
  for (let t = 0; t < TEXT_FIELDS; t++) store<i32>(texts + ((<usize>t * CAPACITY + <usize>row) << 2), -1);
  at = whitespace(at + 1);
  if (byte(at) == 0x7d) return at + 1;
  while (true) {
    at = key(at);
    if (at == 0) return 0;
    const code = field;
    if (code < 0 || code > TOKEN_USAGE) {
      at = skipValue(at, 2);
    } else if (code == TOKEN_USAGE) {
      at = tokenUsage(at, row);
    } else {
      const slot = unchecked(FIELD_SLOT[code]);
      const kind = unchecked(FIELD_KIND[code]);
      if (kind == NUMBER_FIELD) {
        at = numeric(at, row, code);
        let n = value;
        // timestamp: an integer or absent (docs/behaviour.md §18.2); 15 digits are far inside Int64.
        if (slot == TIMESTAMP && !isInteger(n)) n = NaN;
        store<f64>(numberAt(slot, row), n);
      } else if (kind == BOOLEAN_FIELD) {
        at = literal(at);
        if (at != 0) setBoolean(row, slot, <i32>value);
      } else {
        at = text(at, slot);
        if (at != 0) store<i32>(texts + ((<usize>slot * CAPACITY + <usize>row) << 2), <i32>value);
      }
    }
    if (at == 0) return 0;
    at = endOfMember(at);
    if (at == 0) return 0;
    if (value == 1) return at;
  }
  return 0;
}

/** The events array into rows 0…; past it, or 0. */
function events(at: usize): usize {
  if (byte(at) != 0x5b) return 0;
  at = whitespace(at + 1);
  if (byte(at) == 0x5d) return at + 1;
  let row = 0;
  while (true) {
    if (row >= CAPACITY) return 0;
    at = event(at, row);
    if (at == 0) return 0;
    row++;
    eventCount = row;
    at = whitespace(at);
    const next = byte(at++);
    if (next == 0x5d) return at;
    if (next != 0x2c) return 0;
    at = whitespace(at);
  }
  return 0;
}

/** Decodes the page of `length` bytes copied to layout()'s answer: its number of events, or -1 to give up. */
export function decode(length: i32): i32 {
  const end = input + <usize>length;
  memory.fill(end, 0, SLACK);
  memory.fill(textSlots, 0, <usize>(TEXT_SLOTS * 4));
  eventCount = 0;
  textCount = 0;
  fixupCount = 0;
  pageCount = NaN;
  countStart = 0;
  let found = false;
  let at = whitespace(input);
  if (byte(at) != 0x7b) return -1;
  at = whitespace(at + 1);
  // `{}` (an empty window) is the schema path's to decode.
  if (byte(at) == 0x7d) return -1;
  while (true) {
    at = key(at);
    if (at == 0) return -1;
    if (field == EVENTS) {
      // A second array would replace the first: rare enough to leave to JavaScript.
      if (found) return -1;
      found = true;
      at = events(at);
    } else if (field == EVENT_COUNT) {
      countStart = 0;
      const next = plainNumber(at);
      if (next != 0) {
        at = next;
        const n = value;
        // decodeEventCount: a negative count fails the page, a fractional one is no count.
        if (!isInteger(n)) pageCount = NaN;
        else if (n < 0) return -1;
        else pageCount = n;
      } else {
        pageCount = NaN;
        const afterNull = nullAt(at);
        if (afterNull != 0) at = afterNull;
        else {
          // Anything else is JavaScript's to read, as a fix-up.
          countStart = at;
          at = skipValue(at, 1);
          countEnd = at;
        }
      }
    } else {
      at = skipValue(at, 1);
    }
    if (at == 0) return -1;
    at = endOfMember(at);
    if (at == 0) return -1;
    if (value == 1) break;
  }
  if (whitespace(at) != end || !found) return -1;
  return eventCount;
}

/**
 * The fast path for `get-filtered-usage-events` pages: a JSON tokenizer over the response bytes that decodes
 * the known fields of each event straight into rows (src/cost/events/rows.ts), skipping everything else.
 *
 * Why: a heavy month is 150 pages of about 340 KB. `JSON.parse` builds every field of every event (most of
 * which nothing reads), after the body has been copied into a string, and the schema then builds an object
 * per event; that was most of the CPU of `codexbar cost` (bench/README.md, Cost CPU). Here no body string and
 * no object per event is made.
 *
 * How it stays exact: it only tokenizes. Each known field's JSON value (a string, number, boolean or null,
 * exactly as JSON.parse would give it; anything else parsed by JSON.parse itself) goes through the schema's
 * own rule for that field (src/api/schemas/events.ts: lenientInteger, decodeModel, optionalString, …), so
 * the two paths cannot disagree on a rule; a duplicate key replaces the earlier value, as in JSON.parse. It
 * gives up (returns undefined) on anything it does not handle — a BOM, non-ASCII or escaped text in a field
 * it keeps, an envelope without the array, a field of the wrong type, invalid JSON — and the caller then
 * decodes the page with JSON.parse and the schema, which also words every error.
 * test/unit/events-bytes.test.ts compares the two paths on the schema tests' edge cases and on fuzzed pages.
 */

import {
  decodeEventCount,
  decodeModel,
  type Issues,
  lenientInteger,
  lenientNumber,
  optionalBoolean,
  optionalId,
  optionalString,
  tokenCount,
  totalCentsInvalid,
  totalCentsOf,
} from '../../api/schemas/events.js';
import {
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  GIVE_UP,
  JsonBytes,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
  skipWs,
} from './json-tokens.js';
import {
  CACHE_READ_TOKENS,
  CACHE_WRITE_TOKENS,
  CHARGED_CENTS,
  CURSOR_TOKEN_FEE,
  ENVELOPE_FIELDS,
  ENVELOPE_KEYS,
  EVENT_FIELDS,
  EVENT_KEYS,
  type Field,
  INPUT_TOKENS,
  IS_CHARGEABLE,
  IS_HEADLESS,
  IS_TOKEN_BASED_CALL,
  type KeyTable,
  KIND,
  MODEL,
  OUTPUT_TOKENS,
  OWNING_TEAM,
  OWNING_USER,
  REQUESTS_COSTS,
  TIMESTAMP,
  TOKEN_KEYS,
  TOKEN_USAGE,
  USAGE_BASED_COSTS,
} from './keys.js';
import { CHARGEABLE, EventRows, type EventRowsPage, HEADLESS, orNaN, TOKEN_BASED_CALL } from './rows.js';

/** The page, its events as rows, or undefined when the schema path must decode it. */
export function decodeEventsPageBytes(bytes: Uint8Array): EventRowsPage | undefined {
  try {
    return new PageTokenizer(bytes).page();
  } catch (error) {
    if (error === GIVE_UP) return undefined;
    throw error;
  }
}

/** Distinct values remembered per text field and page. */
const SEEN_TEXTS = 8;

class PageTokenizer extends JsonBytes {
  private readonly issues: Issues = [];
  private readonly view = new DataView(this.b.buffer, this.b.byteOffset, this.b.byteLength);
  /**
   * Per text field, the first few distinct values of this page: where each is and its string. Models, kinds,
   * owners and teams repeat from event to event, and matching a few bytes is cheaper than scanning the value
   * and hashing it.
   */
  private readonly seenCount = new Int32Array(EVENT_FIELDS.length);
  private readonly seenStart = new Int32Array(EVENT_FIELDS.length * SEEN_TEXTS);
  private readonly seenLength = new Int32Array(EVENT_FIELDS.length * SEEN_TEXTS);
  private readonly seenText: string[] = [];

  page(): EventRowsPage {
    const b = this.b;
    this.ws();
    if (b[this.p] !== OPEN_OBJECT) throw GIVE_UP;
    this.p++;
    let count: number | undefined;
    let events: EventRows | undefined;
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
    const count = decodeEventCount(this.value(), this.issues);
    if (this.issues.length > 0) throw GIVE_UP;
    return count;
  }

  private events(): EventRows {
    const b = this.b;
    if (b[this.p] !== OPEN_ARRAY) throw GIVE_UP;
    this.p++;
    const rows = new EventRows();
    this.seenCount.fill(0);
    this.ws();
    if (b[this.p] === CLOSE_ARRAY) {
      this.p++;
      return rows;
    }
    for (;;) {
      this.event(rows);
      this.ws();
      const next = b[this.p++];
      if (next === CLOSE_ARRAY) return rows;
      if (next !== COMMA) throw GIVE_UP;
      this.ws();
    }
  }

  /** One event into a new row: each known field through the schema's rule for it, the rest skipped. */
  private event(rows: EventRows): void {
    // A non-object element fails its page: the schema words that.
    if (this.b[this.p] !== OPEN_OBJECT) throw GIVE_UP;
    const i = rows.addEmpty();
    if (this.emptyObject()) return;
    do {
      const field = this.key(EVENT_KEYS);
      if (field === undefined) this.skipValue(0);
      else if (field.index === TOKEN_USAGE) this.tokenUsage(rows, i);
      else this.field(rows, i, field);
    } while (!this.endOfMembers());
  }

  /** Past an object's `{`: true (and past its `}`) when it has no members. */
  private emptyObject(): boolean {
    this.p = skipWs(this.b, this.p + 1);
    if (this.b[this.p] !== CLOSE_OBJECT) return false;
    this.p++;
    return true;
  }

  /**
   * A number field's value: a plain number straight from the bytes, anything else as JSON.parse gives it
   * (the schema's lenient rules take either).
   */
  private numeric(): unknown {
    const n = this.plainNumber();
    return Number.isNaN(n) ? this.value() : n;
  }

  /** A known event field's value into row `i`, by the rule decodeUsageEvent applies to it. */
  private field(rows: EventRows, i: number, field: Field): void {
    const issues = this.issues;
    switch (field.index) {
      case TIMESTAMP:
        rows.timestamp[i] = orNaN(lenientInteger(this.numeric()));
        break;
      case MODEL:
        rows.model[i] = decodeModel(this.text(field), issues);
        break;
      case KIND:
        rows.kind[i] = optionalString(this.text(field), 'kind', issues);
        break;
      case REQUESTS_COSTS:
        rows.requestsCosts[i] = orNaN(lenientNumber(this.numeric()));
        break;
      case USAGE_BASED_COSTS:
        rows.usageBasedCosts[i] = optionalString(this.text(field), 'usageBasedCosts', issues);
        break;
      case IS_TOKEN_BASED_CALL:
        rows.setBoolean(i, TOKEN_BASED_CALL, optionalBoolean(this.value(), 'isTokenBasedCall', issues));
        break;
      case OWNING_USER:
        rows.owningUser[i] = optionalId(this.text(field), 'owningUser', issues);
        break;
      case OWNING_TEAM:
        rows.owningTeam[i] = optionalId(this.text(field), 'owningTeam', issues);
        break;
      case CURSOR_TOKEN_FEE:
        rows.cursorTokenFee[i] = orNaN(lenientNumber(this.numeric()));
        break;
      case IS_CHARGEABLE:
        rows.setBoolean(i, CHARGEABLE, optionalBoolean(this.value(), 'isChargeable', issues));
        break;
      case IS_HEADLESS:
        rows.setBoolean(i, HEADLESS, optionalBoolean(this.value(), 'isHeadless', issues));
        break;
      case CHARGED_CENTS:
        rows.chargedCents[i] = orNaN(lenientNumber(this.numeric()));
    }
    if (issues.length > 0) throw GIVE_UP;
  }

  /**
   * `tokenUsage`: an object's known fields by the schema's token rules (a second `tokenUsage` replaces the
   * first, as in JSON.parse); null is none; anything else fails its page (the schema words that).
   */
  private tokenUsage(rows: EventRows, i: number): void {
    if (this.b[this.p] !== OPEN_OBJECT) {
      if (this.value() !== null) throw GIVE_UP;
      rows.resetTokenUsage(i, false);
      return;
    }
    rows.resetTokenUsage(i, true);
    if (this.emptyObject()) return;
    do {
      const field = this.key(TOKEN_KEYS);
      if (field === undefined) {
        this.skipValue(0);
        continue;
      }
      const value = this.numeric();
      switch (field.index) {
        case INPUT_TOKENS:
          rows.inputTokens[i] = tokenCount(value);
          break;
        case OUTPUT_TOKENS:
          rows.outputTokens[i] = tokenCount(value);
          break;
        case CACHE_WRITE_TOKENS:
          rows.cacheWriteTokens[i] = tokenCount(value);
          break;
        case CACHE_READ_TOKENS:
          rows.cacheReadTokens[i] = tokenCount(value);
          break;
        default:
          rows.setTotalCents(i, orNaN(totalCentsOf(value)), totalCentsInvalid(value));
      }
    } while (!this.endOfMembers());
  }

  /**
   * A text field's value as JSON.parse gives it. A string whose bytes match a value this field already had on
   * this page, up to its closing quote, is that value (it was found plain then): one pass over the bytes.
   */
  private text(field: Field): unknown {
    const b = this.b;
    if (b[this.p] !== QUOTE) return this.value();
    const start = this.p + 1;
    const slot = field.index;
    const first = slot * SEEN_TEXTS;
    const seen = this.seenCount[slot]!;
    for (let e = first; e < first + seen; e++) {
      const length = this.seenLength[e]!;
      // The closing quote where this value's would be, then the bytes: most values that differ fail the
      // first test, and the one that matches is compared once.
      if (b[start + length] !== QUOTE) continue;
      const at = this.seenStart[e]!;
      let k = 0;
      while (k < length && b[start + k] === b[at + k]) k++;
      if (k === length) {
        this.p = start + length + 1;
        return this.seenText[e];
      }
    }
    const end = this.plainStringEnd(start);
    this.p = end + 1;
    const text = this.plainText(start, end);
    if (seen < SEEN_TEXTS) {
      this.seenStart[first + seen] = start;
      this.seenLength[first + seen] = end - start;
      this.seenText[first + seen] = text;
      this.seenCount[slot] = seen + 1;
    }
    return text;
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

  /** The bytes at `start` are the key of `field` and its closing quote; compared four bytes at a time. */
  private names(start: number, field: Field): boolean {
    const b = this.b;
    const words = field.words;
    const tail = field.tail;
    // The key's closing quote first: keys of another length fail here, without reading the rest.
    const end = start + field.bytes.length;
    if (end >= b.length || b[end] !== QUOTE) return false;
    let at = start;
    for (let w = 0; w < words.length; w++, at += 4)
      if (this.view.getInt32(at, true) !== words[w]) return false;
    for (let k = 0; k < tail.length; k++) if (b[at + k] !== tail[k]) return false;
    return true;
  }

  /** `"key" :` — the known field it names, or undefined. Escaped keys are left to JSON.parse. */
  private key(keys: KeyTable): Field | undefined {
    const b = this.b;
    const p = this.p;
    if (b[p] !== QUOTE) throw GIVE_UP;
    const start = p + 1;
    let found: Field | undefined;
    let end = -1;
    const candidates = keys[b[start]!];
    if (candidates !== undefined) {
      for (let c = 0; c < candidates.length; c++) {
        const candidate = candidates[c]!;
        if (this.names(start, candidate)) {
          found = candidate;
          end = start + candidate.bytes.length;
          break;
        }
      }
    }
    if (end < 0) end = this.plainStringEnd(start);
    const colon = skipWs(b, end + 1);
    if (b[colon] !== COLON) throw GIVE_UP;
    this.p = skipWs(b, colon + 1);
    return found;
  }
}

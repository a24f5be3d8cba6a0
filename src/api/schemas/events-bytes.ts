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
} from './json-bytes.js';

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

class PageTokenizer extends JsonBytes {
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
}

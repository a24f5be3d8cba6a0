/**
 * Decoded usage events held as columns: what an events page decodes to, what the
 * pager and the aggregator read, and what the event store gives back (it keeps its own compact form,
 * src/cost/store/kept-events.ts).
 *
 * Why: a heavy month is 150 pages of 1,000 events, and pages are fetched ahead of the one being read. As
 * objects (two per event, plus a box for each fractional number) they outlived the young generation, and the
 * garbage collector copied and promoted them page after page; typed arrays cost it nothing.
 *
 * Every field of a decoded event (src/api/schemas/events.ts) has a column. An absent number is NaN (a decoded
 * number is never NaN: the lenient rules give a finite number or nothing, and a token count too large to hold
 * exactly +Infinity, UNKNOWN_COUNT); booleans and the presence of token usage are bits of `flags`. `get(i)`
 * gives the event back exactly as the schema decodes it.
 */
import { type DecodedUsageEvent, eventsPageSchema } from '../../api/schemas/events.js';

/** `flags` bits: token usage, then a pair (set, true) per boolean field. */
export const HAS_TOKENS = 1;
export const TOTAL_CENTS_INVALID = 2;
const TOKEN_USAGE_BITS = HAS_TOKENS | TOTAL_CENTS_INVALID;
/** The boolean fields, in the order of their bit pairs. */
export const TOKEN_BASED_CALL = 0;
export const CHARGEABLE = 1;
export const HEADLESS = 2;
type BooleanField = typeof TOKEN_BASED_CALL | typeof CHARGEABLE | typeof HEADLESS;
const setBit = (field: BooleanField) => 4 << (2 * field);
const onBit = (field: BooleanField) => 8 << (2 * field);

/**
 * An event as the event store keeps it: the fields aggregation reads. Absent
 * numbers are NaN; without `tokens` the token fields mean nothing.
 */
export interface StoredEvent {
  timestamp: number;
  model: string | undefined;
  kind: string | undefined;
  owningUser: string | undefined;
  /** Only Admin API events carry these two (a team's store); absent as undefined, NaN. */
  userEmail: string | undefined;
  cursorTokenFee: number;
  chargedCents: number;
  tokens: boolean;
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
  totalCents: number;
  totalCentsInvalid: boolean;
}

/** A StoredEvent to fill in and reuse, row after row. */
export function storedEventScratch(): StoredEvent {
  return {
    timestamp: 0,
    model: undefined,
    kind: undefined,
    owningUser: undefined,
    userEmail: undefined,
    cursorTokenFee: Number.NaN,
    chargedCents: Number.NaN,
    tokens: false,
    inputTokens: 0,
    outputTokens: 0,
    cacheWriteTokens: 0,
    cacheReadTokens: 0,
    totalCents: Number.NaN,
    totalCentsInvalid: false,
  };
}

/** The rows a page holds when nothing says otherwise: cursor.com's page size. */
const PAGE_ROWS = 1000;

const NUMBER_COLUMNS = [
  'timestamp',
  'requestsCosts',
  'cursorTokenFee',
  'chargedCents',
  'inputTokens',
  'outputTokens',
  'cacheWriteTokens',
  'cacheReadTokens',
  'totalCents',
] as const;

/** A decoded number as its column holds it: absent is NaN. */
export const orNaN = (value: number | undefined) => (value === undefined ? Number.NaN : value);
const orUndefined = (value: number) => (Number.isNaN(value) ? undefined : value);

function booleanBits(field: BooleanField, value: boolean | undefined): number {
  return value === undefined ? 0 : value ? setBit(field) | onBit(field) : setBit(field);
}

function booleanOf(flags: number, field: BooleanField): boolean | undefined {
  return flags & setBit(field) ? (flags & onBit(field)) !== 0 : undefined;
}

/**
 * An empty text column that can hold `undefined` from the start: an array made empty (`[]`) first holds
 * small integers only, and its first `undefined` would make V8 throw away the optimised code that fills it.
 */
function textColumn(): (string | undefined)[] {
  const column: (string | undefined)[] = [undefined];
  column.length = 0;
  return column;
}

export class EventRows {
  length = 0;
  timestamp: Float64Array;
  requestsCosts: Float64Array;
  cursorTokenFee: Float64Array;
  chargedCents: Float64Array;
  /** The four token counts are 0 and totalCents NaN when the event has no token usage. */
  inputTokens: Float64Array;
  outputTokens: Float64Array;
  cacheWriteTokens: Float64Array;
  cacheReadTokens: Float64Array;
  totalCents: Float64Array;
  flags: Uint8Array;
  readonly model = textColumn();
  readonly kind = textColumn();
  readonly usageBasedCosts = textColumn();
  readonly owningUser = textColumn();
  readonly owningTeam = textColumn();
  /** The member's email: set only by the Admin API's decoder. */
  readonly userEmail = textColumn();

  constructor(capacity = PAGE_ROWS) {
    const size = Math.max(1, capacity);
    this.timestamp = new Float64Array(size);
    this.requestsCosts = new Float64Array(size);
    this.cursorTokenFee = new Float64Array(size);
    this.chargedCents = new Float64Array(size);
    this.inputTokens = new Float64Array(size);
    this.outputTokens = new Float64Array(size);
    this.cacheWriteTokens = new Float64Array(size);
    this.cacheReadTokens = new Float64Array(size);
    this.totalCents = new Float64Array(size);
    this.flags = new Uint8Array(size);
  }

  static fromEvents(events: readonly DecodedUsageEvent[]): EventRows {
    const rows = new EventRows(events.length);
    for (const event of events) rows.push(event);
    return rows;
  }

  /** The index the next row goes to, with room made for it. */
  private next(): number {
    if (this.length === this.flags.length) this.grow();
    return this.length++;
  }

  private grow(): void {
    const size = this.flags.length * 2;
    for (const name of NUMBER_COLUMNS) {
      const grown = new Float64Array(size);
      grown.set(this[name]);
      this[name] = grown;
    }
    const flags = new Uint8Array(size);
    flags.set(this.flags);
    this.flags = flags;
  }

  push(event: DecodedUsageEvent): void {
    const i = this.next();
    this.timestamp[i] = orNaN(event.timestamp);
    this.requestsCosts[i] = orNaN(event.requestsCosts);
    this.cursorTokenFee[i] = orNaN(event.cursorTokenFee);
    this.chargedCents[i] = orNaN(event.chargedCents);
    this.model.push(event.model);
    this.kind.push(event.kind);
    this.usageBasedCosts.push(event.usageBasedCosts);
    this.owningUser.push(event.owningUser);
    this.owningTeam.push(event.owningTeam);
    this.userEmail.push(event.userEmail);
    let bits =
      booleanBits(TOKEN_BASED_CALL, event.isTokenBasedCall) |
      booleanBits(CHARGEABLE, event.isChargeable) |
      booleanBits(HEADLESS, event.isHeadless);
    const usage = event.tokenUsage;
    if (usage) {
      bits |= HAS_TOKENS;
      if (usage.totalCentsInvalid) bits |= TOTAL_CENTS_INVALID;
      this.setTokens(i, usage.inputTokens, usage.outputTokens, usage.cacheWriteTokens, usage.cacheReadTokens);
      this.totalCents[i] = orNaN(usage.totalCents);
    } else {
      this.setTokens(i, 0, 0, 0, 0);
      this.totalCents[i] = Number.NaN;
    }
    this.flags[i] = bits;
  }

  private setTokens(i: number, input: number, output: number, cacheWrite: number, cacheRead: number): void {
    this.inputTokens[i] = input;
    this.outputTokens[i] = output;
    this.cacheWriteTokens[i] = cacheWrite;
    this.cacheReadTokens[i] = cacheRead;
  }

  /** Appends a row with every field absent, for a decoder to fill in; returns its index. */
  addEmpty(): number {
    const i = this.next();
    this.timestamp[i] = Number.NaN;
    this.requestsCosts[i] = Number.NaN;
    this.cursorTokenFee[i] = Number.NaN;
    this.chargedCents[i] = Number.NaN;
    this.setTokens(i, 0, 0, 0, 0);
    this.totalCents[i] = Number.NaN;
    this.flags[i] = 0;
    this.model.push(undefined);
    this.kind.push(undefined);
    this.usageBasedCosts.push(undefined);
    this.owningUser.push(undefined);
    this.owningTeam.push(undefined);
    this.userEmail.push(undefined);
    return i;
  }

  setBoolean(i: number, field: BooleanField, value: boolean | undefined): void {
    this.flags[i] = (this.flags[i]! & ~(setBit(field) | onBit(field))) | booleanBits(field, value);
  }

  /** Row `i` gets token usage with nothing in it yet (0 tokens, no totalCents), or (`present` false) none. */
  resetTokenUsage(i: number, present: boolean): void {
    this.setTokens(i, 0, 0, 0, 0);
    this.totalCents[i] = Number.NaN;
    this.flags[i] = (this.flags[i]! & ~TOKEN_USAGE_BITS) | (present ? HAS_TOKENS : 0);
  }

  /** Row `i`'s totalCents (NaN: none usable) and whether a value was present but unusable. */
  setTotalCents(i: number, cents: number, invalid: boolean): void {
    this.totalCents[i] = cents;
    this.flags[i] = invalid ? this.flags[i]! | TOTAL_CENTS_INVALID : this.flags[i]! & ~TOTAL_CENTS_INVALID;
  }

  /** Appends an event as the event store keeps it: the fields aggregation reads, the others absent. */
  appendStored(event: StoredEvent): void {
    const i = this.next();
    this.timestamp[i] = event.timestamp;
    this.requestsCosts[i] = Number.NaN;
    this.cursorTokenFee[i] = event.cursorTokenFee;
    this.chargedCents[i] = event.chargedCents;
    this.model.push(event.model);
    this.kind.push(event.kind);
    this.usageBasedCosts.push(undefined);
    this.owningUser.push(event.owningUser);
    this.owningTeam.push(undefined);
    this.userEmail.push(event.userEmail);
    if (event.tokens) {
      this.setTokens(i, event.inputTokens, event.outputTokens, event.cacheWriteTokens, event.cacheReadTokens);
      this.totalCents[i] = event.totalCents;
      this.flags[i] = event.totalCentsInvalid ? HAS_TOKENS | TOTAL_CENTS_INVALID : HAS_TOKENS;
    } else {
      this.setTokens(i, 0, 0, 0, 0);
      this.totalCents[i] = Number.NaN;
      this.flags[i] = 0;
    }
  }

  /** Row `i` as the decoded event it was, field for field (an email only when it had one, as decoded). */
  get(i: number): DecodedUsageEvent {
    const bits = this.flags[i]!;
    const event: DecodedUsageEvent = {
      timestamp: orUndefined(this.timestamp[i]!),
      model: this.model[i],
      kind: this.kind[i],
      requestsCosts: orUndefined(this.requestsCosts[i]!),
      usageBasedCosts: this.usageBasedCosts[i],
      isTokenBasedCall: booleanOf(bits, TOKEN_BASED_CALL),
      owningUser: this.owningUser[i],
      owningTeam: this.owningTeam[i],
      cursorTokenFee: orUndefined(this.cursorTokenFee[i]!),
      isChargeable: booleanOf(bits, CHARGEABLE),
      isHeadless: booleanOf(bits, HEADLESS),
      chargedCents: orUndefined(this.chargedCents[i]!),
      tokenUsage:
        bits & HAS_TOKENS
          ? {
              inputTokens: this.inputTokens[i]!,
              outputTokens: this.outputTokens[i]!,
              cacheWriteTokens: this.cacheWriteTokens[i]!,
              cacheReadTokens: this.cacheReadTokens[i]!,
              totalCents: orUndefined(this.totalCents[i]!),
              totalCentsInvalid: (bits & TOTAL_CENTS_INVALID) !== 0,
            }
          : undefined,
    };
    const email = this.userEmail[i];
    if (email !== undefined) event.userEmail = email;
    return event;
  }
}

/** An events page with its events as rows. */
export interface EventRowsPage {
  totalUsageEventsCount: number | undefined;
  usageEventsDisplay: EventRows;
}

/** The events page schema (the one definition of the page, src/api/schemas/events.ts), its events as rows. */
export const eventRowsPageSchema = eventsPageSchema.transform(
  (page): EventRowsPage => ({
    totalUsageEventsCount: page.totalUsageEventsCount,
    usageEventsDisplay: EventRows.fromEvents(page.usageEventsDisplay),
  }),
);

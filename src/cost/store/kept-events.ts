/**
 * The events a run keeps for the event store, held as the chunk format writes them:
 * the fields aggregation reads (and, for a team's store, the member's email and the token fee), numbers in
 * typed arrays (an absent one as NaN, as the page's rows have it, with its flag clear; the chunk writes 0),
 * text as ids into this set's own list of texts. No string or object per event: keeping a 150,000-event
 * month costs the garbage collector nothing, and a page's numbers are kept with one copy per column.
 */
import { type EventRows, HAS_TOKENS, type StoredEvent, TOTAL_CENTS_INVALID } from '../events/rows.js';

/** The chunk format's flags byte. */
export const CHUNK_TOKENS = 1;
export const CHUNK_TOTAL_CENTS = 2;
export const CHUNK_TOTAL_CENTS_INVALID = 4;
export const CHUNK_CHARGED_CENTS = 8;
/** Version 2 only (a team's store): the event carries a token fee. */
export const CHUNK_TOKEN_FEE = 16;

/** The numeric columns after the flags, in the order the chunk format writes them. */
export const NUMBER_COLUMNS = [
  'inputTokens',
  'outputTokens',
  'cacheWriteTokens',
  'cacheReadTokens',
  'totalCents',
  'chargedCents',
] as const;
export type NumberColumn = (typeof NUMBER_COLUMNS)[number];

/** A text column: ids into `texts`, −1 for none. */
export const NO_TEXT = -1;

/** The chunk flags of an event: which of its numbers are present. */
function chunkFlags(
  tokens: boolean,
  totalCentsInvalid: boolean,
  chargedCents: number,
  tokenFee: number,
  totalCents: number,
): number {
  let flags = Number.isNaN(chargedCents) ? 0 : CHUNK_CHARGED_CENTS;
  if (!Number.isNaN(tokenFee)) flags |= CHUNK_TOKEN_FEE;
  if (tokens) {
    flags |= CHUNK_TOKENS;
    if (!Number.isNaN(totalCents)) flags |= CHUNK_TOTAL_CENTS;
    if (totalCentsInvalid) flags |= CHUNK_TOTAL_CENTS_INVALID;
  }
  return flags;
}

/** A text column and the last text put in it, which the next event usually repeats. */
class TextColumn {
  ids: Int32Array;
  private last: string | undefined;
  private lastId = NO_TEXT;

  constructor(
    size: number,
    private readonly intern: (text: string) => number,
  ) {
    this.ids = new Int32Array(size);
  }

  set(i: number, text: string | undefined): void {
    if (text !== this.last) {
      this.last = text;
      this.lastId = text === undefined ? NO_TEXT : this.intern(text);
    }
    this.ids[i] = this.lastId;
  }

  /** `texts[from]` to `texts[to - 1]` at `at` onwards. */
  setRange(at: number, texts: readonly (string | undefined)[], from: number, to: number): void {
    for (let k = from; k < to; k++) this.set(at + k - from, texts[k]);
  }
}

export class KeptEvents {
  length = 0;
  timestamp: Float64Array;
  flags: Uint8Array;
  readonly numbers: Record<NumberColumn, Float64Array>;
  /** `cursorTokenFee`, where CHUNK_TOKEN_FEE is set (else NaN). */
  tokenFee: Float64Array;
  /** The distinct texts, each id its index. */
  readonly texts: string[] = [];
  private readonly idOfText = new Map<string, number>();
  readonly model: TextColumn;
  readonly kind: TextColumn;
  readonly owningUser: TextColumn;
  /** Only Admin API events carry one, so only a team's store holds any. */
  readonly userEmail: TextColumn;

  constructor(capacity = 1024) {
    const size = Math.max(1, capacity);
    this.timestamp = new Float64Array(size);
    this.flags = new Uint8Array(size);
    this.numbers = {
      inputTokens: new Float64Array(size),
      outputTokens: new Float64Array(size),
      cacheWriteTokens: new Float64Array(size),
      cacheReadTokens: new Float64Array(size),
      totalCents: new Float64Array(size),
      chargedCents: new Float64Array(size),
    };
    this.tokenFee = new Float64Array(size);
    const intern = (text: string) => this.intern(text);
    this.model = new TextColumn(size, intern);
    this.kind = new TextColumn(size, intern);
    this.owningUser = new TextColumn(size, intern);
    this.userEmail = new TextColumn(size, intern);
  }

  /** Whether any of `rows` carries a member's email or a token fee (fields a chunk then has to keep). */
  hasMemberFields(rows: readonly number[]): boolean {
    const email = this.userEmail.ids;
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k]!;
      if (email[row] !== NO_TEXT || (this.flags[row]! & CHUNK_TOKEN_FEE) !== 0) return true;
    }
    return false;
  }

  private intern(text: string): number {
    let id = this.idOfText.get(text);
    if (id === undefined) {
      id = this.texts.push(text) - 1;
      this.idOfText.set(text, id);
    }
    return id;
  }

  private next(): number {
    if (this.length === this.flags.length) this.grow(this.flags.length * 2);
    return this.length++;
  }

  private grow(size: number): void {
    const grown = <T extends Float64Array | Uint8Array | Int32Array>(from: T): T => {
      const to = new (from.constructor as new (n: number) => T)(size);
      to.set(from);
      return to;
    };
    this.timestamp = grown(this.timestamp);
    this.flags = grown(this.flags);
    for (const name of NUMBER_COLUMNS) this.numbers[name] = grown(this.numbers[name]);
    this.tokenFee = grown(this.tokenFee);
    for (const column of [this.model, this.kind, this.owningUser, this.userEmail])
      column.ids = grown(column.ids);
  }

  /** Keeps rows `from` to `to` (exclusive) of `rows`, whose timestamps must be set: a copy per column. */
  appendRange(rows: EventRows, from: number, to: number): void {
    const at = this.length;
    const count = to - from;
    if (at + count > this.flags.length) this.grow(Math.max(at + count, this.flags.length * 2));
    this.length += count;
    const n = this.numbers;
    const copy = (into: Float64Array, source: Float64Array) => into.set(source.subarray(from, to), at);
    copy(this.timestamp, rows.timestamp);
    copy(n.inputTokens, rows.inputTokens);
    copy(n.outputTokens, rows.outputTokens);
    copy(n.cacheWriteTokens, rows.cacheWriteTokens);
    copy(n.cacheReadTokens, rows.cacheReadTokens);
    copy(n.totalCents, rows.totalCents);
    copy(n.chargedCents, rows.chargedCents);
    copy(this.tokenFee, rows.cursorTokenFee);
    for (let k = 0; k < count; k++) {
      const bits = rows.flags[from + k]!;
      const i = at + k;
      this.flags[i] = chunkFlags(
        (bits & HAS_TOKENS) !== 0,
        (bits & TOTAL_CENTS_INVALID) !== 0,
        n.chargedCents[i]!,
        this.tokenFee[i]!,
        n.totalCents[i]!,
      );
    }
    this.model.setRange(at, rows.model, from, to);
    this.kind.setRange(at, rows.kind, from, to);
    this.owningUser.setRange(at, rows.owningUser, from, to);
    this.userEmail.setRange(at, rows.userEmail, from, to);
  }

  /** Keeps an event given field by field (as decodeChunk hands them over). */
  appendStored(event: StoredEvent): void {
    const i = this.next();
    const n = this.numbers;
    this.timestamp[i] = event.timestamp;
    this.model.set(i, event.model);
    this.kind.set(i, event.kind);
    this.owningUser.set(i, event.owningUser);
    this.userEmail.set(i, event.userEmail);
    n.inputTokens[i] = event.inputTokens;
    n.outputTokens[i] = event.outputTokens;
    n.cacheWriteTokens[i] = event.cacheWriteTokens;
    n.cacheReadTokens[i] = event.cacheReadTokens;
    n.totalCents[i] = event.totalCents;
    n.chargedCents[i] = event.chargedCents;
    this.tokenFee[i] = event.cursorTokenFee;
    this.flags[i] = chunkFlags(
      event.tokens,
      event.totalCentsInvalid,
      event.chargedCents,
      event.cursorTokenFee,
      event.totalCents,
    );
  }

  /**
   * The rows whose timestamp lies in `[start, end)` (or, with `outside`, the others), in time order, ties in
   * the order they came: already so, or the reverse (cursor.com sends the newest first, and events of the
   * same millisecond do occur), in linear time.
   */
  rowsInTimeOrder(start: number, end: number, outside = false): number[] {
    const t = this.timestamp;
    const rows: number[] = [];
    for (let i = 0; i < this.length; i++) {
      const at = t[i]!;
      if ((at >= start && at < end) !== outside) rows.push(i);
    }
    let ascending = true;
    let descending = true;
    for (let k = 1; k < rows.length && (ascending || descending); k++) {
      const step = t[rows[k]!]! - t[rows[k - 1]!]!;
      if (step < 0) ascending = false;
      if (step > 0) descending = false;
    }
    if (ascending) return rows;
    if (descending) return reversedKeepingTies(t, rows);
    return rows.sort((a, b) => t[a]! - t[b]! || a - b);
  }
}

/**
 * Rows newest first, reversed into time order; each run of equal timestamps is turned back, so ties keep the
 * order they came in (as the sort would).
 */
function reversedKeepingTies(t: Float64Array, rows: number[]): number[] {
  rows.reverse();
  for (let from = 0; from < rows.length; ) {
    let to = from + 1;
    while (to < rows.length && t[rows[to]!] === t[rows[from]!]) to++;
    for (let a = from, b = to - 1; a < b; a++, b--) {
      const row = rows[a]!;
      rows[a] = rows[b]!;
      rows[b] = row;
    }
    from = to;
  }
  return rows;
}

/**
 * The events a run keeps for the event store (docs/behaviour.md §28.2), held as the chunk format writes them:
 * the fields aggregation reads (and, for a team's store, the member's email and the token fee), numbers in typed arrays (an absent one as 0 with its flag clear), text as ids
 * into this set's own list of texts. No string or object per event: keeping a 150,000-event month costs the
 * garbage collector nothing, and writing it is a copy per column.
 */
import {
  type EventRows,
  HAS_TOKENS,
  type StoredEvent,
  TOTAL_CENTS_INVALID,
} from '../../api/schemas/event-rows.js';

/** The chunk format's flags byte. */
export const CHUNK_TOKENS = 1;
export const CHUNK_TOTAL_CENTS = 2;
export const CHUNK_TOTAL_CENTS_INVALID = 4;
export const CHUNK_CHARGED_CENTS = 8;
/** Version 2 only (docs/behaviour.md §30): the event carries a token fee. */
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

const zeroOrValue = (value: number) => (Number.isNaN(value) ? 0 : value);

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
}

export class KeptEvents {
  length = 0;
  timestamp: Float64Array;
  flags: Uint8Array;
  readonly numbers: Record<NumberColumn, Float64Array>;
  /** `cursorTokenFee`, where CHUNK_TOKEN_FEE is set (else 0). */
  tokenFee: Float64Array;
  /** The distinct texts, each id its index. */
  readonly texts: string[] = [];
  private readonly idOfText = new Map<string, number>();
  private readonly text: {
    model: TextColumn;
    kind: TextColumn;
    owningUser: TextColumn;
    /** Only Admin API events carry one, so only a team's store holds any (docs/behaviour.md §30). */
    userEmail: TextColumn;
  };

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
    this.text = {
      model: new TextColumn(size, intern),
      kind: new TextColumn(size, intern),
      owningUser: new TextColumn(size, intern),
      userEmail: new TextColumn(size, intern),
    };
  }

  get model(): Int32Array {
    return this.text.model.ids;
  }

  get kind(): Int32Array {
    return this.text.kind.ids;
  }

  get owningUser(): Int32Array {
    return this.text.owningUser.ids;
  }

  get userEmail(): Int32Array {
    return this.text.userEmail.ids;
  }

  /** Whether any of `rows` carries a member's email or a token fee (fields a chunk then has to keep). */
  hasMemberFields(rows: readonly number[]): boolean {
    const email = this.userEmail;
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

  /**
   * Makes room for `capacity` events at once (the count a server reported), so a 150,000-event month is
   * not copied through eight doublings.
   */
  reserve(capacity: number): void {
    if (capacity > this.flags.length) this.grow(capacity);
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
    for (const column of Object.values(this.text)) column.ids = grown(column.ids);
  }

  /** Keeps row `at` of `rows` (its timestamp must be set), column by column. */
  append(rows: EventRows, at: number): void {
    const i = this.next();
    const bits = rows.flags[at]!;
    this.timestamp[i] = rows.timestamp[at]!;
    this.text.model.set(i, rows.model[at]);
    this.text.kind.set(i, rows.kind[at]);
    this.text.owningUser.set(i, rows.owningUser[at]);
    this.text.userEmail.set(i, rows.userEmail[at]);
    this.flags[i] = this.setNumbers(
      i,
      rows.chargedCents[at]!,
      rows.cursorTokenFee[at]!,
      (bits & HAS_TOKENS) !== 0,
      rows.inputTokens[at]!,
      rows.outputTokens[at]!,
      rows.cacheWriteTokens[at]!,
      rows.cacheReadTokens[at]!,
      rows.totalCents[at]!,
      (bits & TOTAL_CENTS_INVALID) !== 0,
    );
  }

  /** Keeps an event given field by field (as decodeChunk hands them over). */
  appendStored(event: StoredEvent): void {
    const i = this.next();
    this.timestamp[i] = event.timestamp;
    this.text.model.set(i, event.model);
    this.text.kind.set(i, event.kind);
    this.text.owningUser.set(i, event.owningUser);
    this.text.userEmail.set(i, event.userEmail);
    this.flags[i] = this.setNumbers(
      i,
      event.chargedCents,
      event.cursorTokenFee,
      event.tokens,
      event.inputTokens,
      event.outputTokens,
      event.cacheWriteTokens,
      event.cacheReadTokens,
      event.totalCents,
      event.totalCentsInvalid,
    );
  }

  /** Row `i`'s numbers (absent ones NaN); returns its chunk flags. */
  private setNumbers(
    i: number,
    chargedCents: number,
    tokenFee: number,
    tokens: boolean,
    inputTokens: number,
    outputTokens: number,
    cacheWriteTokens: number,
    cacheReadTokens: number,
    totalCents: number,
    totalCentsInvalid: boolean,
  ): number {
    const n = this.numbers;
    let flags = Number.isNaN(chargedCents) ? 0 : CHUNK_CHARGED_CENTS;
    if (!Number.isNaN(tokenFee)) flags |= CHUNK_TOKEN_FEE;
    this.tokenFee[i] = zeroOrValue(tokenFee);
    n.chargedCents[i] = zeroOrValue(chargedCents);
    if (tokens) {
      flags |= CHUNK_TOKENS;
      if (!Number.isNaN(totalCents)) flags |= CHUNK_TOTAL_CENTS;
      if (totalCentsInvalid) flags |= CHUNK_TOTAL_CENTS_INVALID;
      n.inputTokens[i] = inputTokens;
      n.outputTokens[i] = outputTokens;
      n.cacheWriteTokens[i] = cacheWriteTokens;
      n.cacheReadTokens[i] = cacheReadTokens;
      n.totalCents[i] = zeroOrValue(totalCents);
    } else {
      n.inputTokens[i] =
        n.outputTokens[i] =
        n.cacheWriteTokens[i] =
        n.cacheReadTokens[i] =
        n.totalCents[i] =
          0;
    }
    return flags;
  }

  /**
   * The rows whose timestamp lies in `[start, end)` (or, with `outside`, the others), in time order: already
   * so, or the reverse (cursor.com sends the newest first), in linear time.
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
      if (step >= 0) descending = false;
    }
    if (ascending) return rows;
    if (descending) return rows.reverse();
    return rows.sort((a, b) => t[a]! - t[b]! || a - b);
  }
}

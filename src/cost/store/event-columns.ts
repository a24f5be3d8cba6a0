/**
 * Events held as columns: what the event store reads back and what a run keeps of fetched events until it
 * writes them (docs/behaviour.md §28.2). No object per event is kept alive, so holding a 150,000-event
 * month costs a few megabytes of typed arrays and no garbage-collector work.
 */
import type { DecodedTokenUsage } from '../../api/schemas/events.js';
import type { StoredEvent } from '../types.js';

export const HAS_TOKENS = 1;
export const HAS_TOTAL_CENTS = 2;
export const TOTAL_CENTS_INVALID = 4;
export const HAS_CHARGED_CENTS = 8;
export const HAS_TOKEN_FEE = 16;

/** The numeric columns, in the order the chunk format writes them. */
export const NUMBER_COLUMNS = [
  'inputTokens',
  'outputTokens',
  'cacheWriteTokens',
  'cacheReadTokens',
  'totalCents',
  'chargedCents',
] as const;
export type NumberColumn = (typeof NUMBER_COLUMNS)[number];

export class EventColumns {
  length = 0;
  timestamp = new Float64Array(64);
  flags = new Uint8Array(64);
  model: (string | undefined)[] = [];
  kind: (string | undefined)[] = [];
  owningUser: (string | undefined)[] = [];
  /** The member's email: only Admin API events carry one, so only a team's store holds any. */
  userEmail: (string | undefined)[] = [];
  /** `cursorTokenFee`, where HAS_TOKEN_FEE is set. */
  tokenFee = new Float64Array(64);
  readonly numbers: Record<NumberColumn, Float64Array> = {
    inputTokens: new Float64Array(64),
    outputTokens: new Float64Array(64),
    cacheWriteTokens: new Float64Array(64),
    cacheReadTokens: new Float64Array(64),
    totalCents: new Float64Array(64),
    chargedCents: new Float64Array(64),
  };

  private grow(): void {
    const size = this.timestamp.length * 2;
    const grown = <T extends Float64Array | Uint8Array>(from: T): T => {
      const to = new (from.constructor as new (n: number) => T)(size);
      to.set(from);
      return to;
    };
    this.timestamp = grown(this.timestamp);
    this.flags = grown(this.flags);
    this.tokenFee = grown(this.tokenFee);
    for (const column of NUMBER_COLUMNS) this.numbers[column] = grown(this.numbers[column]);
  }

  /** Appends an event; its timestamp must be set (nothing else can be stored). */
  push(event: StoredEvent): void {
    if (this.length === this.timestamp.length) this.grow();
    const i = this.length++;
    this.timestamp[i] = event.timestamp!;
    this.model.push(event.model);
    this.kind.push(event.kind);
    this.owningUser.push(event.owningUser);
    this.userEmail.push(event.userEmail);
    const usage = event.tokenUsage;
    const n = this.numbers;
    let bits = 0;
    if (usage) {
      bits |= HAS_TOKENS;
      n.inputTokens[i] = usage.inputTokens;
      n.outputTokens[i] = usage.outputTokens;
      n.cacheWriteTokens[i] = usage.cacheWriteTokens;
      n.cacheReadTokens[i] = usage.cacheReadTokens;
      if (usage.totalCents !== undefined) {
        bits |= HAS_TOTAL_CENTS;
        n.totalCents[i] = usage.totalCents;
      } else {
        n.totalCents[i] = 0;
      }
      if (usage.totalCentsInvalid) bits |= TOTAL_CENTS_INVALID;
    } else {
      n.inputTokens[i] =
        n.outputTokens[i] =
        n.cacheWriteTokens[i] =
        n.cacheReadTokens[i] =
        n.totalCents[i] =
          0;
    }
    if (event.chargedCents !== undefined) {
      bits |= HAS_CHARGED_CENTS;
      n.chargedCents[i] = event.chargedCents;
    } else {
      n.chargedCents[i] = 0;
    }
    if (event.cursorTokenFee !== undefined) {
      bits |= HAS_TOKEN_FEE;
      this.tokenFee[i] = event.cursorTokenFee;
    } else {
      this.tokenFee[i] = 0;
    }
    this.flags[i] = bits;
  }

  /** Whether any of `rows` carries a member's email or a token fee (fields a chunk then has to keep). */
  hasMemberFields(rows: readonly number[]): boolean {
    for (const row of rows) {
      if (this.userEmail[row] !== undefined || (this.flags[row]! & HAS_TOKEN_FEE) !== 0) return true;
    }
    return false;
  }

  /**
   * Appends a decoded row: `numbers` are the six columns of NUMBER_COLUMNS and, when the chunk has one, the
   * token fee column, read at `at`.
   */
  append(
    timestamp: number,
    model: string | undefined,
    kind: string | undefined,
    owningUser: string | undefined,
    userEmail: string | undefined,
    flags: number,
    numbers: readonly (Float64Array | Int32Array)[],
    at: number,
  ): void {
    if (this.length === this.timestamp.length) this.grow();
    const i = this.length++;
    this.timestamp[i] = timestamp;
    this.model.push(model);
    this.kind.push(kind);
    this.owningUser.push(owningUser);
    this.userEmail.push(userEmail);
    this.flags[i] = flags;
    this.tokenFee[i] = numbers[6]?.[at] ?? 0;
    const n = this.numbers;
    n.inputTokens[i] = numbers[0]![at]!;
    n.outputTokens[i] = numbers[1]![at]!;
    n.cacheWriteTokens[i] = numbers[2]![at]!;
    n.cacheReadTokens[i] = numbers[3]![at]!;
    n.totalCents[i] = numbers[4]![at]!;
    n.chargedCents[i] = numbers[5]![at]!;
  }

  /** The rows whose timestamp lies in `[start, end)`, or outside it with `outside`. */
  rowsWhere(start: number, end: number, outside = false): number[] {
    const rows: number[] = [];
    for (let i = 0; i < this.length; i++) {
      const t = this.timestamp[i]!;
      if ((t >= start && t < end) !== outside) rows.push(i);
    }
    return rows;
  }

  /** Event `i`, exactly as it was pushed (the email and the fee only when it had them). */
  get(i: number): StoredEvent {
    const bits = this.flags[i]!;
    const n = this.numbers;
    let tokenUsage: DecodedTokenUsage | undefined;
    if (bits & HAS_TOKENS) {
      tokenUsage = {
        inputTokens: n.inputTokens[i]!,
        outputTokens: n.outputTokens[i]!,
        cacheWriteTokens: n.cacheWriteTokens[i]!,
        cacheReadTokens: n.cacheReadTokens[i]!,
        totalCents: bits & HAS_TOTAL_CENTS ? n.totalCents[i]! : undefined,
        totalCentsInvalid: (bits & TOTAL_CENTS_INVALID) !== 0,
      };
    }
    const event: StoredEvent = {
      timestamp: this.timestamp[i]!,
      model: this.model[i],
      kind: this.kind[i],
      chargedCents: bits & HAS_CHARGED_CENTS ? n.chargedCents[i]! : undefined,
      tokenUsage,
      owningUser: this.owningUser[i],
    };
    const email = this.userEmail[i];
    if (email !== undefined) event.userEmail = email;
    if (bits & HAS_TOKEN_FEE) event.cursorTokenFee = this.tokenFee[i]!;
    return event;
  }
}

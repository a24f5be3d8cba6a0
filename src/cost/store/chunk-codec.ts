/**
 * The event store's compact form of events (docs/behaviour.md §28.2): a chunk of events becomes one blob of
 * columns, so 150,000 events are about 75 rows of SQLite instead of 150,000 (a row per event cost more CPU
 * to write and read back than decoding the JSON did). Every field aggregation reads is kept exactly: numbers
 * as the doubles they were, absent values as absent, text as label ids.
 *
 * Layout (version 1), in the machine's byte order (the store never leaves the machine; the format name in the
 * database says which order, docs/behaviour.md §28.2), every section 8-byte aligned: u32 version, u32 count,
 * f64 timestamp base; timestamp − base; model, kind and owningUser label ids (i32, −1 absent); flags (u8);
 * the four token counts, totalCents, chargedCents. A numeric section is a u32 tag (1: i32, 2: f64), 4 bytes
 * of padding and its values.
 *
 * Version 2 adds what Admin API events carry (a team's store, docs/behaviour.md §30): the userEmail label
 * ids after the owningUser ids, and the cursorTokenFee values last (flag HAS_TOKEN_FEE). A chunk is written
 * as version 1 when none of its events has either, so a personal store's chunks stay version 1.
 */
import {
  type EventColumns,
  HAS_CHARGED_CENTS,
  HAS_TOKEN_FEE,
  HAS_TOKENS,
  HAS_TOTAL_CENTS,
  NUMBER_COLUMNS,
  TOTAL_CENTS_INVALID,
} from './event-columns.js';

const VERSION = 1;
/** Version 1 plus the member's email and the token fee. */
const MEMBER_VERSION = 2;
const I32 = 1;
const F64 = 2;
const ABSENT = -1;
const V1_FLAGS = HAS_TOKENS | HAS_TOTAL_CENTS | TOTAL_CENTS_INVALID | HAS_CHARGED_CENTS;
const V2_FLAGS = V1_FLAGS | HAS_TOKEN_FEE;

/** Label ids for text (model, kind, owner, member), kept in the store's labels table. */
export interface Labels {
  idOf(text: string): number;
  textOf(id: number): string;
}

export class ChunkFormatError extends Error {}

const aligned = (size: number) => Math.ceil(size / 8) * 8;

function fitsI32(value: number): boolean {
  return (value | 0) === value && !Object.is(value, -0);
}

type Section = Int32Array | Float64Array | Uint8Array | Uint32Array;

/** A numeric column as its smallest exact section: a tag, then i32 or f64 values. */
function numberSections(values: Float64Array): Section[] {
  let small = true;
  for (let i = 0; i < values.length && small; i++) small = fitsI32(values[i]!);
  if (!small) return [Uint32Array.of(F64, 0), values];
  const narrow = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) narrow[i] = values[i]!;
  return [Uint32Array.of(I32, 0), narrow];
}

/** Encodes rows `rows` of `columns`, whose timestamps are all set. */
export function encodeChunk(columns: EventColumns, rows: readonly number[], labels: Labels): Buffer {
  const count = rows.length;
  const members = columns.hasMemberFields(rows);
  let base = count === 0 ? 0 : Number.POSITIVE_INFINITY;
  for (let k = 0; k < count; k++) base = Math.min(base, columns.timestamp[rows[k]!]!);
  const stamps = new Float64Array(count);
  const flags = new Uint8Array(count);
  const ids = (text: (string | undefined)[]) => {
    const out = new Int32Array(count);
    rows.forEach((row, k) => {
      const value = text[row];
      out[k] = value === undefined ? ABSENT : labels.idOf(value);
    });
    return out;
  };
  rows.forEach((row, k) => {
    const stamp = columns.timestamp[row]!;
    stamps[k] = stamp - base;
    // Only exact integers survive the round trip; the store only keeps timestamps of settled ranges.
    if (base + stamps[k]! !== stamp)
      throw new ChunkFormatError('a timestamp this large cannot be stored exactly');
    flags[k] = columns.flags[row]!;
  });
  const sections: Section[] = [
    Uint32Array.of(members ? MEMBER_VERSION : VERSION, count),
    Float64Array.of(base),
    ...numberSections(stamps),
    ids(columns.model),
    ids(columns.kind),
    ids(columns.owningUser),
    ...(members ? [ids(columns.userEmail)] : []),
    flags,
  ];
  const numbers = NUMBER_COLUMNS.map((name) => columns.numbers[name]);
  if (members) numbers.push(columns.tokenFee);
  for (const source of numbers) {
    const values = new Float64Array(count);
    for (let k = 0; k < count; k++) values[k] = source[rows[k]!]!;
    sections.push(...numberSections(values));
  }
  const out = Buffer.alloc(sections.reduce((size, section) => size + aligned(section.byteLength), 0));
  let at = 0;
  for (const section of sections) {
    out.set(new Uint8Array(section.buffer, section.byteOffset, section.byteLength), at);
    at += aligned(section.byteLength);
  }
  return out;
}

class Reader {
  private at = 0;
  private readonly buffer: ArrayBuffer;

  constructor(blob: Uint8Array) {
    // Typed-array views need an aligned start: copy the blob into a fresh buffer of its own.
    this.buffer = new Uint8Array(blob).buffer;
  }

  private view<T>(
    make: (buffer: ArrayBuffer, offset: number, length: number) => T,
    count: number,
    size: number,
  ): T {
    const bytes = count * size;
    if (this.at + bytes > this.buffer.byteLength) throw new ChunkFormatError('chunk is truncated');
    const view = make(this.buffer, this.at, count);
    this.at += aligned(bytes);
    return view;
  }

  u32(count: number): Uint32Array {
    return this.view((b, o, n) => new Uint32Array(b, o, n), count, 4);
  }

  i32(count: number): Int32Array {
    return this.view((b, o, n) => new Int32Array(b, o, n), count, 4);
  }

  f64(count: number): Float64Array {
    return this.view((b, o, n) => new Float64Array(b, o, n), count, 8);
  }

  u8(count: number): Uint8Array {
    return this.view((b, o, n) => new Uint8Array(b, o, n), count, 1);
  }

  numbers(count: number): Int32Array | Float64Array {
    const [tag] = this.u32(2);
    if (tag === I32) return this.i32(count);
    if (tag === F64) return this.f64(count);
    throw new ChunkFormatError(`unknown column tag ${tag}`);
  }

  end(): void {
    if (this.at !== this.buffer.byteLength) throw new ChunkFormatError('chunk has trailing bytes');
  }
}

/**
 * Appends the events of a chunk with a timestamp in `[start, end)` to `into`, exactly as they were encoded;
 * returns how many events the chunk holds. Throws ChunkFormatError on a damaged blob.
 */
export function decodeChunk(
  blob: Uint8Array,
  labels: Labels,
  into: EventColumns,
  start = Number.NEGATIVE_INFINITY,
  end = Number.POSITIVE_INFINITY,
): number {
  const read = new Reader(blob);
  const [version, count] = read.u32(2) as unknown as [number, number];
  if (version !== VERSION && version !== MEMBER_VERSION) {
    throw new ChunkFormatError(`unknown chunk version ${version}`);
  }
  const members = version === MEMBER_VERSION;
  const allFlags = members ? V2_FLAGS : V1_FLAGS;
  const [base] = read.f64(1) as unknown as [number];
  const stamps = read.numbers(count);
  const model = read.i32(count);
  const kind = read.i32(count);
  const owner = read.i32(count);
  const email = members ? read.i32(count) : undefined;
  const flags = read.u8(count);
  const numbers = NUMBER_COLUMNS.map(() => read.numbers(count));
  if (members) numbers.push(read.numbers(count));
  read.end();
  const texts = new Map<number, string | undefined>([[ABSENT, undefined]]);
  const text = (id: number) => {
    if (!texts.has(id)) texts.set(id, labels.textOf(id));
    return texts.get(id);
  };
  for (let i = 0; i < count; i++) {
    const timestamp = base + stamps[i]!;
    if ((flags[i]! & ~allFlags) !== 0) throw new ChunkFormatError(`unknown flags ${flags[i]}`);
    if (timestamp < start || timestamp >= end) continue;
    const member = email === undefined ? undefined : text(email[i]!);
    into.append(timestamp, text(model[i]!), text(kind[i]!), text(owner[i]!), member, flags[i]!, numbers, i);
  }
  return count;
}

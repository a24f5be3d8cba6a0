/**
 * The event store's compact form of events: a chunk of events becomes one blob of
 * columns, so 150,000 events are about 75 rows of SQLite instead of 150,000 (a row per event cost more CPU
 * to write and read back than decoding the JSON did). Every field aggregation reads is kept exactly: numbers
 * as the doubles they were, absent values as absent, text as label ids.
 *
 * Layout (version 1), in the machine's byte order (the store never leaves the machine; the format name in the
 * database says which order), every section 8-byte aligned: u32 version, u32 count,
 * f64 timestamp base; timestamp − base; model, kind and owningUser label ids (i32, −1 absent); flags (u8);
 * the four token counts, totalCents, chargedCents. A numeric section is a u32 tag (1: i32, 2: f64), 4 bytes
 * of padding and its values.
 *
 * Version 2 adds what Admin API events carry (a team's store): the userEmail label
 * ids after the owningUser ids, and the cursorTokenFee values last (flag CHUNK_TOKEN_FEE). A chunk is written
 * as version 1 when none of its events has either, so a personal store's chunks stay version 1.
 */
import { type StoredEvent, storedEventScratch } from '../events/rows.js';
import {
  CHUNK_CHARGED_CENTS,
  CHUNK_TOKEN_FEE,
  CHUNK_TOKENS,
  CHUNK_TOTAL_CENTS,
  CHUNK_TOTAL_CENTS_INVALID,
  type KeptEvents,
  NO_TEXT,
  NUMBER_COLUMNS,
} from './kept-events.js';

const VERSION = 1;
/** Version 1 plus the member's email and the token fee. */
const MEMBER_VERSION = 2;
const I32 = 1;
const F64 = 2;
const ABSENT = -1;
const V1_FLAGS = CHUNK_TOKENS | CHUNK_TOTAL_CENTS | CHUNK_TOTAL_CENTS_INVALID | CHUNK_CHARGED_CENTS;
const V2_FLAGS = V1_FLAGS | CHUNK_TOKEN_FEE;

/** Label ids for text (model, kind, owner, member), kept in the store's labels table. */
export interface Labels {
  idOf(text: string): number;
  textOf(id: number): string;
}

export class ChunkFormatError extends Error {}

const aligned = (size: number) => Math.ceil(size / 8) * 8;

function fitsI32(value: number): boolean {
  // Compared, not truncated with `| 0`: V8 would first assume whole numbers and then throw that code away.
  return (
    Number.isInteger(value) && value >= -2_147_483_648 && value <= 2_147_483_647 && !Object.is(value, -0)
  );
}

/** `values[rows[k]]` for k < `count`, or `values[k]` without rows; an absent value (NaN) is written as 0. */
function valueAt(values: Float64Array, rows: readonly number[] | undefined, k: number): number {
  const value = values[rows === undefined ? k : rows[k]!]!;
  return Number.isNaN(value) ? 0 : value;
}

/** A numeric column fits an i32 section: every value a 32-bit integer (and no −0). */
function fitsI32Section(values: Float64Array, rows: readonly number[] | undefined, count: number): boolean {
  for (let k = 0; k < count; k++) if (!fitsI32(valueAt(values, rows, k))) return false;
  return true;
}

/** The bytes of a numeric section: its tag and padding, then i32 or f64 values. */
const numberSectionSize = (count: number, small: boolean) => 8 + aligned(count * (small ? 4 : 8));

/** The typed arrays a chunk's sections are read and written as. */
interface SectionType<T> {
  new (buffer: ArrayBuffer, offset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/** Writes one chunk's sections into a single buffer, each starting 8-byte aligned. */
class ChunkWriter {
  readonly out: Buffer;
  private at = 0;

  constructor(size: number) {
    // Its own zeroed ArrayBuffer (Buffer.alloc never uses the shared pool), so views are aligned.
    this.out = Buffer.alloc(size);
  }

  /** The next section, `count` values of `Type`, to fill in. */
  section<T>(Type: SectionType<T>, count: number): T {
    const view = new Type(this.out.buffer as ArrayBuffer, this.out.byteOffset + this.at, count);
    this.at += aligned(count * Type.BYTES_PER_ELEMENT);
    return view;
  }

  numbers(values: Float64Array, rows: readonly number[] | undefined, count: number, small: boolean): void {
    this.section(Uint32Array, 2).set([small ? I32 : F64, 0]);
    const out = small ? this.section(Int32Array, count) : this.section(Float64Array, count);
    for (let k = 0; k < count; k++) out[k] = valueAt(values, rows, k);
  }
}

/**
 * The store id of each of a KeptEvents' own text ids, looked up in the labels once per text: indexed by the
 * text id (an array, not a Map: it is read for every event of every text column).
 */
export type StoreIds = (number | undefined)[];

/**
 * The store's label ids of a text column at `rows` into `out`, −1 for none (labels are added in the order
 * they are first met, row by row, column by column).
 */
function writeLabelIds(
  out: Int32Array,
  ids: Int32Array,
  rows: readonly number[],
  events: KeptEvents,
  storeIds: StoreIds,
  labels: Labels,
): void {
  for (let k = 0; k < rows.length; k++) {
    const id = ids[rows[k]!]!;
    if (id === NO_TEXT) {
      out[k] = ABSENT;
      continue;
    }
    let stored = storeIds[id];
    if (stored === undefined) {
      stored = labels.idOf(events.texts[id]!);
      storeIds[id] = stored;
    }
    out[k] = stored;
  }
}

/**
 * Encodes rows `rows` of `events`, in that order. `storeIds` is shared by the chunks of one write, so each
 * text is looked up in the labels once.
 */
export function encodeChunk(
  events: KeptEvents,
  rows: readonly number[],
  labels: Labels,
  storeIds: StoreIds = [],
): Buffer {
  // The loops live in small helpers: encodeChunk runs once per chunk, and V8 would compile each loop of a
  // larger body separately (on-stack replacement), several times over.
  const count = rows.length;
  const members = events.hasMemberFields(rows);
  const base = earliest(events.timestamp, rows);
  const stamps = offsets(events.timestamp, rows, base);
  const smallStamps = fitsI32Section(stamps, undefined, count);
  const columns = NUMBER_COLUMNS.map((name) => events.numbers[name]);
  if (members) columns.push(events.tokenFee);
  const texts = [events.model.ids, events.kind.ids, events.owningUser.ids];
  if (members) texts.push(events.userEmail.ids);
  const small = columns.map((values) => fitsI32Section(values, rows, count));
  const size =
    16 +
    numberSectionSize(count, smallStamps) +
    texts.length * aligned(count * 4) +
    aligned(count) +
    small.reduce((sum, fits) => sum + numberSectionSize(count, fits), 0);
  const writer = new ChunkWriter(size);
  writer.section(Uint32Array, 2).set([members ? MEMBER_VERSION : VERSION, count]);
  writer.section(Float64Array, 1)[0] = base;
  writer.numbers(stamps, undefined, count, smallStamps);
  for (const ids of texts)
    writeLabelIds(writer.section(Int32Array, count), ids, rows, events, storeIds, labels);
  copyFlags(writer.section(Uint8Array, count), events.flags, rows);
  for (let i = 0; i < columns.length; i++) writer.numbers(columns[i]!, rows, count, small[i]!);
  return writer.out;
}

/** The earliest timestamp at `rows` (0 for none): the chunk's base. */
function earliest(timestamps: Float64Array, rows: readonly number[]): number {
  let base = rows.length === 0 ? 0 : Number.POSITIVE_INFINITY;
  for (let k = 0; k < rows.length; k++) {
    const stamp = timestamps[rows[k]!]!;
    if (stamp < base) base = stamp;
  }
  return base;
}

/** Timestamps at `rows` as offsets from `base`; only exact integers survive the round trip. */
function offsets(timestamps: Float64Array, rows: readonly number[], base: number): Float64Array {
  const out = new Float64Array(rows.length);
  for (let k = 0; k < rows.length; k++) {
    const stamp = timestamps[rows[k]!]!;
    out[k] = stamp - base;
    // The store only keeps timestamps of settled ranges: whole milliseconds.
    if (base + out[k]! !== stamp)
      throw new ChunkFormatError('a timestamp this large cannot be stored exactly');
  }
  return out;
}

function copyFlags(out: Uint8Array, flags: Uint8Array, rows: readonly number[]): void {
  for (let k = 0; k < rows.length; k++) out[k] = flags[rows[k]!]!;
}

type Numbers = Int32Array | Float64Array;

/** Where decoded events go: rows to aggregate (EventRows), or events to write back (KeptEvents). */
interface StoredEventSink {
  appendStored(event: StoredEvent): void;
}

class Reader {
  private at = 0;
  private readonly buffer: ArrayBuffer;

  constructor(blob: Uint8Array) {
    // Typed-array views need an aligned start: copy the blob into a fresh buffer of its own.
    this.buffer = new Uint8Array(blob).buffer;
  }

  /** The next section, `count` values of `Type`; a chunk too short for it is damaged. */
  section<T>(Type: SectionType<T>, count: number): T {
    const bytes = count * Type.BYTES_PER_ELEMENT;
    if (this.at + bytes > this.buffer.byteLength) throw new ChunkFormatError('chunk is truncated');
    const view = new Type(this.buffer, this.at, count);
    this.at += aligned(bytes);
    return view;
  }

  numbers(count: number): Numbers {
    const [tag] = this.section(Uint32Array, 2);
    if (tag === I32) return this.section(Int32Array, count);
    if (tag === F64) return this.section(Float64Array, count);
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
  into: StoredEventSink,
  start = Number.NEGATIVE_INFINITY,
  end = Number.POSITIVE_INFINITY,
): number {
  const read = new Reader(blob);
  const [version, count] = read.section(Uint32Array, 2) as unknown as [number, number];
  if (version !== VERSION && version !== MEMBER_VERSION) {
    throw new ChunkFormatError(`unknown chunk version ${version}`);
  }
  const members = version === MEMBER_VERSION;
  const allFlags = members ? V2_FLAGS : V1_FLAGS;
  const [base] = read.section(Float64Array, 1) as unknown as [number];
  const stamps = read.numbers(count);
  const model = read.section(Int32Array, count);
  const kind = read.section(Int32Array, count);
  const owner = read.section(Int32Array, count);
  const email = members ? read.section(Int32Array, count) : undefined;
  const flags = read.section(Uint8Array, count);
  const [input, output, cacheWrite, cacheRead, totalCents, chargedCents] = NUMBER_COLUMNS.map(() =>
    read.numbers(count),
  ) as [Numbers, Numbers, Numbers, Numbers, Numbers, Numbers];
  const tokenFee = members ? read.numbers(count) : undefined;
  read.end();
  const texts = new Map<number, string | undefined>([[ABSENT, undefined]]);
  const text = (id: number) => {
    let known = texts.get(id);
    if (known === undefined && !texts.has(id)) {
      known = labels.textOf(id);
      texts.set(id, known);
    }
    return known;
  };
  // One event object for every row: the sink copies its fields.
  const event = storedEventScratch();
  for (let i = 0; i < count; i++) {
    const timestamp = base + stamps[i]!;
    const bits = flags[i]!;
    if ((bits & ~allFlags) !== 0) throw new ChunkFormatError(`unknown flags ${bits}`);
    if (timestamp < start || timestamp >= end) continue;
    event.timestamp = timestamp;
    event.model = text(model[i]!);
    event.kind = text(kind[i]!);
    event.owningUser = text(owner[i]!);
    event.userEmail = email === undefined ? undefined : text(email[i]!);
    event.cursorTokenFee = tokenFee !== undefined && bits & CHUNK_TOKEN_FEE ? tokenFee[i]! : Number.NaN;
    event.chargedCents = bits & CHUNK_CHARGED_CENTS ? chargedCents[i]! : Number.NaN;
    event.tokens = (bits & CHUNK_TOKENS) !== 0;
    event.inputTokens = input[i]!;
    event.outputTokens = output[i]!;
    event.cacheWriteTokens = cacheWrite[i]!;
    event.cacheReadTokens = cacheRead[i]!;
    event.totalCents = bits & CHUNK_TOTAL_CENTS ? totalCents[i]! : Number.NaN;
    event.totalCentsInvalid = (bits & CHUNK_TOTAL_CENTS_INVALID) !== 0;
    into.appendStored(event);
  }
  return count;
}

/**
 * The first decoder of `get-filtered-usage-events` pages: a WebAssembly tokenizer (wasm/events-page.ts,
 * built into ./generated/) that fills the rows' columns in its own memory, copied out here
 * (docs/behaviour.md §28.6).
 *
 * Why: the JavaScript byte decoder (./events-bytes.ts) spends ~0.5 s of a cold 150-page run, most of it while
 * V8 optimises it again in every new process; the module compiles in about a millisecond and scans the same
 * bytes several times faster (docs/architecture.md, "Cost CPU").
 *
 * How it stays exact: the module applies a field rule of the schema (./events.ts) only where the value is
 * plain (see wasm/events-page.ts); every other value is handed back and goes through that rule here, on what
 * JSON.parse gives for its bytes. It gives up (undefined) on what it does not handle, and the caller then tries
 * the JavaScript byte decoder and the schema path in turn. test/unit/events-bytes.test.ts compares it with the
 * schema path on the same edge cases and fuzzed pages as the byte decoder.
 */
import v8 from 'node:v8';
import {
  CHARGED_CENTS,
  CURSOR_TOKEN_FEE,
  EVENT_FIELDS,
  REQUESTS_COSTS,
  TIMESTAMP,
  TOKEN_FIELDS,
  TOTAL_CENTS,
} from './event-keys.js';
import { EventRows, type EventRowsPage, NUMBER_COLUMNS, orNaN } from './event-rows.js';
import {
  decodeEventCount,
  decodeModel,
  type Issues,
  lenientInteger,
  lenientNumber,
  optionalId,
  optionalString,
  tokenCount,
  totalCentsInvalid,
  totalCentsOf,
} from './events.js';
import { EVENTS_PAGE_WASM } from './generated/events-page-wasm.js';
import { sharedText } from './json-bytes.js';

/** The part of the WebAssembly API used here (TypeScript's lib for Node declares none of it). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}

interface DecoderExports {
  memory: { buffer: ArrayBuffer };
  layout(length: number): number;
  decode(length: number): number;
  capacity(): number;
  count(): number;
  countStartAt(): number;
  countEndAt(): number;
  numbersAt(): number;
  flagsAt(): number;
  fixupMasksAt(): number;
  textsAt(): number;
  textStartAt(): number;
  textEndAt(): number;
  textFieldAt(): number;
  textTotal(): number;
  fixupsAt(): number;
  fixupTotal(): number;
}

/** Text columns in the module's order; a text's field is this index, plus NOT_PLAIN when JSON.parse reads it. */
const TEXT_COLUMNS = ['model', 'kind', 'usageBasedCosts', 'owningUser', 'owningTeam'] as const;
const NOT_PLAIN = 8;
/**
 * A fix-up names its field by code (wasm/events-page.ts): an event field's index in EVENT_FIELDS, or a token
 * field's index in TOKEN_FIELDS plus TOKEN_FIELD. Its bit in the row's mask: the event field's index, or the
 * token field's after all of EVENT_FIELDS.
 */
const TOKEN_FIELD = 100;
const fixupBit = (code: number) => (code >= TOKEN_FIELD ? code - TOKEN_FIELD + EVENT_FIELDS.length : code);

/** undefined until first used; null when the module could not be compiled or instantiated here. */
let decoder: DecoderExports | null | undefined;

function instantiate(): DecoderExports | null {
  const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  if (api === undefined) return null;
  // bin/codexbar.js keeps WebAssembly on V8's baseline tier, for undici's HTTP parser (see there). This
  // module runs for most of a cold `cost` and needs the optimising tier, which a module gets, function by
  // function, as it runs hot, when it is compiled and instantiated with tier-up on: on for it, then back.
  v8.setFlagsFromString('--no-liftoff-only');
  v8.setFlagsFromString('--wasm-tier-up');
  v8.setFlagsFromString('--wasm-dynamic-tiering');
  v8.setFlagsFromString('--wasm-tiering-budget=1800000');
  try {
    const module = new api.Module(Buffer.from(EVENTS_PAGE_WASM, 'base64'));
    return new api.Instance(module, {
      env: {
        abort() {
          throw new Error('events-page decoder aborted');
        },
      },
    }).exports as unknown as DecoderExports;
  } finally {
    v8.setFlagsFromString('--liftoff-only');
    v8.setFlagsFromString('--wasm-tiering-budget=1000000000');
  }
}

function exportsOrNull(): DecoderExports | null {
  if (decoder === undefined) {
    try {
      decoder = instantiate();
    } catch {
      decoder = null;
    }
  }
  return decoder;
}

/** The page, its events as rows, or undefined when another decoder must decode it. */
export function decodeEventsPageWasm(bytes: Uint8Array): EventRowsPage | undefined {
  const wasm = exportsOrNull();
  if (wasm === null) return undefined;
  let length: number;
  try {
    const at = wasm.layout(bytes.length);
    new Uint8Array(wasm.memory.buffer, at, bytes.length).set(bytes);
    length = wasm.decode(bytes.length);
  } catch {
    // A trap (the module's memory could not grow for this page): the next decoder takes the page.
    return undefined;
  }
  if (length < 0) return undefined;
  const memory = Buffer.from(wasm.memory.buffer);
  const capacity = wasm.capacity();
  const rows = new EventRows(length);
  NUMBER_COLUMNS.forEach((name, c) => {
    rows[name].set(new Float64Array(memory.buffer, wasm.numbersAt() + c * capacity * 8, length));
  });
  rows.flags.set(memory.subarray(wasm.flagsAt(), wasm.flagsAt() + length));
  rows.length = length;
  if (!fillTexts(wasm, memory, rows)) return undefined;
  applyFixups(wasm, memory, rows);
  const count = eventCount(wasm, memory);
  if (count === GIVE_UP) return undefined;
  return { totalUsageEventsCount: count, usageEventsDisplay: rows };
}

const GIVE_UP = Symbol('give up');

/** totalUsageEventsCount: the module's, or by decodeEventCount from JSON.parse's value. */
function eventCount(wasm: DecoderExports, memory: Buffer): number | undefined | typeof GIVE_UP {
  const start = wasm.countStartAt();
  if (start === 0) {
    const count = wasm.count();
    return Number.isNaN(count) ? undefined : count;
  }
  const issues: Issues = [];
  const count = decodeEventCount(parsed(memory, start, wasm.countEndAt()), issues);
  return issues.length > 0 ? GIVE_UP : count;
}

/** Each distinct text of the page through its field's rule once, then every row's texts by id. */
function fillTexts(wasm: DecoderExports, memory: Buffer, rows: EventRows): boolean {
  const total = wasm.textTotal();
  const starts = new Int32Array(memory.buffer, wasm.textStartAt(), total);
  const ends = new Int32Array(memory.buffer, wasm.textEndAt(), total);
  const fields = new Int32Array(memory.buffer, wasm.textFieldAt(), total);
  const values: (string | undefined)[] = new Array(total);
  const issues: Issues = [];
  for (let id = 0; id < total; id++) {
    const field = fields[id]!;
    const raw =
      field & NOT_PLAIN
        ? parsed(memory, starts[id]!, ends[id]!)
        : sharedText(memory, starts[id]! + 1, ends[id]! - 1);
    values[id] = textRule(field & ~NOT_PLAIN, raw, issues);
  }
  if (issues.length > 0) return false;
  const length = rows.length;
  const capacity = wasm.capacity();
  const ids = new Int32Array(memory.buffer, wasm.textsAt(), TEXT_COLUMNS.length * capacity);
  TEXT_COLUMNS.forEach((name, t) => {
    const column = rows[name];
    const base = t * capacity;
    for (let i = 0; i < length; i++) {
      const id = ids[base + i]!;
      column.push(id < 0 ? undefined : values[id]);
    }
  });
  for (let i = 0; i < length; i++) rows.userEmail.push(undefined);
  return true;
}

/** A text field's value by decodeUsageEvent's rule for it. */
function textRule(column: number, raw: unknown, issues: Issues): string | undefined {
  switch (TEXT_COLUMNS[column]) {
    case 'model':
      return decodeModel(raw, issues);
    case 'kind':
      return optionalString(raw, 'kind', issues);
    case 'usageBasedCosts':
      return optionalString(raw, 'usageBasedCosts', issues);
    case 'owningUser':
      return optionalId(raw, 'owningUser', issues);
    default:
      return optionalId(raw, 'owningTeam', issues);
  }
}

/** The values the module handed back, in page order, each through its field's rule (the last one wins). */
function applyFixups(wasm: DecoderExports, memory: Buffer, rows: EventRows): void {
  const total = wasm.fixupTotal();
  if (total === 0) return;
  const entries = new Int32Array(memory.buffer, wasm.fixupsAt(), total * 4);
  const masks = new Uint32Array(memory.buffer, wasm.fixupMasksAt(), rows.length);
  for (let f = 0; f < total; f++) {
    const row = entries[f * 4]!;
    const code = entries[f * 4 + 1]!;
    // A later plain value or tokenUsage replaced this one.
    if (!((masks[row]! >>> fixupBit(code)) & 1)) continue;
    const raw = parsed(memory, entries[f * 4 + 2]!, entries[f * 4 + 3]!);
    switch (code) {
      case TIMESTAMP:
        rows.timestamp[row] = orNaN(lenientInteger(raw));
        break;
      case REQUESTS_COSTS:
        rows.requestsCosts[row] = orNaN(lenientNumber(raw));
        break;
      case CURSOR_TOKEN_FEE:
        rows.cursorTokenFee[row] = orNaN(lenientNumber(raw));
        break;
      case CHARGED_CENTS:
        rows.chargedCents[row] = orNaN(lenientNumber(raw));
        break;
      case TOKEN_FIELD + TOTAL_CENTS:
        rows.setTotalCents(row, orNaN(totalCentsOf(raw)), totalCentsInvalid(raw));
        break;
      default:
        // One of the four token counts (totalCents is the case above).
        rows[TOKEN_FIELDS[code - TOKEN_FIELD]!][row] = tokenCount(raw);
    }
  }
}

/** What JSON.parse gives for the JSON value at [start, end) of the module's memory. */
function parsed(memory: Buffer, start: number, end: number): unknown {
  return JSON.parse(memory.toString('utf8', start, end));
}

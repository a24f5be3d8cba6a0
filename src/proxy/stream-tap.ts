import { createParser, type EventSourceParser } from 'eventsource-parser';
import { UsageReader } from './usage.js';

/**
 * The tee over an upstream answer's bytes: the client gets them as they come, and a copy feeds the usage
 * reader. When the proxy added `stream_options.include_usage` to the request, the client must see what it
 * would have seen without it, so the tap strips what the option added: the final `choices: []` chunk with
 * the usage (read first) and the `usage` member of every other chunk. Everything else passes byte for byte.
 */

export interface StreamTap {
  /** One chunk of the upstream body; returns the bytes to send downstream now (the same Buffer when not stripping). */
  push(chunk: Buffer): Buffer;
  /** The upstream body ended: any bytes still held (stripping mode), unchanged. */
  end(): Buffer;
  readonly reader: UsageReader;
}

/**
 * The most one event may hold, in bytes while stripping and in characters in the parser: an upstream that
 * never ends an event cannot grow the proxy's memory without bound. An event larger than this is passed on
 * (or read) no further; no usage frame comes near it.
 */
export const MAX_EVENT = 32 * 1024 * 1024;
const EMPTY = Buffer.alloc(0);
const LF = 0x0a;
const CR = 0x0d;

export interface StreamTapOptions {
  strip: boolean;
  /** MAX_EVENT unless a test needs its edge at a size it can cross quickly. */
  maxEvent?: number;
}

export function createStreamTap(options: StreamTapOptions): StreamTap {
  const maxEvent = options.maxEvent ?? MAX_EVENT;
  const reader = new UsageReader();
  const feeder = new EventFeeder(reader, maxEvent);
  const stripper = options.strip ? new UsageStripper(maxEvent) : undefined;
  return {
    reader,
    push(chunk) {
      feeder.push(chunk);
      return stripper ? stripper.push(chunk) : chunk;
    },
    end() {
      feeder.end();
      return stripper ? stripper.end() : EMPTY;
    },
  };
}

/** Bytes to SSE events for the reader, a character split across chunks included. */
class EventFeeder {
  readonly #decoder = new TextDecoder();
  readonly #parser: EventSourceParser;
  #overflowed = false;

  constructor(reader: UsageReader, maxEvent: number) {
    this.#parser = createParser({
      onEvent: (event) => reader.onEvent(event),
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') this.#overflowed = true;
      },
      maxBufferSize: maxEvent,
    });
  }

  push(chunk: Buffer): void {
    this.#feed(this.#decoder.decode(chunk, { stream: true }));
  }

  /**
   * A last event the upstream did not close with a blank line is still read: the provider billed the usage
   * it reports even if the stream ended one line early.
   */
  end(): void {
    this.#feed(this.#decoder.decode() + '\n\n');
  }

  #feed(text: string): void {
    // The parser stops after an oversized event until reset; the rest of that event then reads as junk lines.
    if (this.#overflowed) {
      this.#overflowed = false;
      this.#parser.reset();
    }
    this.#parser.feed(text);
  }
}

/**
 * Splits the raw bytes into SSE events (an event ends at a blank line; a line ends with LF, CRLF or CR),
 * holding back the one incomplete event, and passes each complete event's exact bytes unless include_usage
 * put it or its `usage` member there.
 */
class UsageStripper {
  #held: Buffer[] = [];
  #heldLength = 0;
  /** At the start of a line: a line terminator here makes a blank line. */
  #lineStart = true;
  /** The previous byte was a CR ending a line: an LF now belongs to it. */
  #afterCR = false;
  /** A blank line ended with CR: the event ends after the LF of a CRLF, or before any other byte. */
  #endAfterCR = false;
  /** The held event outgrew the limit and was passed on: the rest of it follows unexamined. */
  #passing = false;
  readonly #maxEvent: number;

  constructor(maxEvent: number) {
    this.#maxEvent = maxEvent;
  }

  push(chunk: Buffer): Buffer {
    const out: Buffer[] = [];
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (this.#endAfterCR) {
        this.#endAfterCR = false;
        const end = byte === LF ? i + 1 : i;
        this.#complete(out, chunk.subarray(start, end));
        start = end;
        if (byte === LF) continue;
      }
      if (this.#afterCR) {
        this.#afterCR = false;
        if (byte === LF) continue;
      }
      if (byte !== LF && byte !== CR) {
        this.#lineStart = false;
      } else if (!this.#lineStart) {
        this.#lineStart = true;
        this.#afterCR = byte === CR;
      } else if (byte === CR) {
        this.#endAfterCR = true;
      } else {
        this.#complete(out, chunk.subarray(start, i + 1));
        start = i + 1;
      }
    }
    this.#hold(out, chunk.subarray(start));
    return join(out);
  }

  end(): Buffer {
    const out: Buffer[] = [];
    if (this.#endAfterCR) {
      // The stream ended right after a blank line's CR: that event is complete.
      this.#endAfterCR = false;
      this.#complete(out, EMPTY);
    } else {
      out.push(this.#release());
    }
    return join(out);
  }

  #complete(out: Buffer[], tail: Buffer): void {
    this.#held.push(tail);
    const event = this.#release();
    if (this.#passing) {
      this.#passing = false;
      out.push(event);
    } else {
      out.push(strippedEvent(event));
    }
  }

  #hold(out: Buffer[], rest: Buffer): void {
    if (rest.length === 0) return;
    if (this.#passing) {
      out.push(rest);
      return;
    }
    // A copy: the caller may reuse its chunk, and a small remainder should not keep a large chunk alive.
    this.#held.push(Buffer.from(rest));
    this.#heldLength += rest.length;
    if (this.#heldLength > this.#maxEvent) {
      out.push(this.#release());
      this.#passing = true;
    }
  }

  /** The held bytes as one Buffer (the very chunk when only one is held), holding nothing after. */
  #release(): Buffer {
    const held = this.#held;
    this.#held = [];
    this.#heldLength = 0;
    return held.length === 1 ? held[0]! : Buffer.concat(held);
  }
}

function join(parts: Buffer[]): Buffer {
  if (parts.length === 0) return EMPTY;
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

// Fatal, so bytes that are not UTF-8 are passed as they are, never rewritten with replacement characters;
// the BOM is kept so a rewritten first event still starts with it.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const LINE = /([^\r\n]*)(\r\n|\r|\n|$)/g;

interface Line {
  text: string;
  eol: string;
  /** The value of a `data` field, undefined for any other line. */
  data?: string;
}

/**
 * One complete event as the client gets it: dropped when it is the usage frame (`choices: []` with a
 * non-null usage), rewritten without its `usage` member when it has one, else its very bytes.
 */
function strippedEvent(event: Buffer): Buffer {
  if (!event.includes('usage')) return event;
  let lines: Line[];
  try {
    lines = splitLines(UTF8.decode(event));
  } catch {
    return event;
  }
  const dataLines = lines.filter((line) => line.data !== undefined);
  if (dataLines.length === 0) return event;
  const value = parseObject(dataLines.map((line) => line.data).join('\n'));
  if (!value || !Object.hasOwn(value, 'usage')) return event;
  if (Array.isArray(value.choices) && value.choices.length === 0 && value.usage != null) return EMPTY;
  delete value.usage;
  let json: string;
  try {
    json = JSON.stringify(value);
  } catch {
    return event;
  }
  return Buffer.from(rewriteData(lines, dataLines[0]!, json));
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  for (const match of text.matchAll(LINE)) {
    const [, body = '', eol = ''] = match;
    if (body === '' && eol === '') break;
    lines.push({ text: body, eol, data: dataValue(body) });
  }
  return lines;
}

function dataValue(line: string): string | undefined {
  const bare = line.startsWith('\uFEFF') ? line.slice(1) : line;
  if (bare === 'data') return '';
  if (!bare.startsWith('data:')) return undefined;
  return bare.startsWith('data: ') ? bare.slice(6) : bare.slice(5);
}

/** The event with its first data line's value replaced by `json` and any further data lines left out. */
function rewriteData(lines: Line[], first: Line, json: string): string {
  let text = '';
  for (const line of lines) {
    if (line === first)
      text += line.text.slice(0, line.text.length - (line.data ?? '').length) + json + line.eol;
    else if (line.data === undefined) text += line.text + line.eol;
  }
  return text;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * MCP's stdio transport: one JSON-RPC message per line, in on stdin and out on stdout (docs/invariants.md,
 * "Servers safe by default": `mcp` speaks only over stdio, and stdout carries only the protocol). It implements the SDK's `Transport` rather
 * than using its `StdioServerTransport`, which drops a line that is not JSON-RPC without an answer and closes
 * on one longer than its buffer: here a malformed line gets a JSON-RPC error (-32700 not JSON, -32600 not a
 * JSON-RPC message, with the request's id when it has one) and the server keeps reading.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** A request line longer than this is refused and skipped; MCP's requests here are a few hundred bytes. */
export const MAX_LINE_BYTES = 1024 * 1024;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Inside a line already refused as too long: everything up to its newline is dropped. */
  private skipping = false;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.input.on('end', this.onEnd);
  }

  /** Resolves once the line is handed to stdout (after a drain when the pipe is full). */
  send(message: JSONRPCMessage): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.off('end', this.onEnd);
    this.input.pause();
    this.pending = [];
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    let rest = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let end = rest.indexOf(0x0a); end !== -1; end = rest.indexOf(0x0a)) {
      const piece = rest.subarray(0, end);
      rest = rest.subarray(end + 1);
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      const line = this.take(piece);
      if (line !== undefined) this.handleLine(line);
    }
    if (rest.length > 0 && !this.skipping) this.keep(rest);
  };

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  /** stdin closed: the host has gone, and so does the server. */
  private readonly onEnd = (): void => {
    void this.close();
  };

  /** The start of a line: kept until its newline comes, unless it has grown past the cap. */
  private keep(piece: Buffer): void {
    this.pending.push(piece);
    this.pendingBytes += piece.length;
    if (this.pendingBytes > MAX_LINE_BYTES) {
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = true;
      this.refuse(ErrorCode.InvalidRequest, `Invalid Request: a message longer than ${MAX_LINE_BYTES} bytes`);
    }
  }

  private take(last: Buffer): string | undefined {
    const whole = this.pending.length > 0 ? Buffer.concat([...this.pending, last]) : last;
    this.pending = [];
    this.pendingBytes = 0;
    if (whole.length > MAX_LINE_BYTES) {
      this.refuse(ErrorCode.InvalidRequest, `Invalid Request: a message longer than ${MAX_LINE_BYTES} bytes`);
      return undefined;
    }
    return whole.toString('utf8').replace(/\r$/, '');
  }

  private handleLine(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.refuse(ErrorCode.ParseError, 'Parse error: the message is not JSON');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      this.refuse(ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message', idOf(value));
      return;
    }
    this.onmessage?.(parsed.data);
  }

  /** JSON-RPC's answer to a message it cannot take: `id` null when the message had none to give. */
  private refuse(code: number, message: string, id: string | number | null = null): void {
    void this.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(text)) resolve();
      else this.output.once('drain', resolve);
    });
  }
}

function idOf(value: unknown): string | number | null {
  if (typeof value !== 'object' || value === null || !('id' in value)) return null;
  const { id } = value;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

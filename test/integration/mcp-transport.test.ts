import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { LineTransport, MAX_LINE_BYTES } from '../../src/mcp/line-transport.js';

/** `codexbar mcp`'s stdio transport on in-memory pipes: what reaches the server, and what is answered at once. */

function harness() {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new LineTransport(input, output);
  const received: JSONRPCMessage[] = [];
  let closed = false;
  transport.onmessage = (message) => received.push(message);
  transport.onclose = () => {
    closed = true;
  };
  const written = () =>
    String(output.read() ?? '')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  return { input, transport, received, written, isClosed: () => closed };
}

/** A ping request whose line (without its newline) is exactly `bytes` long. */
function pingOf(bytes: number): string {
  const bare = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { pad: '' } } });
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'ping',
    params: { _meta: { pad: 'x'.repeat(bytes - bare.length) } },
  });
}

describe('the MCP stdio transport', () => {
  it('joins a message split across chunks, and skips blank lines and a CR before the newline', async () => {
    const { input, transport, received, written } = harness();
    await transport.start();
    input.write('{"jsonrpc":"2.0",');
    input.write('"method":"notifications/initialized"}\r\n\n');
    expect(received).toEqual([{ jsonrpc: '2.0', method: 'notifications/initialized' }]);
    expect(written()).toEqual([]);
  });

  it(`takes a message of exactly ${MAX_LINE_BYTES} bytes, refuses one byte more, and reads on`, async () => {
    const { input, transport, received, written } = harness();
    await transport.start();
    input.write(`${pingOf(MAX_LINE_BYTES)}\n`);
    expect(received).toHaveLength(1);

    // Longer than the cap in pieces: refused once, as soon as it is too long, and the rest of it dropped.
    const long = pingOf(MAX_LINE_BYTES + 1);
    input.write(long.slice(0, MAX_LINE_BYTES));
    input.write(long.slice(MAX_LINE_BYTES));
    input.write('\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    expect(written()).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('longer than') } },
    ]);
    expect(received).toHaveLength(2);
    expect(received[1]).toEqual({ jsonrpc: '2.0', id: 2, method: 'ping' });
  });

  it.each([
    ['[1, 2', -32700, null],
    ['{"jsonrpc":"1.0","id":"a","method":"ping"}', -32600, 'a'],
    ['{"id":{"x":1},"method":"ping"}', -32600, null],
    ['42', -32600, null],
  ])('%s is answered with %i (id %s) and never reaches the server', async (line, code, id) => {
    const { input, transport, received, written } = harness();
    await transport.start();
    input.write(`${line}\n`);
    expect(written()).toEqual([{ jsonrpc: '2.0', id, error: { code, message: expect.any(String) } }]);
    expect(received).toEqual([]);
  });

  it('closes when stdin ends', async () => {
    const { input, transport, isClosed } = harness();
    await transport.start();
    input.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(isClosed()).toBe(true);
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { printableModel, readProxyRequest } from '../../src/proxy/request-body.js';

const ADDED = '"stream_options":{"include_usage":true},';

function body(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

function chat(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }], stream: true, ...extra };
}

function parsedUpstream(request: Buffer): unknown {
  return JSON.parse(readProxyRequest('chat', request).upstreamBody.toString('utf8'));
}

describe('readProxyRequest: include_usage injection', () => {
  it('inserts the member right after the opening brace and leaves every other byte as sent', () => {
    const text =
      ' \n{ "model" : "gpt-4.1",\n  "messages":[{"role":"user","content":"héllo 😀"}], "stream":true, "n":1.0 }';
    const info = readProxyRequest('chat', body(text));
    expect(info.addedIncludeUsage).toBe(true);
    const brace = text.indexOf('{') + 1;
    expect(info.upstreamBody.toString('utf8')).toBe(text.slice(0, brace) + ADDED + text.slice(brace));
    expect(info.stream).toBe(true);
    expect(info.dialect).toBe('chat');
  });

  it('keeps a BOM and inserts after the brace that follows it', () => {
    const text = '\uFEFF{"messages":[],"stream":true}';
    const info = readProxyRequest('chat', body(text));
    expect(info.upstreamBody.toString('utf8')).toBe('\uFEFF{' + ADDED + '"messages":[],"stream":true}');
  });

  it('sets include_usage in an existing stream_options object, keeping its other members', () => {
    const request = body(JSON.stringify(chat({ stream_options: { continuous_usage_stats: false } })));
    const info = readProxyRequest('chat', request);
    expect(info.addedIncludeUsage).toBe(true);
    expect(JSON.parse(info.upstreamBody.toString('utf8'))).toEqual(
      chat({ stream_options: { continuous_usage_stats: false, include_usage: true } }),
    );
  });

  it('turns include_usage false into true, and a null stream_options into one that asks for usage', () => {
    expect(parsedUpstream(body(JSON.stringify(chat({ stream_options: { include_usage: false } }))))).toEqual(
      chat({ stream_options: { include_usage: true } }),
    );
    expect(parsedUpstream(body(JSON.stringify(chat({ stream_options: null }))))).toEqual(
      chat({ stream_options: { include_usage: true } }),
    );
  });

  it.each([
    ['include_usage is already true', 'chat', chat({ stream_options: { include_usage: true } })],
    ['the request is not streamed', 'chat', chat({ stream: false })],
    ['stream is not exactly true', 'chat', chat({ stream: 'true' })],
    ['stream_options is not an object', 'chat', chat({ stream_options: 'yes' })],
    ['the body is a Responses request', 'chat', { model: 'gpt-5', input: [], stream: true }],
    ['the route is /responses', 'responses', chat()],
    ['messages is not an array', 'chat', { messages: 'hi', stream: true }],
  ] as const)('forwards the very same Buffer when %s', (_name, route, value) => {
    const request = body(JSON.stringify(value));
    const info = readProxyRequest(route, request);
    expect(info.upstreamBody).toBe(request);
    expect(info.addedIncludeUsage).toBe(false);
    expect(info.json).toBe(true);
  });

  it.each([
    ['malformed JSON', body('{"messages":[')],
    ['a JSON array', body('[{"messages":[],"stream":true}]')],
    ['a JSON string', body('"stream"')],
    ['JSON null', body('null')],
    ['an empty body', body('')],
    [
      'invalid UTF-8',
      Buffer.concat([body('{"messages":[],"stream":true,"x":"'), Buffer.from([0xff, 0xfe]), body('"}')]),
    ],
  ])('never throws and forwards %s unchanged', (_name, request) => {
    const info = readProxyRequest('chat', request);
    expect(info.upstreamBody).toBe(request);
    expect(info).toEqual({ json: false, stream: false, upstreamBody: request, addedIncludeUsage: false });
  });

  it('reads a hugely nested body without throwing, and still inserts the member as text', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    const text = '{"messages":[{"role":"user","content":' + deep + '}],"stream":true}';
    const info = readProxyRequest('chat', body(text));
    expect(info.json).toBe(true);
    expect(info.upstreamBody.toString('utf8')).toBe('{' + ADDED + text.slice(1));
    // Too deep to stringify for the key: no key rather than a failure.
    expect(info.conversation).toBeUndefined();
  });

  it('gives up the injection, not the request, when a stream_options body is too deep to re-serialise', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    const request = body('{"messages":[],"stream":true,"stream_options":{},"x":' + deep + '}');
    const info = readProxyRequest('chat', request);
    expect(info.upstreamBody).toBe(request);
    expect(info.addedIncludeUsage).toBe(false);
  });
});

describe('readProxyRequest: dialect, model and stream', () => {
  it('names the dialect by messages (chat) or input (responses), else none', () => {
    expect(readProxyRequest('chat', body('{"messages":[]}')).dialect).toBe('chat');
    expect(readProxyRequest('chat', body('{"input":"hi"}')).dialect).toBe('responses');
    expect(readProxyRequest('chat', body('{"input":null}')).dialect).toBe('responses');
    expect(readProxyRequest('chat', body('{"prompt":"hi"}')).dialect).toBeUndefined();
  });

  it('reads stream only when it is exactly true', () => {
    expect(readProxyRequest('chat', body('{"stream":true}')).stream).toBe(true);
    expect(readProxyRequest('chat', body('{"stream":1}')).stream).toBe(false);
    expect(readProxyRequest('chat', body('{}')).stream).toBe(false);
  });

  it('keeps a string model printable and at most 200 characters', () => {
    expect(readProxyRequest('chat', body('{"model":"gpt-4.1\\u001b[31m\\u0085"}')).model).toBe(
      'gpt-4.1?[31m?',
    );
    expect(readProxyRequest('chat', body(JSON.stringify({ model: 'm'.repeat(200) }))).model).toHaveLength(
      200,
    );
    expect(readProxyRequest('chat', body(JSON.stringify({ model: 'm'.repeat(201) }))).model).toHaveLength(
      200,
    );
    expect(readProxyRequest('chat', body('{"model":42}')).model).toBeUndefined();
    expect(readProxyRequest('chat', body('{"model":""}')).model).toBeUndefined();
  });

  it('never cuts a model name inside a surrogate pair', () => {
    expect(printableModel('m'.repeat(199) + '😀')).toBe('m'.repeat(199));
    expect(printableModel('m'.repeat(198) + '😀')).toBe('m'.repeat(198) + '😀');
  });
});

describe('readProxyRequest: the conversation key', () => {
  const firstTurn = [
    { role: 'system', content: 'You are helpful.' },
    { role: 'user', content: '<metadata>workspace</metadata>' },
    { role: 'user', content: [{ type: 'text', text: 'Fix the bug' }] },
  ];
  const key = (value: Record<string, unknown>) =>
    readProxyRequest('chat', body(JSON.stringify(value))).conversation;

  it('is sha256 of the tag, the user and the first block user message, cut to 32 hex digits', () => {
    const expected = createHash('sha256')
      .update(`codexbar-conversation-v1\0acct-1\0${JSON.stringify(firstTurn[2]!.content)}`)
      .digest('hex')
      .slice(0, 32);
    expect(key({ user: 'acct-1', messages: firstTurn })).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{32}$/);
  });

  it('is the same for the same first message and user, and differs for another user', () => {
    expect(key({ user: 'acct-1', messages: firstTurn })).toBe(key({ user: 'acct-1', messages: firstTurn }));
    expect(key({ user: 'acct-1', messages: firstTurn })).not.toBe(
      key({ user: 'acct-2', messages: firstTurn }),
    );
    expect(key({ user: 'acct-1', messages: firstTurn })).not.toBe(key({ messages: firstTurn }));
  });

  it('gives later turns of a conversation the key of its first', () => {
    const later = [
      ...firstTurn,
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: [{ type: 'text', text: 'Now add a test' }] },
    ];
    expect(key({ user: 'acct-1', messages: later })).toBe(key({ user: 'acct-1', messages: firstTurn }));
  });

  it('skips a string-content metadata message for the first message with blocks, else takes the first', () => {
    const withoutMetadata = [firstTurn[0], firstTurn[2]];
    expect(key({ messages: firstTurn })).toBe(key({ messages: withoutMetadata }));
    const onlyStrings = [
      { role: 'user', content: 'first' },
      { role: 'user', content: 'second' },
    ];
    expect(key({ messages: onlyStrings })).toBe(key({ messages: [{ role: 'user', content: 'first' }] }));
    expect(key({ messages: onlyStrings })).not.toBe(key({ messages: [{ role: 'user', content: 'second' }] }));
  });

  it('reads a Responses input array, and a string input as the first user message', () => {
    const input = [
      { role: 'developer', content: 'rules' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix the bug' }] },
    ];
    expect(readProxyRequest('chat', body(JSON.stringify({ user: 'u', input }))).conversation).toBe(
      readProxyRequest('responses', body(JSON.stringify({ user: 'u', input }))).conversation,
    );
    expect(key({ input: 'Fix the bug' })).toBe(key({ messages: [{ role: 'user', content: 'Fix the bug' }] }));
  });

  it('is absent without a user message, and ignores a user that is not a string', () => {
    expect(key({ messages: [{ role: 'system', content: 'x' }] })).toBeUndefined();
    expect(key({ messages: [] })).toBeUndefined();
    expect(key({ input: [{ type: 'function_call_output', output: 'x' }] })).toBeUndefined();
    expect(key({ prompt: 'x' })).toBeUndefined();
    expect(key({ user: 7, messages: firstTurn })).toBe(key({ messages: firstTurn }));
  });
});

/**
 * `codexbar proxy` with the official `openai` SDK as its client: the SDK sees through the proxy exactly
 * what it sees talking to the upstream directly, and the ledger holds one row per request with the counts
 * the upstream reported. Also: include_usage added upstream and removed downstream, 100 streams at once, and
 * no prompt, `user`, key or token in any file or output of a `--verbose` run.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedUsage, type FakeUpstream, startFakeUpstream } from '../fake-upstream/server.js';
import {
  dataDir,
  type LedgerRecord,
  newRows,
  type ProxyHarness,
  startProxyHarness,
  UPSTREAM_KEY,
} from '../helpers/proxy.js';
import { type OpenScene, openScene } from '../helpers/scene.js';

/** The ledger's counts of a row, against what the fake reported for the body it received. */
function countsOf(row: LedgerRecord) {
  return {
    promptTokens: row.prompt_tokens,
    cachedTokens: row.cached_tokens,
    cacheWriteTokens: row.cache_write_tokens,
    completionTokens: row.completion_tokens,
    reasoningTokens: row.reasoning_tokens,
    providerCostUSD: row.provider_cost_usd,
  };
}

function expectedCounts(body: Buffer) {
  const usage = expectedUsage(body);
  if (!usage) throw new Error('the fake reports no usage for this body');
  return {
    promptTokens: usage.promptTokens,
    cachedTokens: usage.cachedTokens,
    cacheWriteTokens: usage.cacheWriteTokens ?? null,
    completionTokens: usage.completionTokens,
    reasoningTokens: usage.reasoningTokens,
    providerCostUSD: usage.providerCostUSD ?? null,
  };
}

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const events: T[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

let scene: OpenScene;
let h: ProxyHarness;
/** A second fake for the direct calls (see `direct`). */
let twin: FakeUpstream;
let viaProxy: OpenAI;
let viaDirect: OpenAI;

beforeAll(async () => {
  scene = openScene();
  h = await startProxyHarness(scene);
  twin = await startFakeUpstream({ key: UPSTREAM_KEY });
  scene.defer(() => twin.close());
  viaProxy = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: h.token, maxRetries: 0 });
  viaDirect = new OpenAI({ baseURL: twin.url, apiKey: UPSTREAM_KEY, maxRetries: 0 });
});
afterAll(() => scene?.close());

/**
 * The same call against the upstream directly, then through the proxy. The fake numbers its ids by its
 * request count (`chatcmpl-fake-<i>`), so the twin is first brought to the proxy's fake's count with
 * GET /models: both calls then get the same ids and compare unchanged, byte for byte.
 */
async function direct<T>(call: (client: OpenAI) => Promise<T>): Promise<{ direct: T; proxied: T }> {
  const at = h.upstream.requests.length;
  while (twin.requests.length < at) {
    const res = await fetch(`${twin.url}/models`, { headers: { authorization: `Bearer ${UPSTREAM_KEY}` } });
    await res.arrayBuffer();
  }
  expect(twin.requests.length).toBe(at);
  const directly = await call(viaDirect);
  const proxied = await call(viaProxy);
  expect(h.upstream.requests.length).toBe(at + 1);
  return { direct: directly, proxied };
}

/** The same raw request against the twin and through the proxy, both bodies as bytes. */
async function rawPair(body: string): Promise<{ direct: Buffer; proxied: Buffer; status: number[] }> {
  const { direct: d, proxied: p } = await direct(async (client) => {
    const base = client === viaDirect ? twin.url : `${h.url}/v1`;
    const key = client === viaDirect ? UPSTREAM_KEY : h.token;
    const res = await fetch(`${base}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body,
    });
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  });
  return { direct: d.bytes, proxied: p.bytes, status: [d.status, p.status] };
}

const UPSTREAM_HOST = () => new URL(h.upstream.url).host;
const lastReceived = () => {
  const received = h.upstream.requests.at(-1);
  if (!received) throw new Error('no upstream request');
  return received;
};

describe('the openai SDK through the proxy sees what it sees directly', () => {
  const userMessage = (text: string) => [{ role: 'user' as const, content: text }];

  it.each([
    ['gpt-4.1', true],
    ['deepseek-chat', true],
    ['openrouter/openai/gpt-4o-mini', true],
    ['gpt-4.1', false],
    ['deepseek-chat', false],
  ])(
    'chat.completions stream, model %s, include_usage %s: the same chunks, and a row with the usage',
    async (model, includeUsage) => {
      const before = h.rows().length;
      const { direct: d, proxied: p } = await direct(async (client) =>
        collect(
          await client.chat.completions.create({
            model,
            messages: userMessage(`Stream ${model} ${includeUsage}`),
            stream: true,
            ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
          }),
        ),
      );
      expect(p).toEqual(d);
      expect(p.length).toBeGreaterThan(5);
      // Usage reaches the SDK only when it asked (OpenRouter always sends it, and it asked here).
      expect(p.some((chunk) => chunk.usage)).toBe(includeUsage);
      const [row] = await newRows(h, before, 1);
      const received = lastReceived();
      expect((received.json as { stream_options?: unknown }).stream_options).toEqual({ include_usage: true });
      expect(countsOf(row)).toEqual(expectedCounts(received.body));
      expect(row).toMatchObject({
        model,
        route: 'chat',
        stream: 1,
        status: 200,
        completed: 1,
        outcome: 'completed',
        upstream_host: UPSTREAM_HOST(),
      });
      expect(row.conversation).toMatch(/^[0-9a-f]{32}$/);
    },
  );

  it.each([['gpt-4.1'], ['deepseek-chat'], ['openrouter/openai/gpt-4o-mini']])(
    'chat.completions without streaming, model %s: the same completion, and a row with the usage',
    async (model) => {
      const before = h.rows().length;
      const { direct: d, proxied: p } = await direct((client) =>
        client.chat.completions.create({ model, messages: userMessage(`Once more, ${model}`) }),
      );
      expect(p).toEqual(d);
      expect(p.usage?.prompt_tokens).toBe(`Once more, ${model}`.length);
      const [row] = await newRows(h, before, 1);
      const received = lastReceived();
      expect(countsOf(row)).toEqual(expectedCounts(received.body));
      expect(row).toMatchObject({
        model,
        route: 'chat',
        stream: 0,
        status: 200,
        completed: 1,
        outcome: 'completed',
      });
    },
  );

  it('DeepSeek: the cache hits are the cached tokens, and OpenRouter: its cost and cache writes are kept', async () => {
    const before = h.rows().length;
    const prompt = 'x'.repeat(41);
    await direct((client) =>
      client.chat.completions.create({ model: 'deepseek-chat', messages: userMessage(prompt) }),
    );
    await direct((client) =>
      client.chat.completions.create({
        model: 'openrouter/openai/gpt-4o-mini',
        messages: userMessage(prompt),
      }),
    );
    const [deepseek, openrouter] = await newRows(h, before, 2);
    // P = 41: hits = floor(41 / 2) = 20; OpenRouter's cache writes floor(41 / 4) = 10, cost (2·41 + 8·9) / 1e6.
    expect(countsOf(deepseek)).toEqual({
      promptTokens: 41,
      cachedTokens: 20,
      cacheWriteTokens: null,
      completionTokens: 9,
      reasoningTokens: 4,
      providerCostUSD: null,
    });
    expect(countsOf(openrouter)).toEqual({
      promptTokens: 41,
      cachedTokens: 20,
      cacheWriteTokens: 10,
      completionTokens: 9,
      reasoningTokens: 4,
      providerCostUSD: 154 / 1e6,
    });
  });

  it('responses.create streamed: the same events, and a responses row with the usage', async () => {
    const before = h.rows().length;
    const { direct: d, proxied: p } = await direct(async (client) =>
      collect(await client.responses.create({ model: 'gpt-4.1', input: 'Stream a response', stream: true })),
    );
    expect(p).toEqual(d);
    expect(p.map((event) => event.type).at(-1)).toBe('response.completed');
    const [row] = await newRows(h, before, 1);
    const received = lastReceived();
    expect(received.path).toBe('/v1/responses');
    // A Responses body is never changed.
    expect(received.json).toEqual({ model: 'gpt-4.1', input: 'Stream a response', stream: true });
    expect(countsOf(row)).toEqual(expectedCounts(received.body));
    expect(row).toMatchObject({
      model: 'gpt-4.1',
      route: 'responses',
      stream: 1,
      status: 200,
      completed: 1,
      outcome: 'completed',
    });
  });

  it('responses.create without streaming: the same response, and a responses row with the usage', async () => {
    const before = h.rows().length;
    const { direct: d, proxied: p } = await direct((client) =>
      client.responses.create({
        model: 'gpt-4.1',
        input: [{ role: 'user', content: [{ type: 'input_text', text: 'A response, please' }] }],
      }),
    );
    expect(p).toEqual(d);
    expect(p.output_text).toBe('Hello from the fake upstream.');
    const [row] = await newRows(h, before, 1);
    expect(countsOf(row)).toEqual(expectedCounts(lastReceived().body));
    expect(row).toMatchObject({
      route: 'responses',
      stream: 0,
      status: 200,
      completed: 1,
      outcome: 'completed',
    });
  });

  it('two turns of one conversation share a key; another first message or another user gets another', async () => {
    const before = h.rows().length;
    const first = [{ type: 'text' as const, text: 'Plan the refactor' }];
    const ask = (messages: OpenAI.Chat.ChatCompletionMessageParam[], user = 'acct-1') =>
      viaProxy.chat.completions.create({ model: 'gpt-4.1', user, messages });
    await ask([
      { role: 'user', content: 'cursor metadata' },
      { role: 'user', content: first },
    ]);
    await ask([
      { role: 'user', content: 'cursor metadata, turn two' },
      { role: 'user', content: first },
      { role: 'assistant', content: 'Hello from the fake upstream.' },
      { role: 'user', content: [{ type: 'text', text: 'Now do it' }] },
    ]);
    await ask([
      { role: 'user', content: 'cursor metadata' },
      { role: 'user', content: [{ type: 'text', text: 'Write the tests' }] },
    ]);
    await ask(
      [
        { role: 'user', content: 'cursor metadata' },
        { role: 'user', content: first },
      ],
      'acct-2',
    );
    const [turn1, turn2, other, otherUser] = (await newRows(h, before, 4)).map((row) => row.conversation);
    expect(turn1).toMatch(/^[0-9a-f]{32}$/);
    expect(turn2).toBe(turn1);
    expect(other).toMatch(/^[0-9a-f]{32}$/);
    expect(other).not.toBe(turn1);
    expect(otherUser).not.toBe(turn1);
    expect(new Set([turn1, other, otherUser]).size).toBe(3);
  });
});

describe('include_usage', () => {
  const INSERTED = '"stream_options":{"include_usage":true},';

  it('a stream that lacked it gets it upstream, the rest byte for byte; the client sees no usage; the row has it', async () => {
    const before = h.rows().length;
    // Odd spacing on purpose: a re-serialised body would lose it.
    const body =
      '{ "model" : "gpt-4.1",\n "stream": true, "messages": [{"role":"user","content":"count é me"}] }';
    const { direct: d, proxied: p, status } = await rawPair(body);
    expect(status).toEqual([200, 200]);
    const received = lastReceived();
    expect(received.body.toString('utf8')).toBe(`{${INSERTED}${body.slice(1)}`);
    const text = p.toString('utf8');
    expect(text).not.toContain('usage');
    expect(text).not.toContain('choices":[]');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    // What the client would have seen without the proxy, exactly.
    expect(p.equals(d)).toBe(true);
    const [row] = await newRows(h, before, 1);
    expect(countsOf(row)).toEqual(expectedCounts(received.body));
    expect(row.prompt_tokens).toBe('count é me'.length);
  });

  it('a stream_options without include_usage (or with it false) gets it too, and the client still sees none', async () => {
    for (const options of ['{}', '{"include_usage":false}']) {
      const before = h.rows().length;
      const body = `{"model":"gpt-4.1","stream":true,"stream_options":${options},"messages":[{"role":"user","content":"hi"}]}`;
      const { direct: d, proxied: p } = await rawPair(body);
      expect((lastReceived().json as { stream_options: unknown }).stream_options).toEqual({
        include_usage: true,
      });
      expect(p.toString('utf8')).not.toContain('usage');
      expect(p.equals(d)).toBe(true);
      const [row] = await newRows(h, before, 1);
      expect(row.prompt_tokens).toBe(2);
      expect(row.completion_tokens).toBe(9);
    }
  });

  it('a stream that asked for it is forwarded byte for byte, and the client gets the upstream bytes exactly', async () => {
    const before = h.rows().length;
    const body =
      '{"model":"gpt-4.1","stream":true,"stream_options":{"include_usage":true},  "messages":[{"role":"user","content":"as sent"}]}';
    const { direct: d, proxied: p } = await rawPair(body);
    expect(lastReceived().body.equals(Buffer.from(body))).toBe(true);
    expect(p.toString('utf8')).toContain('"choices":[],"usage":{');
    expect(p.equals(d)).toBe(true);
    const [row] = await newRows(h, before, 1);
    expect(countsOf(row)).toEqual(expectedCounts(Buffer.from(body)));
  });
});

describe('many streams at once', () => {
  it('100 concurrent streams give one row each, with the counts of their own request', async () => {
    const before = h.rows().length;
    const upstreamBefore = h.upstream.requests.length;
    const N = 100;
    const answers = await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const body = {
          model: i % 3 === 0 ? 'deepseek-chat' : 'gpt-4.1',
          stream: true,
          ...(i % 2 === 0 ? { stream_options: { include_usage: true } } : {}),
          // Prompt size i + 1 names the request in the ledger.
          messages: [{ role: 'user', content: 'p'.repeat(i + 1) }],
        };
        const res = await fetch(`${h.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${h.token}` },
          body: JSON.stringify(body),
        });
        return { i, status: res.status, text: await res.text() };
      }),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.text.endsWith('data: [DONE]\n\n')).toBe(true);
      expect(answer.text.includes('usage')).toBe(answer.i % 2 === 0);
    }
    const rows = await newRows(h, before, N);
    const received = h.upstream.requests.slice(upstreamBefore);
    expect(received).toHaveLength(N);
    const bySize = new Map(received.map((r) => [expectedUsage(r.body)?.promptTokens, r]));
    expect([...bySize.keys()].sort((a = 0, b = 0) => a - b)).toEqual(
      Array.from({ length: N }, (_, i) => i + 1),
    );
    for (const row of rows) {
      const request = bySize.get(row.prompt_tokens ?? -1);
      expect(request, `a row of prompt ${row.prompt_tokens}`).toBeDefined();
      if (!request) continue;
      bySize.delete(row.prompt_tokens ?? -1);
      expect(countsOf(row)).toEqual(expectedCounts(request.body));
      expect(row.model).toBe((request.json as { model: string }).model);
      expect(row).toMatchObject({ stream: 1, status: 200, completed: 1, outcome: 'completed' });
    }
    expect(bySize.size).toBe(0);
    expect(new Set(rows.map((row) => row.conversation)).size).toBe(N);
  });
});

describe('nothing secret is kept or printed', () => {
  let own: OpenScene;
  let v: ProxyHarness;
  beforeAll(async () => {
    own = openScene();
    v = await startProxyHarness(own, { args: ['--verbose'] });
  });
  afterAll(() => own?.close());

  /** Every file under the data dir, as bytes (byok.sqlite, -wal, -shm, proxy-tokens.json, ...). */
  function dataFiles(): Map<string, Buffer> {
    const files = new Map<string, Buffer>();
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (entry.isFile()) files.set(path.relative(dataDir(own), file), fs.readFileSync(file));
      }
    };
    walk(dataDir(own));
    return files;
  }

  it('no prompt, user, upstream key or proxy token in the ledger, the token file or the --verbose output', async () => {
    const marker = `MARKER${randomBytes(8).toString('hex')}`;
    const user = `USER${randomBytes(8).toString('hex')}`;
    const send = (path: string, body: unknown) =>
      fetch(`${v.url}${path}?q=${marker}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${v.token}`,
          cookie: `session=${marker}`,
          'x-marker': marker,
        },
        body: JSON.stringify(body),
      }).then((res) => res.text());
    const messages = [{ role: 'user', content: [{ type: 'text', text: `secret prompt ${marker}` }] }];
    await send('/v1/chat/completions', { model: 'gpt-4.1', user, stream: true, messages });
    await send('/v1/chat/completions', { model: 'gpt-4.1', user, messages });
    await send('/v1/responses', { model: 'gpt-4.1', user, input: `secret input ${marker}`, stream: true });
    await send('/v1/chat/completions', { model: 'error-500', user, messages });
    const rows = await newRows(v, 0, 4);
    expect(rows.map((row) => row.prompt_tokens)).toEqual([
      `secret prompt ${marker}`.length,
      `secret prompt ${marker}`.length,
      `secret input ${marker}`.length,
      null,
    ]);
    // The proxy really forwarded what is searched for below.
    expect(v.upstream.requests[0]?.body.toString()).toContain(marker);
    expect(v.upstream.requests[0]?.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);

    const secrets = { marker, user, upstreamKey: UPSTREAM_KEY, token: v.token };
    const digest = createHash('sha256').update(v.token).digest('hex');
    const check = (where: string, bytes: Buffer | string) => {
      const text = Buffer.isBuffer(bytes) ? bytes.toString('latin1') : bytes;
      for (const [name, secret] of Object.entries(secrets)) {
        expect(text.includes(secret), `${name} in ${where}`).toBe(false);
        // SQLite may keep text as UTF-16 in no case here, but a UTF-16 copy would still be a leak.
        expect(
          text.includes(Buffer.from(secret, 'utf16le').toString('latin1')),
          `${name} (UTF-16) in ${where}`,
        ).toBe(false);
      }
    };
    // While running: the WAL holds the rows.
    const running = dataFiles();
    expect([...running.keys()]).toEqual(
      expect.arrayContaining(['byok.sqlite', 'byok.sqlite-wal', 'proxy-tokens.json']),
    );
    for (const [file, bytes] of running) check(file, bytes);
    expect(running.get('proxy-tokens.json')?.toString()).toContain(digest);

    const result = await v.stop();
    expect(result.code).toBe(0);
    for (const [file, bytes] of dataFiles()) check(`${file} (after stop)`, bytes);
    check('stdout', result.stdout);
    check('stderr', result.stderr);
    // --verbose said one line per request, with counts and no content.
    const lines = result.stderr.split('\n').filter((line) => line.startsWith('[proxy] POST'));
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(
      /^\[proxy\] POST chat gpt-4\.1 200 completed stream \d+ in \(\d+ cached\) 9 out \(4 reasoning\) \d+ms$/,
    );
    expect(lines[3]).toMatch(/ 500 completed /);
  });
});

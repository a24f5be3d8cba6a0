import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ExpectedUsage,
  expectedUsage,
  type FakeUpstream,
  replyText,
  startFakeUpstream,
} from '../fake-upstream/server.js';

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());

const MESSAGES = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: [{ type: 'text', text: 'Say hello' }] },
];

function post(body: unknown, path = '/chat/completions', init: RequestInit = {}): Promise<Response> {
  return fetch(`${upstream.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

interface Frame {
  event?: string;
  data?: string;
  comment?: string;
}

/** The fake writes whole `\n\n`-separated blocks; enough of SSE to read them back. */
function framesOf(text: string): Frame[] {
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .split('\n\n')
    .slice(0, -1)
    .map((block) => {
      const frame: Frame = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) frame.comment = line.slice(1).trim();
        else if (line.startsWith('event: ')) frame.event = line.slice(7);
        else if (line.startsWith('data: ')) frame.data = line.slice(6);
        else throw new Error(`unexpected SSE line ${JSON.stringify(line)}`);
      }
      return frame;
    });
}

type Chunk = { choices: { delta: { content?: string }; finish_reason: string | null }[]; usage?: unknown };

async function chatStream(body: Record<string, unknown>) {
  const res = await post({ ...body, stream: true });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  expect(res.headers.get('cache-control')).toBe('no-cache');
  const frames = framesOf(await res.text());
  const data = frames.filter((f) => f.data !== undefined).map((f) => f.data!);
  expect(data.at(-1)).toBe('[DONE]');
  const chunks = data.slice(0, -1).map((d) => JSON.parse(d) as Chunk);
  const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
  return { frames, chunks, text };
}

describe('fake upstream: Chat Completions as OpenAI answers them', () => {
  it('answers a non-streamed request with a chat.completion and its usage', async () => {
    const body = { model: 'gpt-4.1', messages: MESSAGES };
    const res = await post(body);
    expect(res.headers.get('content-type')).toBe('application/json');
    const json = (await res.json()) as {
      object: string;
      choices: { message: { content: string } }[];
      usage: unknown;
    };
    expect(json.object).toBe('chat.completion');
    expect(json.choices[0]?.message.content).toBe(replyText('gpt-4.1'));
    // 'Be brief.' (9) + 'Say hello' (9) characters.
    expect(json.usage).toEqual({
      prompt_tokens: 18,
      completion_tokens: 9,
      total_tokens: 27,
      prompt_tokens_details: { cached_tokens: 9, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 4,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    });
    expect(expectedUsage(body)).toEqual({
      promptTokens: 18,
      cachedTokens: 9,
      completionTokens: 9,
      reasoningTokens: 4,
    });
  });

  it('streams without any usage key when include_usage is not true', async () => {
    for (const extra of [{}, { stream_options: { include_usage: false } }]) {
      const { chunks, text } = await chatStream({ model: 'gpt-4.1', messages: MESSAGES, ...extra });
      expect(text).toBe(replyText('gpt-4.1'));
      expect(chunks.some((c) => 'usage' in c)).toBe(false);
      expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    }
  });

  it('streams usage:null on every chunk and a final choices:[] usage chunk with include_usage', async () => {
    const body = { model: 'gpt-4.1', messages: MESSAGES, stream_options: { include_usage: true } };
    const { chunks, text } = await chatStream(body);
    expect(text).toBe(replyText('gpt-4.1'));
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: 18, completion_tokens: 9, total_tokens: 27 });
    expect(chunks.slice(0, -1).every((c) => 'usage' in c && c.usage === null)).toBe(true);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('answers openrouter/ models with usage and cost in the last chunk, include_usage or not', async () => {
    const body = {
      model: 'openrouter/openai/gpt-4o-mini',
      messages: [{ role: 'user', content: 'x'.repeat(40) }],
    };
    const { frames, chunks } = await chatStream(body);
    expect(frames[0]?.comment).toBe('OPENROUTER PROCESSING');
    expect(chunks.slice(0, -1).some((c) => 'usage' in c)).toBe(false);
    expect(chunks.at(-1)?.usage).toMatchObject({
      prompt_tokens: 40,
      completion_tokens: 9,
      cost: 0.000152,
      prompt_tokens_details: { cached_tokens: 20, cache_write_tokens: 10 },
      completion_tokens_details: { reasoning_tokens: 4 },
    });
    expect(expectedUsage(body)).toEqual({
      promptTokens: 40,
      cachedTokens: 20,
      cacheWriteTokens: 10,
      completionTokens: 9,
      reasoningTokens: 4,
      providerCostUSD: 0.000152,
    });
  });

  it('answers deepseek models with cache hit and miss counts that add up to the prompt', async () => {
    const body = { model: 'deepseek-reasoner', messages: [{ role: 'user', content: 'abcde' }] };
    expect((await chatStream(body)).chunks.some((c) => 'usage' in c)).toBe(false);
    const { chunks } = await chatStream({ ...body, stream_options: { include_usage: true } });
    expect(chunks.at(-1)?.usage).toEqual({
      prompt_tokens: 5,
      completion_tokens: 9,
      total_tokens: 14,
      completion_tokens_details: { reasoning_tokens: 4 },
      prompt_cache_hit_tokens: 2,
      prompt_cache_miss_tokens: 3,
    });
    expect(expectedUsage(body)?.cachedTokens).toBe(2);
  });

  it('streams 2,000 content chunks for model big', async () => {
    const body = { model: 'big', messages: MESSAGES, stream_options: { include_usage: true } };
    const { chunks } = await chatStream(body);
    expect(chunks.filter((c) => c.choices[0]?.delta.content?.startsWith('tok')).length).toBe(2000);
    expect(chunks.at(-1)?.usage).toMatchObject({ completion_tokens: 2004 });
    expect(expectedUsage(body)?.completionTokens).toBe(2004);
  });

  it('spaces the frames of model slow fake_delay_ms apart', async () => {
    const started = performance.now();
    const { chunks } = await chatStream({ model: 'slow', messages: MESSAGES, fake_delay_ms: 10 });
    // 7 chunks and [DONE]: 7 gaps of 10 ms (timers may fire up to 1 ms early).
    expect(chunks.length).toBe(7);
    expect(performance.now() - started).toBeGreaterThanOrEqual(63);
  });
});

describe('fake upstream: the Responses API', () => {
  const types = (frames: Frame[]) => frames.map((f) => f.event);

  it.each(['/responses', '/chat/completions'])(
    'streams Responses events on %s, ending at response.completed without [DONE]',
    async (path) => {
      const res = await post(
        { model: 'gpt-5', input: 'hi', stream: true, stream_options: { include_usage: true } },
        path,
      );
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      const frames = framesOf(await res.text());
      expect(types(frames).slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
      expect(types(frames).filter((t) => t === 'response.output_text.delta').length).toBe(5);
      const last = frames.at(-1)!;
      expect(last.event).toBe('response.completed');
      expect(frames.some((f) => f.data === '[DONE]')).toBe(false);
      const completed = JSON.parse(last.data!) as { type: string; response: { usage: unknown } };
      expect(completed.type).toBe('response.completed');
      expect(completed.response.usage).toEqual({
        input_tokens: 2,
        input_tokens_details: { cached_tokens: 1 },
        output_tokens: 9,
        output_tokens_details: { reasoning_tokens: 4 },
        total_tokens: 11,
      });
      for (const frame of frames) expect(JSON.parse(frame.data!).type).toBe(frame.event);
    },
  );

  it('answers a non-streamed Responses request with a response object and top-level usage', async () => {
    const input = [{ role: 'user', content: [{ type: 'input_text', text: 'four' }] }];
    const res = await post({ model: 'gpt-5', input }, '/responses');
    const json = (await res.json()) as { object: string; status: string; usage: { input_tokens: number } };
    expect(json).toMatchObject({ object: 'response', status: 'completed', usage: { input_tokens: 4 } });
  });
});

describe('fake upstream: failures, routes and the socket', () => {
  it('answers error-429 with retry-after: 1 and error-500, each with an OpenAI error body', async () => {
    const limited = await post({ model: 'error-429', messages: MESSAGES, stream: true });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('content-type')).toBe('application/json');
    expect(await limited.json()).toMatchObject({ error: { type: 'requests', code: 'rate_limit_exceeded' } });
    const failed = await post({ model: 'error-500', input: 'hi' }, '/responses');
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ error: { type: 'server_error' } });
  });

  it('answers redirect with a 307 elsewhere', async () => {
    const res = await post({ model: 'redirect', messages: MESSAGES }, '/chat/completions', {
      redirect: 'manual',
    });
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe('http://127.0.0.1:1/elsewhere');
  });

  it('lists models and answers 404 for anything else', async () => {
    const models = (await (await fetch(`${upstream.url}/models`)).json()) as {
      object: string;
      data: unknown[];
    };
    expect(models.object).toBe('list');
    expect(models.data[0]).toEqual({
      id: 'gpt-4.1',
      object: 'model',
      created: 1_767_225_600,
      owned_by: 'openai',
    });
    const missing = await post({ model: 'gpt-4.1', messages: MESSAGES }, '/embeddings');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'unknown_url' } });
    expect((await fetch(`${upstream.origin}/chat/completions`, { method: 'POST' })).status).toBe(404);
  });

  it('records each request with its path, headers and exact body bytes, and closes it when answered', async () => {
    const i = upstream.requests.length;
    const raw = '{"model":"gpt-4.1", "messages":[{"role":"user","content":"hi"}]}';
    await (await post(raw)).text();
    await upstream.closed(i);
    const received = upstream.requests[i]!;
    expect(received).toMatchObject({ method: 'POST', path: '/v1/chat/completions', aborted: false });
    expect(received.headers.authorization).toBe('Bearer k');
    expect(received.body.toString()).toBe(raw);
    expect(expectedUsage(received.body)?.promptTokens).toBe(2);
  });

  it('ends model cut with an error on the client after two frames, not marked aborted', async () => {
    const i = upstream.requests.length;
    const res = await post({ model: 'cut', messages: MESSAGES, stream: true });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const received: string[] = [];
    const failure = await (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return undefined;
          received.push(Buffer.from(value).toString());
        }
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(Error);
    expect(framesOf(received.join('')).length).toBe(2);
    await upstream.closed(i);
    expect(upstream.requests[i]?.aborted).toBe(false);
  });

  it('holds model hang until the client leaves, and marks it aborted', async () => {
    const i = upstream.requests.length;
    const controller = new AbortController();
    const pending = post({ model: 'hang', messages: MESSAGES, stream: true }, '/chat/completions', {
      signal: controller.signal,
    });
    await upstream.waitForRequests(i + 1);
    expect(upstream.requests[i]?.aborted).toBe(false);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await upstream.closed(i);
    expect(upstream.requests[i]?.aborted).toBe(true);
  });
});

describe('fake upstream: the key and the body cap', () => {
  let guarded: FakeUpstream;
  beforeAll(async () => {
    guarded = await startFakeUpstream({ key: 'sk-test', maxBodyBytes: 1024 });
  });
  afterAll(() => guarded.close());

  const send = (body: string, authorization = 'Bearer sk-test') =>
    fetch(`${guarded.url}/chat/completions`, { method: 'POST', headers: { authorization }, body });
  const sized = (bytes: number) => {
    const head = '{"model":"gpt-4.1","messages":[{"role":"user","content":"';
    const tail = '"}]}';
    return head + 'x'.repeat(bytes - head.length - tail.length) + tail;
  };

  it('answers 401 with an OpenAI error unless Authorization is Bearer <key>', async () => {
    for (const authorization of ['Bearer other', 'sk-test', '']) {
      const res = await send(sized(100), authorization);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
    }
    expect((await send(sized(100))).status).toBe(200);
  });

  it('answers a body at the cap and refuses one byte past it with 413', async () => {
    expect((await send(sized(1024))).status).toBe(200);
    expect((await send(sized(1025))).status).toBe(413);
  });
});

describe('fake upstream: the official openai SDK reads its answers', () => {
  const client = () => new OpenAI({ baseURL: upstream.url, apiKey: 'k', maxRetries: 0 });
  const messages = [{ role: 'user' as const, content: 'Say hello' }];

  it('streams a chat completion: the content, and no usage without include_usage', async () => {
    const stream = await client().chat.completions.create({ model: 'gpt-4.1', messages, stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(replyText('gpt-4.1'));
    expect(chunks.every((c) => c.usage === undefined)).toBe(true);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('streams a chat completion with include_usage: the final chunk carries the usage', async () => {
    const body = {
      model: 'gpt-4.1',
      messages,
      stream: true as const,
      stream_options: { include_usage: true },
    };
    const stream = await client().chat.completions.create(body);
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    const expected: ExpectedUsage = expectedUsage(body)!;
    expect(last.usage).toMatchObject({
      prompt_tokens: expected.promptTokens,
      completion_tokens: expected.completionTokens,
      prompt_tokens_details: { cached_tokens: expected.cachedTokens },
      completion_tokens_details: { reasoning_tokens: expected.reasoningTokens },
    });
    const helper = client().chat.completions.stream({ model: 'gpt-4.1', messages });
    const final = await helper.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe(replyText('gpt-4.1'));
  });

  it('streams a Responses answer: every event type, the text, and the usage of response.completed', async () => {
    const stream = await client().responses.create({ model: 'gpt-5', input: 'hi', stream: true });
    const events = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      ...Array<string>(5).fill('response.output_text.delta'),
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const completed = events.at(-1)!;
    if (completed.type !== 'response.completed') throw new Error('not completed');
    expect(completed.response.usage).toEqual({
      input_tokens: 2,
      input_tokens_details: { cached_tokens: 1 },
      output_tokens: 9,
      output_tokens_details: { reasoning_tokens: 4 },
      total_tokens: 11,
    });
    // The SDK's accumulating helper checks the event order and rebuilds the response from the deltas.
    const final = await client().responses.stream({ model: 'gpt-5', input: 'hi' }).finalResponse();
    expect(final.output_text).toBe(replyText('gpt-5'));
    expect(final.usage?.output_tokens).toBe(9);
  });

  it('reads non-streamed answers and the 429 error', async () => {
    const completion = await client().chat.completions.create({ model: 'deepseek-chat', messages });
    expect(completion.choices[0]?.message.content).toBe(replyText('deepseek-chat'));
    const response = await client().responses.create({ model: 'gpt-5', input: 'hi' });
    expect(response.output_text).toBe(replyText('gpt-5'));
    const limited = client().chat.completions.create({ model: 'error-429', messages });
    await expect(limited).rejects.toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
  });
});

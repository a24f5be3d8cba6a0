import { describe, expect, it, vi } from 'vitest';
import { UsageReader } from '../../src/proxy/usage.js';

type Event = { event?: string; data: string };

function read(events: (Event | object | string)[]): UsageReader {
  const reader = new UsageReader();
  for (const item of events) {
    if (typeof item === 'string') reader.onEvent({ data: item });
    else if ('data' in item && typeof item.data === 'string') reader.onEvent(item as Event);
    else reader.onEvent({ data: JSON.stringify(item) });
  }
  return reader;
}

function chunk(extra: object = {}): object {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    model: 'gpt-4.1-2025-04-14',
    choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }],
    usage: null,
    ...extra,
  };
}

function responsesEvent(type: string, usage: object | null, model = 'gpt-5-2025-08-07'): Event {
  return {
    event: type,
    data: JSON.stringify({ type, response: { id: 'resp_1', model, status: 'x', usage } }),
  };
}

const OPENAI_USAGE = {
  prompt_tokens: 1200,
  completion_tokens: 300,
  total_tokens: 1500,
  prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 128, audio_tokens: 0 },
};

describe('UsageReader: OpenAI Chat Completions', () => {
  it('reads the final choices:[] chunk with cached and reasoning tokens, and finishes at [DONE]', () => {
    const reader = read([chunk(), chunk(), chunk({ choices: [], usage: OPENAI_USAGE })]);
    expect(reader.usage()).toEqual({
      promptTokens: 1200,
      cachedTokens: 1024,
      completionTokens: 300,
      reasoningTokens: 128,
      responseModel: 'gpt-4.1-2025-04-14',
    });
    expect(reader.finished).toBe(false);
    reader.onEvent({ data: '[DONE]' });
    expect(reader.finished).toBe(true);
  });

  it('finishes only at [DONE] exactly', () => {
    for (const data of [' [DONE]', '[DONE] ', '[done]', '"[DONE]"'])
      expect(read([data]).finished, data).toBe(false);
  });

  it('has no usage when every chunk says usage:null or none at all', () => {
    expect(read([chunk(), chunk(), '[DONE]']).usage()).toBeUndefined();
    expect(read([{ choices: [] }, '[DONE]']).usage()).toBeUndefined();
  });

  it('reads a non-streamed body’s top-level usage', () => {
    const reader = new UsageReader();
    reader.readBody(
      JSON.stringify({ object: 'chat.completion', model: 'gpt-4.1', choices: [], usage: OPENAI_USAGE }),
    );
    expect(reader.usage()).toMatchObject({
      promptTokens: 1200,
      cachedTokens: 1024,
      responseModel: 'gpt-4.1',
    });
    expect(reader.finished).toBe(true);
  });

  it('lets a later usage replace an earlier one counter by counter', () => {
    const reader = read([
      chunk({ usage: { prompt_tokens: 10, completion_tokens: 1 } }),
      chunk({ usage: { completion_tokens: 7 } }),
    ]);
    expect(reader.usage()).toMatchObject({ promptTokens: 10, completionTokens: 7 });
  });
});

describe('UsageReader: OpenRouter and DeepSeek', () => {
  it('reads OpenRouter’s cost and cache writes from the last content chunk', () => {
    const usage = {
      prompt_tokens: 5000,
      completion_tokens: 40,
      cost: 0.01234,
      cost_details: { upstream_inference_cost: null },
      prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 4800 },
      completion_tokens_details: { reasoning_tokens: 0 },
    };
    const last = chunk({
      model: 'anthropic/claude-sonnet-4',
      choices: [{ delta: {}, finish_reason: 'stop' }],
      usage,
    });
    expect(read([chunk(), last, '[DONE]']).usage()).toEqual({
      promptTokens: 5000,
      cachedTokens: 0,
      cacheWriteTokens: 4800,
      completionTokens: 40,
      reasoningTokens: 0,
      providerCostUSD: 0.01234,
      responseModel: 'anthropic/claude-sonnet-4',
    });
  });

  it('reads a cost of 0 as 0 and a negative or non-number cost as absent', () => {
    expect(read([chunk({ usage: { cost: 0 } })]).usage()?.providerCostUSD).toBe(0);
    expect(read([chunk({ usage: { cost: -0.5 } })]).usage()?.providerCostUSD).toBeUndefined();
    expect(read([chunk({ usage: { cost: '0.5' } })]).usage()?.providerCostUSD).toBeUndefined();
  });

  it.each([
    [
      'prompt_tokens when present',
      { prompt_tokens: 900, prompt_cache_hit_tokens: 600, prompt_cache_miss_tokens: 300 },
      900,
    ],
    [
      'hit + miss without prompt_tokens',
      { prompt_cache_hit_tokens: 600, prompt_cache_miss_tokens: 300 },
      900,
    ],
    ['nothing from a hit alone', { prompt_cache_hit_tokens: 600 }, undefined],
  ])('takes DeepSeek’s prompt as %s, and the hits as cached', (_name, usage, prompt) => {
    const result = read([
      chunk({ model: 'deepseek-chat', choices: [], usage: { ...usage, completion_tokens: 5 } }),
    ]).usage();
    expect(result?.promptTokens).toBe(prompt);
    expect(result?.cachedTokens).toBe(600);
  });
});

describe('UsageReader: the Responses API', () => {
  const usage = {
    input_tokens: 8000,
    input_tokens_details: { cached_tokens: 7000 },
    output_tokens: 900,
    output_tokens_details: { reasoning_tokens: 600 },
    total_tokens: 8900,
  };

  it.each(['response.completed', 'response.incomplete', 'response.failed'])(
    'reads %s and finishes',
    (type) => {
      const reader = read([
        responsesEvent('response.created', null),
        { event: 'response.output_text.delta', data: '{"type":"response.output_text.delta","delta":"Hi"}' },
      ]);
      expect(reader.finished).toBe(false);
      expect(reader.usage()).toBeUndefined();
      reader.onEvent(responsesEvent(type, usage));
      expect(reader.finished).toBe(true);
      expect(reader.usage()).toEqual({
        promptTokens: 8000,
        cachedTokens: 7000,
        completionTokens: 900,
        reasoningTokens: 600,
        responseModel: 'gpt-5-2025-08-07',
      });
    },
  );

  it('finishes on the data’s type without an event name, and not on response.in_progress', () => {
    expect(read([{ data: responsesEvent('response.completed', usage).data }]).finished).toBe(true);
    expect(read([responsesEvent('response.in_progress', null)]).finished).toBe(false);
  });

  it('reads OpenRouter’s cost in Responses usage', () => {
    expect(
      read([responsesEvent('response.completed', { ...usage, cost: 0.2 })]).usage()?.providerCostUSD,
    ).toBe(0.2);
  });

  it('reads a non-streamed Responses object’s top-level usage', () => {
    const reader = new UsageReader();
    reader.readBody(JSON.stringify({ object: 'response', model: 'gpt-5', output: [], usage }));
    expect(reader.usage()).toEqual({
      promptTokens: 8000,
      cachedTokens: 7000,
      completionTokens: 900,
      reasoningTokens: 600,
      responseModel: 'gpt-5',
    });
  });
});

describe('UsageReader: Anthropic Messages', () => {
  const start = {
    type: 'message_start',
    message: {
      id: 'msg_1',
      model: 'claude-sonnet-4-5',
      usage: {
        input_tokens: 10,
        cache_creation_input_tokens: 200,
        cache_read_input_tokens: 3000,
        output_tokens: 1,
      },
    },
  };

  it('adds the cache reads and writes to input_tokens, and takes message_delta’s output as the total', () => {
    const reader = read([
      { event: 'message_start', data: JSON.stringify(start) },
      { type: 'content_block_delta', delta: { type: 'text_delta', text: 'Hi' } },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 50 } },
    ]);
    expect(reader.usage()).toEqual({
      promptTokens: 3210,
      cachedTokens: 3000,
      cacheWriteTokens: 200,
      completionTokens: 50,
      responseModel: 'claude-sonnet-4-5',
    });
    expect(reader.finished).toBe(false);
    reader.onEvent({ event: 'message_stop', data: '{"type":"message_stop"}' });
    expect(reader.finished).toBe(true);
  });

  it('lets cumulative deltas replace the counters they carry and keep the others', () => {
    const reader = read([
      start,
      { type: 'message_delta', usage: { output_tokens: 20 } },
      {
        type: 'message_delta',
        usage: { input_tokens: 12, cache_read_input_tokens: 3100, output_tokens: 70 },
      },
    ]);
    expect(reader.usage()).toMatchObject({
      promptTokens: 3312,
      cachedTokens: 3100,
      cacheWriteTokens: 200,
      completionTokens: 70,
    });
  });

  it('counts absent cache counters as no cache, but no prompt without input_tokens', () => {
    expect(
      read([{ type: 'message_start', message: { usage: { input_tokens: 10 } } }]).usage()?.promptTokens,
    ).toBe(10);
    const noInput = read([
      { type: 'message_start', message: { usage: { cache_read_input_tokens: 5, output_tokens: 1 } } },
    ]);
    expect(noInput.usage()).toEqual({ cachedTokens: 5, completionTokens: 1 });
  });

  it('reads a non-streamed message body', () => {
    const reader = new UsageReader();
    reader.readBody(
      JSON.stringify({
        type: 'message',
        model: 'claude-opus-4',
        usage: { input_tokens: 100, output_tokens: 9 },
      }),
    );
    expect(reader.usage()).toEqual({
      promptTokens: 100,
      completionTokens: 9,
      responseModel: 'claude-opus-4',
    });
  });
});

describe('UsageReader: malformed data', () => {
  it('drops a counter of the wrong type, negative, fractional or unsafe, and keeps the others', () => {
    for (const bad of ['12', -1, 1.5, 2 ** 53, null, true]) {
      const usage = {
        prompt_tokens: bad,
        completion_tokens: 3,
        prompt_tokens_details: { cached_tokens: bad },
      };
      expect(read([chunk({ usage })]).usage(), String(bad)).toEqual({
        completionTokens: 3,
        responseModel: 'gpt-4.1-2025-04-14',
      });
    }
    expect(
      read([chunk({ usage: { prompt_tokens: 0, completion_tokens: 2 ** 53 - 1 } })]).usage(),
    ).toMatchObject({
      promptTokens: 0,
      completionTokens: 2 ** 53 - 1,
    });
  });

  it('learns nothing from bad JSON or a usage that is not an object, and never throws', () => {
    const reader = read([
      '{"usage": {"prompt_tokens": 5',
      '{"choices":[],"usage":"lots"}',
      '{"choices":[],"usage":[1,2]}',
      '"usage"',
      'null',
      '{"type":"message_start","message":"usage"}',
      '{"type":"message_delta","usage":7}',
      { event: 'message_stop', data: 'not json' },
    ]);
    expect(reader.usage()).toBeUndefined();
    expect(reader.finished).toBe(false);
    const body = new UsageReader();
    body.readBody('<html>502 Bad Gateway</html>');
    body.readBody('[{"usage":{"prompt_tokens":1}}]');
    expect(body.usage()).toBeUndefined();
    expect(body.finished).toBe(false);
  });

  it('finishes at a terminal event whose usage is unreadable, learning no usage', () => {
    const reader = read(['{"type":"response.completed","response":null,"usage":1}']);
    expect(reader.finished).toBe(true);
    expect(reader.usage()).toBeUndefined();
  });

  it('finishes a body once it parses as an object, usage or not', () => {
    const reader = new UsageReader();
    reader.readBody('{"error":{"message":"rate limited"}}');
    expect(reader.finished).toBe(true);
    expect(reader.usage()).toBeUndefined();
  });

  it('keeps the answer’s model printable and at most 200 characters', () => {
    const model = 'gpt\u001b]0;x\u0007' + 'm'.repeat(300);
    const result = read([chunk({ model, choices: [], usage: { prompt_tokens: 1 } })]).usage();
    expect(result?.responseModel).toBe('gpt?]0;x?' + 'm'.repeat(191));
  });

  it('parses no event that neither mentions usage nor is a terminal marker', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const reader = new UsageReader();
      reader.onEvent({ data: '{"choices":[{"delta":{"content":"Hi"}}]}' });
      reader.onEvent({ event: 'content_block_delta', data: '{"type":"content_block_delta"}' });
      expect(parse).not.toHaveBeenCalled();
      reader.onEvent({ data: '{"choices":[],"usage":{"prompt_tokens":3}}' });
      reader.onEvent({ data: '{"type":"message_stop"}' });
      expect(parse).toHaveBeenCalledTimes(2);
      expect(reader.finished).toBe(true);
    } finally {
      parse.mockRestore();
    }
  });

  it('parses no chunk whose only usage is "usage":null, but one that also holds counts', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const reader = new UsageReader();
      reader.onEvent({ data: JSON.stringify(chunk()) });
      expect(parse).not.toHaveBeenCalled();
      reader.onEvent({
        data: '{"usage":null,"type":"response.completed","response":{"usage":{"input_tokens":7,"output_tokens":2}}}',
      });
      reader.onEvent({ data: '{"choices":[],"usage": null}' });
      expect(parse).toHaveBeenCalledTimes(2);
      expect(reader.usage()).toMatchObject({ promptTokens: 7, completionTokens: 2 });
    } finally {
      parse.mockRestore();
    }
  });
});

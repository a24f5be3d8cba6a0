import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createStreamTap, MAX_EVENT } from '../../src/proxy/stream-tap.js';
import type { RequestUsage } from '../../src/proxy/usage.js';

const USAGE = {
  prompt_tokens: 1200,
  completion_tokens: 300,
  total_tokens: 1500,
  prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 128, audio_tokens: 0 },
};

const EXPECTED_USAGE: RequestUsage = {
  promptTokens: 1200,
  cachedTokens: 1024,
  completionTokens: 300,
  reasoningTokens: 128,
  responseModel: 'gpt-4.1-2025-04-14',
};

/** A chunk in OpenAI's member order; include_usage puts `usage` between `choices` and `obfuscation`. */
function chunk(choices: unknown[], includeUsage: boolean, usage: unknown = null): string {
  const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1-2025-04-14' };
  const value = includeUsage
    ? { ...head, system_fingerprint: 'fp_1', choices, usage, obfuscation: 'x1' }
    : { ...head, system_fingerprint: 'fp_1', choices, obfuscation: 'x1' };
  return JSON.stringify(value);
}

function delta(content: string, finish: string | null = null): unknown[] {
  return [{ index: 0, delta: { content }, logprobs: null, finish_reason: finish }];
}

/**
 * A realistic Chat Completions stream, as an upstream sends it with or without include_usage: a keep-alive
 * comment, an `id:` line, multi-byte text, the usage frame and [DONE].
 */
function openAiStream(includeUsage: boolean, eol = '\n'): Buffer {
  const events = [
    `: keep-alive`,
    `data: ${chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }], includeUsage)}`,
    `id: 2${eol}data: ${chunk(delta('Hé'), includeUsage)}`,
    `data: ${chunk(delta('llo 😀 中文'), includeUsage)}`,
    `data: ${chunk(delta('', 'stop'), includeUsage)}`,
    ...(includeUsage ? [`data: ${chunk([], true, USAGE)}`] : []),
    'data: [DONE]',
  ];
  return Buffer.from(events.map((event) => event + eol + eol).join(''), 'utf8');
}

function runTap(strip: boolean, parts: Buffer[]) {
  const tap = createStreamTap({ strip });
  const out = parts.map((part) => tap.push(part));
  out.push(tap.end());
  return { output: Buffer.concat(out), usage: tap.reader.usage(), finished: tap.reader.finished, out };
}

/**
 * Every chunk boundary, 0 to length. The loops over them collect the failing positions and assert once,
 * which also names them all: two `expect`s per position took ~0.08 s of this file's ~0.6 s.
 */
function positions(buffer: Buffer): number[] {
  return Array.from({ length: buffer.length + 1 }, (_, at) => at);
}

function splitAt(buffer: Buffer, at: number): Buffer[] {
  return [buffer.subarray(0, at), buffer.subarray(at)];
}

function bytewise(buffer: Buffer): Buffer[] {
  return [...buffer].map((byte) => Buffer.from([byte]));
}

describe('createStreamTap: pass-through', () => {
  it('returns the very same Buffers, whose bytes concatenate to the input, and reads the usage', () => {
    const stream = openAiStream(true);
    const parts = [stream.subarray(0, 100), stream.subarray(100, 101), stream.subarray(101)];
    const { output, out, usage, finished } = runTap(false, parts);
    for (const [i, part] of parts.entries()) expect(out[i]).toBe(part);
    expect(out.at(-1)).toHaveLength(0);
    expect(output.equals(stream)).toBe(true);
    expect(usage).toEqual(EXPECTED_USAGE);
    expect(finished).toBe(true);
  });

  it('reads the same usage whatever the chunk boundaries, inside a character or between CR and LF', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const stream = openAiStream(true, eol);
      const wrong = positions(stream).filter((at) => {
        const result = runTap(false, splitAt(stream, at));
        return !(isDeepStrictEqual(result.usage, EXPECTED_USAGE) && result.finished);
      });
      expect(wrong, `${JSON.stringify(eol)}: the boundaries that read another usage or no end`).toEqual([]);
      expect(runTap(false, bytewise(stream)).usage).toEqual(EXPECTED_USAGE);
    }
  });

  it('still reads a last event the upstream did not end with a blank line', () => {
    const stream = Buffer.from(`data: ${chunk([], true, USAGE)}\n\ndata: [DONE]`);
    expect(runTap(false, [stream]).finished).toBe(true);
    const cut = Buffer.from(`data: ${chunk([], true, USAGE)}`);
    expect(runTap(false, [cut]).usage).toEqual(EXPECTED_USAGE);
  });
});

describe('createStreamTap: stripping what include_usage added', () => {
  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])(
    'sends what the upstream sends without include_usage, and counts the dropped frame (%s)',
    (_name, eol) => {
      const upstream = openAiStream(true, eol);
      const expected = openAiStream(false, eol);
      const whole = runTap(true, [upstream]);
      expect(whole.output.toString('utf8')).toBe(expected.toString('utf8'));
      expect(whole.usage).toEqual(EXPECTED_USAGE);
      expect(whole.finished).toBe(true);
      expect(whole.output.toString('utf8')).toContain(`data: [DONE]${eol}${eol}`);
    },
  );

  it('gives identical output and usage for a chunk boundary at every byte position', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const upstream = openAiStream(true, eol);
      const expected = openAiStream(false, eol);
      const wrong = positions(upstream).filter((at) => {
        const result = runTap(true, splitAt(upstream, at));
        return !(result.output.equals(expected) && isDeepStrictEqual(result.usage, EXPECTED_USAGE));
      });
      expect(wrong, `${JSON.stringify(eol)}: the boundaries with other output or usage`).toEqual([]);
      const byByte = runTap(true, bytewise(upstream));
      expect(byByte.output.equals(expected)).toBe(true);
      expect(byByte.usage).toEqual(EXPECTED_USAGE);
    }
  });

  it('holds back only the incomplete event: complete events go out at once', () => {
    const tap = createStreamTap({ strip: true });
    const first = `data: ${chunk(delta('Hi'), true)}\n\n`;
    const out = tap.push(Buffer.from(first + 'data: {"choi'));
    expect(out.toString('utf8')).toBe(`data: ${chunk(delta('Hi'), false)}\n\n`);
    expect(tap.push(Buffer.from('ces":[]}\n')).length).toBe(0);
    expect(tap.push(Buffer.from('\n')).toString('utf8')).toBe('data: {"choices":[]}\n\n');
  });

  it('ends with the bytes of an unfinished event unchanged', () => {
    const tail = `data: ${chunk(delta('Hi'), true)}\n`;
    const tap = createStreamTap({ strip: true });
    expect(tap.push(Buffer.from(tail)).length).toBe(0);
    expect(tap.end().toString('utf8')).toBe(tail);
  });

  it('drops a usage frame that ends the stream right after a blank line’s CR', () => {
    const stream = Buffer.from(
      `data: ${chunk(delta('Hi'), true)}\r\r` + `data: ${chunk([], true, USAGE)}\r\r`,
    );
    const result = runTap(true, [stream]);
    expect(result.output.toString('utf8')).toBe(`data: ${chunk(delta('Hi'), false)}\r\r`);
    expect(result.usage).toEqual(EXPECTED_USAGE);
  });

  it('keeps a content chunk that carries usage, without its usage member', () => {
    const last = chunk(delta('', 'stop'), true, USAGE);
    const result = runTap(true, [Buffer.from(`data: ${last}\n\ndata: [DONE]\n\n`)]);
    expect(result.output.toString('utf8')).toBe(
      `data: ${chunk(delta('', 'stop'), false)}\n\ndata: [DONE]\n\n`,
    );
    expect(result.usage).toEqual(EXPECTED_USAGE);
  });

  it('drops the whole usage frame, its event and id lines included', () => {
    const stream = `event: message\nid: 9\ndata: ${chunk([], true, USAGE)}\n\ndata: [DONE]\n\n`;
    expect(runTap(true, [Buffer.from(stream)]).output.toString('utf8')).toBe('data: [DONE]\n\n');
  });

  it('keeps a choices:[] chunk whose usage is null (Azure’s filter results), without the member', () => {
    const stream = 'data: {"choices":[],"prompt_filter_results":[],"usage":null}\n\n';
    expect(runTap(true, [Buffer.from(stream)]).output.toString('utf8')).toBe(
      'data: {"choices":[],"prompt_filter_results":[]}\n\n',
    );
  });

  it('passes unchanged every event without a top-level usage member, however it is formatted', () => {
    const events = [
      'data:  {"choices": [{"delta": {"content": "the usage is high"}}]}\n\n',
      'data: {"choices":[{"delta":{"usage":null}}]}\n\n',
      ': usage comment\n\n',
      'data: not json, but usage\n\n',
      'data: ["usage"]\n\n',
      'data: [DONE]\n\n',
    ];
    const stream = Buffer.from(events.join(''));
    expect(runTap(true, [stream]).output.equals(stream)).toBe(true);
  });

  it('passes unchanged an event that is not UTF-8 rather than rewriting it', () => {
    const bad = Buffer.concat([
      Buffer.from('data: {"x":"'),
      Buffer.from([0xff]),
      Buffer.from('","usage":null}\n\n'),
    ]);
    expect(runTap(true, [bad]).output.equals(bad)).toBe(true);
  });

  it('joins a usage chunk split over several data lines into one rewritten data line', () => {
    const stream = 'data: {"choices":[{"delta":{}}],\ndata: "usage":null}\n\n';
    expect(runTap(true, [Buffer.from(stream)]).output.toString('utf8')).toBe(
      'data: {"choices":[{"delta":{}}]}\n\n',
    );
  });

  it('keeps "data:" without a space as it came', () => {
    const stream = `data:${chunk(delta('Hi'), true)}\n\n`;
    expect(runTap(true, [Buffer.from(stream)]).output.toString('utf8')).toBe(
      `data:${chunk(delta('Hi'), false)}\n\n`,
    );
  });

  it('holds an event of exactly the limit, passes one byte more as it comes, and strips again after it', () => {
    // The proxy's limit is MAX_EVENT; the same code with a 64 KiB limit crosses it without 32 MiB of bytes.
    expect(MAX_EVENT).toBe(32 * 1024 * 1024);
    const maxEvent = 64 * 1024;
    const tap = createStreamTap({ strip: true, maxEvent });
    const piece = Buffer.alloc(maxEvent / 4, 0x61);
    for (let i = 0; i < 4; i++) expect(tap.push(piece).length).toBe(0);
    // Once the held event outgrows the limit, everything held so far goes out and the rest follows at once.
    expect(tap.push(Buffer.from('a')).length).toBe(maxEvent + 1);
    expect(tap.push(piece).length).toBe(piece.length);
    expect(tap.push(Buffer.from('\n\n')).toString('utf8')).toBe('\n\n');
    const frame = `data: ${chunk([], true, USAGE)}\n\n`;
    expect(tap.push(Buffer.from(frame)).length).toBe(0);
    expect(tap.reader.usage()).toEqual(EXPECTED_USAGE);
  });
});

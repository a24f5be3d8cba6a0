/**
 * The fake upstream's token counts: deterministic functions of the request body, so a test can compute
 * what the proxy's ledger must hold (`expectedUsage`) without reading the answer.
 *
 * The rule:
 * - P (prompt) = the characters (UTF-16 code units) of the prompt text: every string `content` of
 *   `messages` (Chat) or of `input` items (Responses), plus the `text` of every content part in an array
 *   `content`; a string `input` counts itself. Nothing else in the body counts.
 * - cached = floor(P / 2); OpenRouter's cache_write_tokens = floor(P / 4).
 * - reasoning = 4; completion = the reply's content pieces + reasoning (5 + 4 = 9; model `big`: 2000 + 4).
 * - OpenRouter's cost (USD) = (2 P + 8 completion) / 1e6.
 * - DeepSeek: prompt_cache_hit_tokens = cached, prompt_cache_miss_tokens = P - cached.
 */

export type Dialect = 'chat' | 'responses';
export type Provider = 'openai' | 'openrouter' | 'deepseek';
type Json = Record<string, unknown>;

const REASONING_TOKENS = 4;
const REPLY = ['Hello', ' from', ' the', ' fake', ' upstream.'];
const BIG_PIECES = 2000;

/** The normalised usage the proxy should record (the field names of its RequestUsage); absent = not reported. */
export interface ExpectedUsage {
  promptTokens: number;
  cachedTokens: number;
  cacheWriteTokens?: number;
  completionTokens: number;
  reasoningTokens: number;
  providerCostUSD?: number;
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** 'chat' for a body with `messages`, 'responses' for one with `input` (on either path), else undefined. */
export function dialectOf(body: Json): Dialect | undefined {
  if (Array.isArray(body.messages)) return 'chat';
  if (typeof body.input === 'string' || Array.isArray(body.input)) return 'responses';
  return undefined;
}

/** Whose usage format a Chat Completions answer uses, by the request's model. */
export function providerOf(model: string): Provider {
  if (model.startsWith('openrouter/')) return 'openrouter';
  if (model === 'deepseek-chat' || model === 'deepseek-reasoner') return 'deepseek';
  return 'openai';
}

/** The content pieces of the reply, one per content chunk (or output_text delta). */
export function replyPieces(model: string): string[] {
  return model === 'big' ? Array.from({ length: BIG_PIECES }, (_, i) => `tok${i} `) : REPLY;
}

/** The whole reply text for a model. */
export function replyText(model: string): string {
  return replyPieces(model).join('');
}

function contentChars(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const part of content) if (isObject(part) && typeof part.text === 'string') chars += part.text.length;
  return chars;
}

function promptChars(body: Json): number {
  if (typeof body.input === 'string') return body.input.length;
  const items = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : [];
  let chars = 0;
  for (const item of items) if (isObject(item)) chars += contentChars(item.content);
  return chars;
}

export interface Counts {
  prompt: number;
  cached: number;
  cacheWrite: number;
  completion: number;
  reasoning: number;
  cost: number;
}

export function countsOf(body: Json): Counts {
  const prompt = promptChars(body);
  const model = typeof body.model === 'string' ? body.model : '';
  const completion = replyPieces(model).length + REASONING_TOKENS;
  return {
    prompt,
    cached: Math.floor(prompt / 2),
    cacheWrite: Math.floor(prompt / 4),
    completion,
    reasoning: REASONING_TOKENS,
    cost: (2 * prompt + 8 * completion) / 1_000_000,
  };
}

/** The `usage` object of a Chat Completions answer, in the provider's own format. */
export function chatUsage(provider: Provider, n: Counts): Json {
  const totals = {
    prompt_tokens: n.prompt,
    completion_tokens: n.completion,
    total_tokens: n.prompt + n.completion,
  };
  if (provider === 'deepseek') {
    return {
      ...totals,
      completion_tokens_details: { reasoning_tokens: n.reasoning },
      prompt_cache_hit_tokens: n.cached,
      prompt_cache_miss_tokens: n.prompt - n.cached,
    };
  }
  if (provider === 'openrouter') {
    return {
      ...totals,
      cost: n.cost,
      is_byok: false,
      prompt_tokens_details: {
        cached_tokens: n.cached,
        cache_write_tokens: n.cacheWrite,
        audio_tokens: 0,
        video_tokens: 0,
      },
      cost_details: {
        upstream_inference_cost: n.cost,
        upstream_inference_prompt_cost: (2 * n.prompt) / 1_000_000,
        upstream_inference_completions_cost: (8 * n.completion) / 1_000_000,
      },
      completion_tokens_details: { reasoning_tokens: n.reasoning, image_tokens: 0, audio_tokens: 0 },
    };
  }
  return {
    ...totals,
    prompt_tokens_details: { cached_tokens: n.cached, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: n.reasoning,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** The `usage` object of a Responses answer (every model: the Responses dialect is always OpenAI's). */
export function responsesUsage(n: Counts): Json {
  return {
    input_tokens: n.prompt,
    input_tokens_details: { cached_tokens: n.cached },
    output_tokens: n.completion,
    output_tokens_details: { reasoning_tokens: n.reasoning },
    total_tokens: n.prompt + n.completion,
  };
}

const NO_USAGE = new Set(['error-429', 'error-500', 'redirect', 'hang', 'cut']);

/**
 * The usage the fake reports for this request body (parsed, or its raw bytes), normalised as the ledger
 * stores it; undefined for the scenarios that never report one (errors, redirect, hang, cut) and for a body
 * the fake rejects. The numbers do not depend on `stream` or `include_usage`: whether an OpenAI or DeepSeek
 * Chat stream carries them at all does (only with `stream_options.include_usage: true`).
 */
export function expectedUsage(body: unknown): ExpectedUsage | undefined {
  let parsed = body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    try {
      parsed = JSON.parse(body.toString());
    } catch {
      return undefined;
    }
  }
  if (!isObject(parsed) || typeof parsed.model !== 'string' || parsed.model === '') return undefined;
  const dialect = dialectOf(parsed);
  if (dialect === undefined || NO_USAGE.has(parsed.model)) return undefined;
  const n = countsOf(parsed);
  const usage: ExpectedUsage = {
    promptTokens: n.prompt,
    cachedTokens: n.cached,
    completionTokens: n.completion,
    reasoningTokens: n.reasoning,
  };
  if (dialect === 'chat' && providerOf(parsed.model) === 'openrouter') {
    usage.cacheWriteTokens = n.cacheWrite;
    usage.providerCostUSD = n.cost;
  }
  return usage;
}

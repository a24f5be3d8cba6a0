import { printableModel } from './request-body.js';
import {
  type AnthropicUsage,
  anthropicUsageSchema,
  type ChatUsage,
  chatUsageSchema,
  type ResponsesUsage,
  responsesUsageSchema,
} from './usage-schemas.js';

/**
 * What a request used, read from the upstream's answer in whichever dialect it comes (the request's dialect
 * says nothing about the answer's: Cursor sends Responses bodies to /chat/completions, and a gateway may answer
 * in Anthropic's format). Pure: it is fed SSE events or a whole JSON body and never throws; an event it cannot
 * read teaches it nothing.
 */

/** The usage of one request. Absent = not reported (never 0 by default). */
export interface RequestUsage {
  /** The whole prompt, cache reads and cache writes included. */
  promptTokens?: number;
  /** Cache reads inside promptTokens. */
  cachedTokens?: number;
  /** Cache writes inside promptTokens. */
  cacheWriteTokens?: number;
  /** Output tokens, reasoning included. */
  completionTokens?: number;
  /** Reasoning tokens inside completionTokens. */
  reasoningTokens?: number;
  /** The provider-reported cost in USD (OpenRouter `usage.cost`), when the provider says one. */
  providerCostUSD?: number;
  /** `model` as the answer names it, printable, at most 200 chars. */
  responseModel?: string;
}

type JsonObject = Record<string, unknown>;

const TERMINAL_TYPES = new Set([
  'response.completed',
  'response.incomplete',
  'response.failed',
  'message_stop',
]);
const TERMINAL_TEXT = /response\.(?:completed|incomplete|failed)|message_stop/;

/** Whether an event's data may carry counts: it names `usage`, other than as `"usage":null` alone. */
function mayHoldUsage(data: string): boolean {
  const at = data.indexOf('usage');
  if (at === -1) return false;
  return !data.startsWith('":null', at + 5) || data.indexOf('usage', at + 5) !== -1;
}

export class UsageReader {
  #usage: RequestUsage = {};
  #seen = false;
  #finished = false;
  /** Anthropic's raw counters: each message_delta replaces those it carries and keeps the rest. */
  #anthropic: AnthropicUsage = {};

  /** One SSE event (from eventsource-parser): its `event` name (may be undefined) and `data`. */
  onEvent(event: { event?: string; data: string }): void {
    const { data } = event;
    if (data === '[DONE]') {
      this.#finished = true;
      return;
    }
    const named = event.event !== undefined && TERMINAL_TYPES.has(event.event);
    // The hot path: most events are content deltas, which are never parsed; with include_usage each of
    // them also says `"usage":null`, which holds no usage either.
    if (!named && !mayHoldUsage(data) && !TERMINAL_TEXT.test(data)) return;
    const value = parseObject(data);
    if (!value) return;
    this.#read(value);
    const type = typeof value.type === 'string' ? value.type : undefined;
    if (type === undefined ? named : TERMINAL_TYPES.has(type)) this.#finished = true;
  }

  /** A whole non-streamed JSON answer body (text). */
  readBody(text: string): void {
    const value = parseObject(text);
    if (!value) return;
    this.#read(value);
    this.#finished = true;
  }

  /** What was seen so far, or undefined when no usage at all was seen. */
  usage(): RequestUsage | undefined {
    return this.#seen ? { ...this.#usage } : undefined;
  }

  /**
   * The answer reached its terminal marker: `[DONE]` (Chat), `response.completed|incomplete|failed`
   * (Responses), `message_stop` (Anthropic); for readBody, a JSON object parsed.
   */
  get finished(): boolean {
    return this.#finished;
  }

  #read(value: JsonObject): void {
    const type = typeof value.type === 'string' ? value.type : undefined;
    if (type === 'message_start') {
      const message = isObject(value.message) ? value.message : {};
      this.#readAnthropic(message.usage, message.model);
    } else if (type === 'message_delta') {
      this.#readAnthropic(value.usage, undefined);
    } else if (type?.startsWith('response.')) {
      const response = isObject(value.response) ? value.response : {};
      this.#readResponses(response.usage, response.model);
    } else if (isObject(value.usage)) {
      this.#readTopLevel(value, value.usage);
    }
  }

  /** A `usage` beside the answer's other members: a Chat chunk or body, a Responses or Anthropic body. */
  #readTopLevel(value: JsonObject, usage: JsonObject): void {
    if (hasAny(usage, ['prompt_tokens', 'completion_tokens'])) this.#readChat(usage, value.model);
    else if (
      value.type === 'message' ||
      hasAny(usage, ['cache_creation_input_tokens', 'cache_read_input_tokens'])
    )
      this.#readAnthropic(usage, value.model);
    else if (hasAny(usage, ['input_tokens', 'output_tokens'])) this.#readResponses(usage, value.model);
    else this.#readChat(usage, value.model);
  }

  #readChat(raw: unknown, model: unknown): void {
    const parsed = chatUsageSchema.safeParse(raw);
    if (parsed.success) this.#merge(fromChat(parsed.data), model);
  }

  #readResponses(raw: unknown, model: unknown): void {
    const parsed = responsesUsageSchema.safeParse(raw);
    if (parsed.success) this.#merge(fromResponses(parsed.data), model);
  }

  #readAnthropic(raw: unknown, model: unknown): void {
    const parsed = anthropicUsageSchema.safeParse(raw);
    if (!parsed.success) return;
    // message_delta's usage is cumulative: a counter it carries replaces the earlier one, and a counter it
    // leaves out keeps message_start's value.
    const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens } = parsed.data;
    const counters = { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens };
    this.#anthropic = { ...this.#anthropic, ...defined(counters) };
    this.#merge(fromAnthropic(this.#anthropic), model);
  }

  /** Later reports replace earlier ones counter by counter: the last usage a stream sends is its total. */
  #merge(usage: RequestUsage, model: unknown): void {
    this.#seen = true;
    const responseModel = printableModel(model);
    Object.assign(this.#usage, defined({ ...usage, responseModel }));
  }
}

function fromChat(usage: ChatUsage): RequestUsage {
  // DeepSeek reports the cache as hit + miss = prompt instead of cached_tokens.
  const prompt = usage.prompt_tokens ?? sum(usage.prompt_cache_hit_tokens, usage.prompt_cache_miss_tokens);
  return {
    promptTokens: prompt,
    cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens,
    cacheWriteTokens: usage.prompt_tokens_details?.cache_write_tokens,
    completionTokens: usage.completion_tokens,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens,
    providerCostUSD: usage.cost,
  };
}

function fromResponses(usage: ResponsesUsage): RequestUsage {
  return {
    promptTokens: usage.input_tokens,
    cachedTokens: usage.input_tokens_details?.cached_tokens,
    completionTokens: usage.output_tokens,
    reasoningTokens: usage.output_tokens_details?.reasoning_tokens,
    providerCostUSD: usage.cost,
  };
}

function fromAnthropic(usage: AnthropicUsage): RequestUsage {
  const reads = usage.cache_read_input_tokens;
  const writes = usage.cache_creation_input_tokens;
  // Anthropic's input_tokens leaves the cache out; the prompt is all three. A cache counter that is not sent
  // means no cache was used, but without input_tokens the prompt is unknown.
  const prompt =
    usage.input_tokens === undefined ? undefined : sum(usage.input_tokens, sum(reads ?? 0, writes ?? 0));
  return {
    promptTokens: prompt,
    cachedTokens: reads,
    cacheWriteTokens: writes,
    completionTokens: usage.output_tokens,
  };
}

function sum(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined || b === undefined) return undefined;
  const total = a + b;
  return Number.isSafeInteger(total) ? total : undefined;
}

function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

function hasAny(value: JsonObject, keys: readonly string[]): boolean {
  return keys.some((key) => value[key] !== undefined && value[key] !== null);
}

function parseObject(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

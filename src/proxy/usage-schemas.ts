import { z } from 'zod';

/**
 * The usage objects upstreams answer with, one schema per format. Providers differ in which counters they
 * send, so every field is optional, unknown keys are kept out of the way, and a field that is not what it
 * should be (a count that is not a non-negative safe integer, a cost that is not a finite number >= 0, null)
 * reads as absent instead of failing the whole object: a wrong counter is never guessed, and never costs the
 * others.
 */

const count = z.number().int().min(0).optional().catch(undefined);
const cost = z.number().min(0).optional().catch(undefined);

function details<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.looseObject(shape).optional().catch(undefined);
}

/** Chat Completions, with OpenRouter's cost and cache writes and DeepSeek's cache hit and miss counters. */
export const chatUsageSchema = z.looseObject({
  prompt_tokens: count,
  completion_tokens: count,
  prompt_tokens_details: details({ cached_tokens: count, cache_write_tokens: count }),
  completion_tokens_details: details({ reasoning_tokens: count }),
  prompt_cache_hit_tokens: count,
  prompt_cache_miss_tokens: count,
  cost,
});

/** The Responses API (`input_tokens` includes the cached ones), with OpenRouter's cost. */
export const responsesUsageSchema = z.looseObject({
  input_tokens: count,
  input_tokens_details: details({ cached_tokens: count }),
  output_tokens: count,
  output_tokens_details: details({ reasoning_tokens: count }),
  cost,
});

/** Anthropic Messages: `input_tokens` excludes the cache reads and writes counted beside it. */
export const anthropicUsageSchema = z.looseObject({
  input_tokens: count,
  cache_creation_input_tokens: count,
  cache_read_input_tokens: count,
  output_tokens: count,
});

export type ChatUsage = z.infer<typeof chatUsageSchema>;
export type ResponsesUsage = z.infer<typeof responsesUsageSchema>;
export type AnthropicUsage = z.infer<typeof anthropicUsageSchema>;

/**
 * Retries for one events page. A heavy account pages up to 200 times, so a transient 5xx, a reset connection
 * or a slow page should not throw away a whole run; but an answer that will not change (401, 403, other 4xx,
 * a body that does not parse) is final at once.
 */
import { ApiError, TimeoutError } from '../errors.js';

export interface RetryPolicy {
  /** Retries after a 5xx, a transport failure or a timeout. */
  maxRetries: number;
  /** Waits granted for 429 answers. */
  maxRateLimitRetries: number;
  /** First backoff; doubles on each retry. */
  baseDelayMs: number;
  /** The longest Retry-After waited out; a 429 asking for longer fails at once (docs/invariants.md). */
  maxRetryAfterMs: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told before each wait, e.g. to show `waiting 18 s for the rate limit`. */
  onRetry?: (retry: { rateLimited: boolean; delayMs: number }) => void;
}

/**
 * The longest timer Node keeps: it runs a longer one after 1 ms, so a wait past it would spin
 * (docs/invariants.md, "No partial total").
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  maxRateLimitRetries: 3,
  baseDelayMs: 500,
  maxRetryAfterMs: 10_000,
  // Loaded on the first wait: most runs never retry (bench/README.md, Start-up).
  sleep: (ms, signal) =>
    process
      .getBuiltinModule('node:timers/promises')
      .setTimeout(Math.min(ms, MAX_TIMER_MS), undefined, { signal }),
};

/** A 429 whose Retry-After is past the policy's cap: waiting that long is not a retry, it is a failure. */
function tooLongToWait(error: ApiError): ApiError {
  const seconds = Math.ceil((error.retryAfterMs ?? 0) / 1000);
  return new ApiError(error.endpoint, `rate limited for ${seconds} s; try again later`, {
    status: 429,
    retryAfterMs: error.retryAfterMs,
    hint: error.hint,
  });
}

type RetryDecision = { kind: 'transient' } | { kind: 'rateLimited' } | { kind: 'final' };

function classify(error: unknown): RetryDecision {
  if (error instanceof TimeoutError) return { kind: 'transient' };
  if (error instanceof ApiError) {
    if (error.status === 429) return { kind: 'rateLimited' };
    if (error.transport || (error.status !== undefined && error.status >= 500)) return { kind: 'transient' };
  }
  return { kind: 'final' };
}

/** Runs `attempt` until it succeeds, a final error occurs, or the retry budget is spent (last error wins). */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  policy: Partial<RetryPolicy> = {},
  signal?: AbortSignal,
): Promise<T> {
  const rules = { ...DEFAULT_RETRY_POLICY, ...policy };
  let transientRetries = 0;
  let rateLimitRetries = 0;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (signal?.aborted) throw error;
      const decision = classify(error);
      let delayMs: number;
      if (decision.kind === 'rateLimited' && rateLimitRetries < rules.maxRateLimitRetries) {
        delayMs = rules.baseDelayMs * 2 ** rateLimitRetries++;
      } else if (decision.kind === 'transient' && transientRetries < rules.maxRetries) {
        delayMs = rules.baseDelayMs * 2 ** transientRetries++;
      } else {
        throw error;
      }
      if (error instanceof ApiError && error.retryAfterMs !== undefined) {
        if (decision.kind === 'rateLimited' && error.retryAfterMs > rules.maxRetryAfterMs)
          throw tooLongToWait(error);
        delayMs = Math.min(error.retryAfterMs, rules.maxRetryAfterMs);
      }
      rules.onRetry?.({ rateLimited: decision.kind === 'rateLimited', delayMs });
      await rules.sleep(delayMs, signal);
    }
  }
}

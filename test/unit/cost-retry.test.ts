import { describe, expect, it } from 'vitest';
import { ApiError, NotLoggedInError, ParseError, TimeoutError } from '../../src/errors.js';
import { DEFAULT_RETRY_POLICY, withRetry } from '../../src/lib/retry.js';

const ENDPOINT = 'POST /api/dashboard/get-filtered-usage-events';
const http = (status: number, retryAfterMs?: number) =>
  new ApiError(ENDPOINT, `HTTP ${status}`, { status, retryAfterMs });

/** Fails with the given errors in turn, then succeeds; records every wait instead of sleeping. */
async function attempt(errors: Error[], policy: Parameters<typeof withRetry>[1] = {}) {
  const waits: number[] = [];
  let calls = 0;
  const queue = [...errors];
  try {
    const value = await withRetry(
      async () => {
        calls++;
        const next = queue.shift();
        if (next) throw next;
        return 'ok';
      },
      { baseDelayMs: 100, ...policy, sleep: async (ms) => void waits.push(ms) },
    );
    return { value, calls, waits };
  } catch (error) {
    return { error: (error as Error).message, calls, waits };
  }
}

describe('events page retries', () => {
  it.each([
    ['a 500', http(500)],
    ['a 503', http(503)],
    ['a reset connection', new ApiError(ENDPOINT, 'ECONNRESET: other side closed', { transport: true })],
    ['a timeout', new TimeoutError(ENDPOINT, 15_000)],
  ])('%s is retried with exponential backoff', async (_label, error) => {
    expect(await attempt([error, error])).toEqual({ value: 'ok', calls: 3, waits: [100, 200] });
  });

  it('after two retries the last error ends the run', async () => {
    const result = await attempt([http(500), http(502), http(504)]);
    expect(result).toEqual({
      error: `Cursor API error: HTTP 504 (${ENDPOINT})`,
      calls: 3,
      waits: [100, 200],
    });
  });

  it('429 waits exactly Retry-After', async () => {
    expect(await attempt([http(429, 1500)])).toEqual({ value: 'ok', calls: 2, waits: [1500] });
  });

  it('429 without Retry-After backs off', async () => {
    expect(await attempt([http(429), http(429)])).toEqual({ value: 'ok', calls: 3, waits: [100, 200] });
  });

  it('a 429 whose Retry-After is the cap is waited out; 1 ms more fails at once, naming the wait asked', async () => {
    expect(await attempt([http(429, 10_000)])).toEqual({ value: 'ok', calls: 2, waits: [10_000] });
    expect(await attempt([http(429, 10_001)])).toEqual({
      error: `Cursor API error: rate limited for 11 s; try again later (${ENDPOINT})`,
      calls: 1,
      waits: [],
    });
  });

  it('a 503 whose Retry-After is past the cap is waited for the cap, then asked again', async () => {
    expect(await attempt([http(503, 120_000)])).toEqual({ value: 'ok', calls: 2, waits: [10_000] });
  });

  it('the real sleep never sets a timer past 2³¹−1 ms, which Node would run after 1 ms', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      for (const ms of [2 ** 31 - 1, 2 ** 31, 2 ** 40]) {
        const controller = new AbortController();
        const waited = DEFAULT_RETRY_POLICY.sleep(ms, controller.signal);
        // Past a turn of the event loop, where Node's warning about an overflowing timer is emitted.
        await new Promise((resolve) => setImmediate(resolve));
        controller.abort();
        await expect(waited).rejects.toMatchObject({ name: 'AbortError' });
      }
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });

  it.each([
    ['401 (not logged in)', new NotLoggedInError(ENDPOINT, 401)],
    ['403', http(403)],
    ['404', http(404)],
    ['a parse error', new ParseError(ENDPOINT, 'JSON decode failed')],
  ])('%s is never retried', async (_label, error) => {
    expect(await attempt([error])).toMatchObject({ calls: 1, waits: [] });
  });

  it('onRetry hears each wait and whether a rate limit caused it', async () => {
    const heard: Array<{ rateLimited: boolean; delayMs: number }> = [];
    const outcome = await attempt([http(429, 8_000), http(500)], { onRetry: (retry) => heard.push(retry) });
    expect(outcome).toEqual({ value: 'ok', calls: 3, waits: [8_000, 100] });
    expect(heard).toEqual([
      { rateLimited: true, delayMs: 8_000 },
      { rateLimited: false, delayMs: 100 },
    ]);
  });

  it('an aborted run does not retry', async () => {
    const controller = new AbortController();
    controller.abort();
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw http(500);
        },
        {},
        controller.signal,
      ),
    ).rejects.toThrow('HTTP 500');
    expect(calls).toBe(1);
  });
});

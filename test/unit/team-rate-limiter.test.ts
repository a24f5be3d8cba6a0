import { describe, expect, it } from 'vitest';
import { RateLimiter, RateLimiters } from '../../src/api/admin/rate-limiter.js';
import { VirtualClock } from '../helpers/team-cli.js';

const T0 = Date.parse('2026-07-20T15:00:00Z');

/** Most grants inside any window of `windowMs` (a half-open interval ending at each grant). */
function peak(starts: number[], windowMs: number): number {
  let most = 0;
  for (const end of starts)
    most = Math.max(most, starts.filter((t) => t > end - windowMs && t <= end).length);
  return most;
}

describe('Admin API rate limiter', () => {
  it('shares one sliding window between concurrent callers and serves them in order', async () => {
    const clock = new VirtualClock(T0);
    const limiter = new RateLimiter('usageEvents', { requests: 5, windowMs: 1000 }, clock, undefined, 100);
    const order: number[] = [];
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        limiter.acquire().then((release) => {
          order.push(i);
          starts.push(clock.now());
          release();
        }),
      ),
    );
    expect(order).toEqual([...Array(12).keys()]);
    // Five at once, the next five one window plus the margin later, then the last two.
    expect(starts.map((t) => t - T0)).toEqual([0, 0, 0, 0, 0, 1100, 1100, 1100, 1100, 1100, 2200, 2200]);
    expect(peak(starts, 1000)).toBe(5);
    expect(limiter.granted).toBe(12);
  });

  it('a slot counts from the answer: a slow request pushes the next window back by its latency', async () => {
    const clock = new VirtualClock(T0);
    const limiter = new RateLimiter('spend', { requests: 2, windowMs: 1000 }, clock, undefined, 0);
    const first = await limiter.acquire();
    const second = await limiter.acquire();
    first();
    await clock.sleep(300); // the second answer takes 300 ms
    second();
    const starts: number[] = [];
    for (let i = 0; i < 2; i++) {
      const release = await limiter.acquire();
      starts.push(clock.now() - T0);
      release();
    }
    expect(starts).toEqual([1000, 1300]);
  });

  it('with every slot in flight, the next caller waits for an answer rather than a timer', async () => {
    const clock = new VirtualClock(T0);
    const limiter = new RateLimiter('dailyUsage', { requests: 1, windowMs: 1000 }, clock, undefined, 0);
    const release = await limiter.acquire();
    let granted = false;
    const next = limiter.acquire().then((r) => {
      granted = true;
      return r;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(granted).toBe(false);
    await clock.sleep(5000);
    release();
    (await next)();
    expect(clock.now() - T0).toBe(6000);
  });

  it('a 429 holds the whole family until Retry-After has passed', async () => {
    const clock = new VirtualClock(T0);
    const waits: number[] = [];
    const limiters = new RateLimiters(clock, { spend: { requests: 20, windowMs: 60_000 } });
    limiters.onWait((_family, ms) => waits.push(ms));
    (await limiters.get('spend').acquire())();
    limiters.get('spend').holdFor(18_000);
    (await limiters.get('spend').acquire())();
    expect(clock.now() - T0).toBe(18_000);
    expect(waits).toEqual([18_000]);
    expect(limiters.granted).toBe(2);
  });

  it('an aborted caller leaves without taking a slot, and the queue moves on', async () => {
    const clock = new VirtualClock(T0);
    const limiter = new RateLimiter('dailyUsage', { requests: 1, windowMs: 1000 }, clock, undefined, 0);
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    await expect(limiter.acquire(controller.signal)).rejects.toThrow('stopped');
    (await limiter.acquire())();
    expect(clock.now()).toBe(T0);
    expect(limiter.granted).toBe(1);
  });

  it('an unknown family is a programming error, not a silent unlimited one', () => {
    expect(() => new RateLimiters(new VirtualClock(T0), {}).get('members')).toThrow(
      'no rate limit for members',
    );
  });
});

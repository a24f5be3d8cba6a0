/**
 * Client-side rate limiting per endpoint family (docs/behaviour.md §Team): at most `requests` starts in
 * any window of `windowMs` (plus a safety margin for network jitter), shared by every concurrent caller
 * of the family, first come first served. A 429 holds the whole family until its Retry-After has passed.
 * The clock and the sleep are injected so tests run in virtual time.
 */
import { abortableSleep } from '../../cost/retry.js';

export interface Clock {
  /** Epoch ms. */
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = { now: () => Date.now(), sleep: abortableSleep };

export interface RateLimit {
  requests: number;
  windowMs: number;
}

/** Added to every window: requests leave on our clock and arrive on the server's, a little later. */
export const DEFAULT_MARGIN_MS = 500;

export type WaitListener = (family: string, waitMs: number) => void;

export class RateLimiter {
  /** Start times of the last `limit.requests` grants, oldest first. */
  private readonly starts: number[] = [];
  private holdUntil = 0;
  private tail: Promise<void> = Promise.resolve();
  granted = 0;

  constructor(
    readonly family: string,
    readonly limit: RateLimit,
    private readonly clock: Clock,
    private readonly onWait: WaitListener = () => {},
    private readonly marginMs = DEFAULT_MARGIN_MS,
  ) {}

  /** Resolves when this caller may send one request; callers are served in the order they asked. */
  acquire(signal?: AbortSignal): Promise<void> {
    const turn = this.tail.then(() => this.waitForSlot(signal));
    this.tail = turn.catch(() => {});
    return turn;
  }

  /** After a 429: nobody in the family sends before `ms` from now. */
  holdFor(ms: number): void {
    this.holdUntil = Math.max(this.holdUntil, this.clock.now() + ms);
  }

  private readyAt(): number {
    const full = this.starts.length >= this.limit.requests;
    const slotFree = full ? this.starts[0]! + this.limit.windowMs + this.marginMs : 0;
    return Math.max(this.holdUntil, slotFree);
  }

  private async waitForSlot(signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      const now = this.clock.now();
      const ready = this.readyAt();
      if (ready <= now) {
        this.starts.push(now);
        if (this.starts.length > this.limit.requests) this.starts.shift();
        this.granted++;
        return;
      }
      this.onWait(this.family, ready - now);
      await this.clock.sleep(ready - now, signal);
    }
  }
}

/** One limiter per family, created on first use with that family's limit. */
export class RateLimiters {
  private readonly limiters = new Map<string, RateLimiter>();
  private listener: WaitListener = () => {};

  constructor(
    readonly clock: Clock,
    private readonly limits: Readonly<Record<string, RateLimit>>,
  ) {}

  /** Who hears about waits (the progress line); replaceable after creation. */
  onWait(listener: WaitListener): void {
    this.listener = listener;
  }

  get(family: string): RateLimiter {
    let limiter = this.limiters.get(family);
    if (!limiter) {
      const limit = this.limits[family];
      if (!limit) throw new Error(`no rate limit for ${family}`);
      limiter = new RateLimiter(family, limit, this.clock, (f, ms) => this.listener(f, ms));
      this.limiters.set(family, limiter);
    }
    return limiter;
  }

  /** Requests granted so far, over all families. */
  get granted(): number {
    let total = 0;
    for (const limiter of this.limiters.values()) total += limiter.granted;
    return total;
  }
}

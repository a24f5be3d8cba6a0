/**
 * Client-side rate limiting per endpoint family, shared by every concurrent
 * caller of the family, first come first served.
 *
 * A request holds its slot from the moment it is granted until its answer is back, and the slot stays
 * taken for a window (plus a small margin) after that. The server counts a request when it arrives, which
 * is after we send it but before its answer comes back, so counting from the answer means two requests
 * one window apart on our clock are at least a window apart on the server's too, however slow the
 * network or a busy event loop. A 429 holds the whole family until its Retry-After has passed. The clock
 * and the sleep are injected so tests run in virtual time.
 */
import { DEFAULT_RETRY_POLICY } from '../../lib/retry.js';

export interface Clock {
  /** Epoch ms. */
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = { now: () => Date.now(), sleep: DEFAULT_RETRY_POLICY.sleep };

export interface RateLimit {
  requests: number;
  windowMs: number;
}

/** Added to every window, for servers that count in whole seconds. */
const DEFAULT_MARGIN_MS = 500;

export type WaitListener = (family: string, waitMs: number) => void;

/** Gives the slot back: call once the answer (or the failure) is in. Calling it again does nothing. */
export type Release = () => void;

export class RateLimiter {
  private inFlight = 0;
  /** When each recently finished request's answer came back, oldest first. */
  private readonly finished: number[] = [];
  private holdUntil = 0;
  private tail: Promise<unknown> = Promise.resolve();
  private onRelease: (() => void) | undefined;
  granted = 0;

  constructor(
    readonly family: string,
    readonly limit: RateLimit,
    private readonly clock: Clock,
    private readonly onWait: WaitListener = () => {},
    private readonly marginMs = DEFAULT_MARGIN_MS,
  ) {}

  /** Resolves when this caller may send one request; callers are served in the order they asked. */
  acquire(signal?: AbortSignal): Promise<Release> {
    const turn = this.tail.then(() => this.waitForSlot(signal));
    this.tail = turn.catch(() => {});
    return turn;
  }

  /** After a 429: nobody in the family sends before `ms` from now. */
  holdFor(ms: number): void {
    this.holdUntil = Math.max(this.holdUntil, this.clock.now() + ms);
  }

  private grant(): Release {
    this.inFlight++;
    this.granted++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.inFlight--;
      this.finished.push(this.clock.now());
      const wake = this.onRelease;
      this.onRelease = undefined;
      wake?.();
    };
  }

  private async waitForSlot(signal: AbortSignal | undefined): Promise<Release> {
    const span = this.limit.windowMs + this.marginMs;
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      const now = this.clock.now();
      while (this.finished.length > 0 && this.finished[0]! + span <= now) this.finished.shift();
      const taken = this.inFlight + this.finished.length;
      if (taken < this.limit.requests && this.holdUntil <= now) return this.grant();
      // How many slots must free up, and whether finished requests alone can free them.
      const needed = taken - this.limit.requests + 1;
      if (needed > this.finished.length) {
        await this.nextRelease(signal);
        continue;
      }
      const ready = Math.max(this.holdUntil, needed > 0 ? this.finished[needed - 1]! + span : 0);
      this.onWait(this.family, ready - now);
      await this.clock.sleep(ready - now, signal);
    }
  }

  private nextRelease(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.onRelease = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
    });
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

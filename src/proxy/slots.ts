/**
 * At most `limit` upstream requests at once (docs/proxy.md, "Safe by default"). Past the limit a request
 * waits its turn, in arrival order, for at most `waitMs`; past `maxQueued` waiting it is refused at once,
 * so a flood costs a queue of bounded length and nothing upstream.
 */
export type SlotRefusal = 'queue-full' | 'timeout' | 'aborted';

export class Slots {
  private active = 0;
  private readonly waiting: Array<{ grant: () => void }> = [];

  constructor(
    private readonly limit: number,
    private readonly maxQueued: number,
    private readonly waitMs: number,
  ) {}

  get inUse(): number {
    return this.active;
  }

  /** A release function, or why no slot came. */
  acquire(signal: AbortSignal): Promise<(() => void) | SlotRefusal> {
    if (this.active < this.limit) return Promise.resolve(this.take());
    if (this.waiting.length >= this.maxQueued) return Promise.resolve('queue-full');
    return new Promise((resolve) => {
      const entry = {
        grant: () => {
          cleanup();
          resolve(this.take());
        },
      };
      const leave = (reason: SlotRefusal) => {
        const index = this.waiting.indexOf(entry);
        if (index !== -1) this.waiting.splice(index, 1);
        cleanup();
        resolve(reason);
      };
      const timer = setTimeout(() => leave('timeout'), this.waitMs);
      const onAbort = () => leave('aborted');
      const cleanup = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private take(): () => void {
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiting.shift()?.grant();
    };
  }
}

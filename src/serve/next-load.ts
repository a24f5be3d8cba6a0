/**
 * Config reads shared by the requests that wait for them. A request must see
 * the config file as it is when the request arrives, so it never joins a read that had already begun: it
 * joins the next one, which starts as soon as the running read ends. Under load that is one read at a time
 * for all requests instead of one (three file-system calls, a parse and a hash) per request.
 *
 * A read that hangs (a config file on a dead network mount) holds the next one back for at most `stallMs`,
 * so the server recovers with the mount instead of queueing every later request behind the hung read.
 */
import { orAfter } from '../server/deadline.js';

export class NextLoad<T> {
  private running: Promise<void> | undefined;
  private next: Promise<T> | undefined;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly stallMs: number,
  ) {}

  /** A read that starts no earlier than this call. */
  get(): Promise<T> {
    if (this.running === undefined) return this.begin();
    this.next ??= this.afterRunning(this.running);
    return this.next;
  }

  private begin(): Promise<T> {
    const result = Promise.resolve().then(this.load);
    const running: Promise<void> = result.then(
      () => this.finished(running),
      () => this.finished(running),
    );
    this.running = running;
    return result;
  }

  private finished(running: Promise<void>): void {
    if (this.running === running) this.running = undefined;
  }

  private async afterRunning(running: Promise<void>): Promise<T> {
    await orAfter(running, this.stallMs, () => undefined);
    // Callers from now on arrived after the read below began: they wait for the one after it.
    this.next = undefined;
    return this.begin();
  }
}

/**
 * The start and the end of a server's run, shared by `serve` and `proxy`: why a bind failed, in a user's
 * words, and the wait for the signal that stops it.
 */
import { messageFor } from '../errors.js';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function listenReason(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? String(error.code) : undefined;
  if (code === 'EADDRINUSE') return 'the address is already in use.';
  if (code === 'EACCES') return 'permission denied.';
  if (code === 'EADDRNOTAVAIL') return 'the address is not available on this machine.';
  return messageFor(error);
}

/**
 * Resolves when `stop` aborts (tests), else on the first stop signal. The handlers are removed at once, so a
 * second Ctrl-C during a slow shutdown gets the default behaviour and ends the process immediately.
 */
export function stopRequested(stop: AbortSignal | undefined): Promise<void> {
  if (stop) {
    return stop.aborted
      ? Promise.resolve()
      : new Promise((resolve) => stop.addEventListener('abort', () => resolve(), { once: true }));
  }
  return new Promise((resolve) => {
    const onSignal = () => {
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
      resolve();
    };
    for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  });
}

import { rmSync } from 'node:fs';

/**
 * A private copy holds the session cookie (in Firefox, every site's), so it must not outlive a run that is
 * stopped while it exists (docs/invariants.md, "Read-only on Cursor's and browsers' files"). While a copy
 * exists, SIGINT, SIGTERM, SIGHUP and the process's exit remove it first. A stop signal someone else listens
 * for (serve's graceful stop) is theirs: the copy then goes on the ordinary path, or at exit. Otherwise the
 * handlers are removed and the signal raised again, so the process ends by it (128 + n) as it would have.
 * The handlers exist only while a copy does: a long `serve` never gathers them.
 */

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const live = new Set<string>();

/** Keeps `dir` removed on a stop signal or exit until the returned release is called. */
export function guardCopy(dir: string): () => void {
  if (live.size === 0) {
    for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
    process.on('exit', removeAll);
  }
  live.add(dir);
  return () => {
    if (live.delete(dir) && live.size === 0) detach();
  };
}

function onSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  removeAll();
  detach();
  process.kill(process.pid, signal);
}

function removeAll(): void {
  for (const dir of live) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Nothing more can be done on the way out; the next run's sweep takes it.
    }
  }
  live.clear();
}

function detach(): void {
  for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  process.off('exit', removeAll);
}

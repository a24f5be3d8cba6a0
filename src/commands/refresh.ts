import { lockPathFor } from '../cache/background-refresh.js';
import { holdRefreshLock, holdsRefreshLock, releaseRefreshLock } from '../cache/refresh-lock.js';
import { usageCacheDir } from '../cache/usage-snapshots.js';
import type { CliIo } from './io.js';
import { type SharedFlags, sharedOptions } from './options.js';
import { obtainUsage } from './usage-source.js';

/** A failed refresh keeps the lock this long, so prompts do not retry on every keystroke. */
const FAILED_REFRESH_BACKOFF_MS = 60_000;
/** The whole refresh, well inside the lock's maximum age. */
const REFRESH_DEADLINE_MS = 30_000;

export interface RefreshFlags {
  account: string;
  lock: string;
  source?: SharedFlags['source'];
  browser?: SharedFlags['browser'];
}

/**
 * `codexbar __refresh` (hidden, docs/behaviour.md §26.5): the detached process a stale statusline starts.
 * It runs only while it holds the account's lock, fetches live (which saves the snapshot), then releases the
 * lock, or on failure keeps it for FAILED_REFRESH_BACKOFF_MS. It prints nothing.
 */
export async function refreshCommand(flags: RefreshFlags, io: CliIo): Promise<number> {
  const lockPath = lockPathFor(
    usageCacheDir({ platform: io.platform, env: io.env, homeDir: io.homeDir, now: io.now }),
    flags.account,
  );
  if (!holdsRefreshLock(lockPath, flags.lock)) return 0; // taken over, or cleared: not ours to run
  const options = sharedOptions({
    provider: 'cursor',
    source: flags.source,
    browser: flags.browser,
    color: false,
  });
  try {
    await obtainUsage(io, options, () => {}, { maxAgeMs: 0, deadlineMs: REFRESH_DEADLINE_MS });
    releaseRefreshLock(lockPath, flags.lock);
    return 0;
  } catch {
    try {
      holdRefreshLock(lockPath, flags.lock, io.now().getTime() + FAILED_REFRESH_BACKOFF_MS);
    } catch {
      // The lock went away meanwhile (cleared): there is nothing to hold.
    }
    return 1;
  }
}

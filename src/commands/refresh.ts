import type { Command } from 'commander';
import { usageCacheDir } from '../cache/snapshot-read.js';
import type { CliIo } from '../cli/io.js';
import { type SharedFlags, sharedOptions } from '../cli/options.js';
import { forEachAccount } from '../session/per-account.js';
import { obtainUsage } from '../session/usage-cache.js';
import { lockPathFor } from '../statusline/background-refresh.js';
import { holdRefreshLock, holdsRefreshLock, releaseRefreshLock } from '../statusline/refresh-lock.js';

/** A failed refresh keeps the lock this long, so prompts do not retry on every keystroke. */
const FAILED_REFRESH_BACKOFF_MS = 60_000;
/** The whole refresh, well inside the lock's maximum age. */
const REFRESH_DEADLINE_MS = 30_000;

/** The detached refresh a stale statusline starts; not for people. */
export function register(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  program
    .command('__refresh', { hidden: true })
    .requiredOption('--account <key>')
    .requiredOption('--lock <nonce>')
    .option('--label <label>')
    .option('--source <mode>')
    .option('--browser <name>')
    .action(async (flags: RefreshFlags) => setExitCode(await refreshCommand(flags, io)));
}

interface RefreshFlags {
  /** The cache's account key: whose lock this is. */
  account: string;
  lock: string;
  /** The token account a statusline named by a flag, selected again by its label (not a secret). */
  label?: string;
  source?: SharedFlags['source'];
  browser?: SharedFlags['browser'];
}

/**
 * `codexbar __refresh` (hidden): the detached process a stale statusline starts. It runs only while it holds
 * the account's lock, fetches live (which saves the snapshot), then releases the lock, or on failure keeps it
 * for FAILED_REFRESH_BACKOFF_MS. It prints nothing. With `--label` it runs as that token account, selected as
 * `--account <label>` selects it.
 */
async function refreshCommand(flags: RefreshFlags, io: CliIo): Promise<number> {
  const lockPath = lockPathFor(usageCacheDir(io), flags.account);
  if (!holdsRefreshLock(lockPath, flags.lock)) return 0; // taken over, or cleared: not ours to run
  const options = sharedOptions({
    provider: 'cursor',
    source: flags.source,
    browser: flags.browser,
    color: false,
  });
  try {
    const quiet = () => {};
    const policy = { maxAgeMs: 0, deadlineMs: REFRESH_DEADLINE_MS };
    if (flags.label === undefined) await obtainUsage(io, options, quiet, policy);
    else {
      const [outcome] = await forEachAccount(io, options, { account: flags.label }, quiet, (target) =>
        obtainUsage(io, options, quiet, policy, target),
      );
      if (!outcome?.ok) throw outcome?.error;
    }
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

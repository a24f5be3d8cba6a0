import { join } from 'node:path';
import { ensurePrivateDir } from '../cache/private-files.js';
import { readSnapshot } from '../cache/snapshot-read.js';
import { isSingleExecutable } from '../lib/single-executable.js';
import { acquireRefreshLock, handOverRefreshLock, releaseRefreshLock } from './refresh-lock.js';

/**
 * Stale-while-revalidate's second half: after a stale snapshot was printed, one detached process per account
 * refreshes it. The caller takes the account's lock first, so of many prompts drawn at once only one starts a
 * refresh; the lock then passes to that process, which releases it when done. The child gets no secret
 * (docs/invariants.md, "Never a credential shown"): only the account key, the lock's nonce and the source
 * flags, and it resolves its session itself from the same environment.
 */

export interface RefreshRequest {
  usageDir: string;
  account: string;
  /**
   * When the stale snapshot we printed was fetched; undefined when we printed `--no-wait`'s placeholder, as
   * there was no snapshot.
   */
  seenFetchedAt?: Date;
  now: Date;
  /** `--source` and `--browser`, as given, so the child walks the same ladder. */
  sourceArgs: readonly string[];
}

/** Starts `codexbar __refresh …` detached and returns its pid (undefined when it could not start). */
export type RefreshSpawner = (args: readonly string[]) => number | undefined | Promise<number | undefined>;

export type RefreshStart = 'started' | 'busy' | 'fresh' | 'failed';

export function lockPathFor(usageDir: string, account: string): string {
  return join(usageDir, `${account}.lock`);
}

export async function startBackgroundRefresh(
  request: RefreshRequest,
  spawnRefresh: RefreshSpawner = spawnDetached,
): Promise<RefreshStart> {
  const lockPath = lockPathFor(request.usageDir, request.account);
  // Before an account's first snapshot (`--no-wait`), its lock may be the first file in the directory.
  if (request.seenFetchedAt === undefined) ensurePrivateDir(request.usageDir);
  const attempt = acquireRefreshLock(lockPath, { now: request.now.getTime() });
  if (attempt.kind === 'busy') return 'busy';
  const { nonce } = attempt;
  // Another refresh may have finished between our read and the lock: a newer snapshot than the one we
  // printed (any snapshot, after a placeholder) means there is nothing left to do (whatever the clocks say).
  const read = readSnapshot(request.usageDir, request.account);
  const seen = request.seenFetchedAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  if (read.kind === 'ok' && read.cached.fetchedAt.getTime() > seen) {
    releaseRefreshLock(lockPath, nonce);
    return 'fresh';
  }
  const pid = await spawnRefresh([
    '__refresh',
    '--account',
    request.account,
    '--lock',
    nonce,
    ...request.sourceArgs,
  ]);
  if (pid === undefined) {
    releaseRefreshLock(lockPath, nonce);
    return 'failed';
  }
  handOverRefreshLock(lockPath, nonce, pid);
  return 'started';
}

/**
 * The same node and script (and node flags) as this run, or the same single executable, which takes its
 * arguments alone (docs/single-executable.md), detached from the prompt: no stdin, no output, its own process
 * group, so the prompt neither waits for it nor kills it.
 */
function spawnDetached(args: readonly string[]): number | undefined {
  const script = process.argv[1];
  if (script === undefined) return undefined;
  try {
    // Fetched here, not imported: only a stale line starts a process, and a fresh one must start fast.
    const { spawn } = process.getBuiltinModule('node:child_process');
    const argv = isSingleExecutable() ? args : [...process.execArgv, script, ...args];
    const child = spawn(process.execPath, argv, {
      detached: true,
      stdio: 'ignore',
      windowsHide: true,
    });
    child.on('error', () => {});
    child.unref();
    return child.pid;
  } catch {
    return undefined;
  }
}

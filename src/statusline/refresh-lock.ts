import { closeSync, constants, linkSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { LOCK_FILE_LIMIT, readTextFileSync } from '../local/read-file-sync.js';

/**
 * One background refresh per account at a time. The lock is a file holding
 * `{pid, nonce, startedAt}`, created with `link()` from a finished temporary file, so it never exists
 * half-written. A lock is stale, and taken over, when its process is gone or it is older than
 * LOCK_MAX_AGE_MS, so a crashed or killed refresh cannot hold it forever. A failed refresh leaves a lock with
 * `holdUntil` instead: nobody retries before then, so a prompt does not hammer cursor.com while logged out;
 * a hold that ends more than LOCK_MAX_AGE_MS ahead (the clock moved back) is stale too.
 *
 * Takeover is a compare-and-swap: the taker creates `<lock>.claim` exclusively (only one process can),
 * checks that the lock is still the one it judged stale, and renames its own file over it.
 * Written here rather than taken from a library: proper-lockfile, the usual choice, keeps a timer running
 * to refresh its lock and is unmaintained; this needs 100 lines and no timer. Synchronous on purpose: a
 * handful of tiny file operations, and the statusline fast path must not load `node:fs/promises`.
 */

/** Longer than any refresh can run (its requests are bounded far below this). */
export const LOCK_MAX_AGE_MS = 2 * 60_000;
/** A claim left by a process that died mid-takeover. */
const CLAIM_MAX_AGE_MS = 10_000;

interface LockContent {
  pid: number;
  nonce: string;
  startedAt: number;
  holdUntil?: number;
}

export type LockAttempt = { kind: 'acquired'; nonce: string } | { kind: 'busy' };

export interface LockClock {
  now: number;
  /** Whether a process id is running; injected by tests. */
  isAlive?: (pid: number) => boolean;
}

export function acquireRefreshLock(lockPath: string, clock: LockClock, pid = process.pid): LockAttempt {
  const nonce = randomHex(8);
  const temp = writeTemp(lockPath, { pid, nonce, startedAt: clock.now });
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(temp, lockPath);
        return { kind: 'acquired', nonce };
      } catch (error) {
        if (code(error) !== 'EEXIST') throw error;
      }
      const held = readText(lockPath);
      if (held === undefined) continue; // released meanwhile: try again
      if (!isStale(parse(held), clock)) return { kind: 'busy' };
      const taken = takeOver(lockPath, held, temp, clock);
      if (taken === 'taken') return { kind: 'acquired', nonce };
      if (taken === 'busy') return { kind: 'busy' };
    }
    return { kind: 'busy' };
  } finally {
    removeQuietly(temp);
  }
}

/** Gives the lock to another process (the detached refresh), keeping the nonce; only while we hold it. */
export function handOverRefreshLock(lockPath: string, nonce: string, pid: number): void {
  const held = parse(readText(lockPath) ?? '');
  if (held?.nonce !== nonce) return;
  replace(lockPath, { ...held, pid });
}

/** Done: the lock goes, if it is still ours. */
export function releaseRefreshLock(lockPath: string, nonce: string): void {
  const held = parse(readText(lockPath) ?? '');
  if (held?.nonce === nonce) removeQuietly(lockPath);
}

/** Failed: keep the lock until `until`, so no other refresh starts before then. */
export function holdRefreshLock(lockPath: string, nonce: string, until: number): void {
  const held = parse(readText(lockPath) ?? '');
  if (held?.nonce === nonce) replace(lockPath, { ...held, holdUntil: until });
}

/** Whether a lock file names this nonce (a refresh checks that it was handed the lock). */
export function holdsRefreshLock(lockPath: string, nonce: string): boolean {
  return parse(readText(lockPath) ?? '')?.nonce === nonce;
}

function isStale(held: LockContent | undefined, clock: LockClock): boolean {
  if (held === undefined) return true; // unreadable content cannot name a live owner
  // A hold is a short backoff: one ending further ahead than a lock may live was written by a clock that
  // has since moved back, and would stop every refresh until the clock catches up.
  if (held.holdUntil !== undefined)
    return clock.now >= held.holdUntil || held.holdUntil - clock.now > LOCK_MAX_AGE_MS;
  if (Math.abs(clock.now - held.startedAt) > LOCK_MAX_AGE_MS) return true;
  return !(clock.isAlive ?? processIsAlive)(held.pid);
}

function takeOver(
  lockPath: string,
  judged: string,
  temp: string,
  clock: LockClock,
): 'taken' | 'busy' | 'retry' {
  const claim = `${lockPath}.claim`;
  const mine = writeTemp(claim, { pid: process.pid, nonce: 'claim', startedAt: clock.now });
  try {
    linkSync(mine, claim);
  } catch (error) {
    if (code(error) !== 'EEXIST') throw error;
    // Someone else is taking over. A claim left by a process that died mid-takeover is cleared for the
    // next run.
    const claimed = parse(readText(claim) ?? '');
    const abandoned =
      claimed === undefined ||
      Math.abs(clock.now - claimed.startedAt) > CLAIM_MAX_AGE_MS ||
      !(clock.isAlive ?? processIsAlive)(claimed.pid);
    if (abandoned) removeQuietly(claim);
    return 'busy';
  } finally {
    removeQuietly(mine);
  }
  try {
    // Compare and swap: only the claim holder replaces a lock, and only the one it judged stale.
    if (readText(lockPath) !== judged) return 'retry';
    renameSync(temp, lockPath);
    return 'taken';
  } finally {
    removeQuietly(claim);
  }
}

function replace(lockPath: string, content: LockContent): void {
  const temp = writeTemp(lockPath, content);
  try {
    renameSync(temp, lockPath);
  } catch (error) {
    removeQuietly(temp);
    throw error;
  }
}

function writeTemp(lockPath: string, content: LockContent): string {
  const temp = `${lockPath}.${randomHex(6)}.tmp`;
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  const fd = openSync(temp, flags, 0o600);
  try {
    writeSync(fd, JSON.stringify(content));
  } finally {
    closeSync(fd);
  }
  return temp;
}

/**
 * A lock's or claim's text, undefined once it is gone. Read without blocking (docs/invariants.md, "Regular
 * files only, never a blocking read"): a named pipe there would otherwise hold the prompt forever. Anything
 * that is not a small regular file reads as no content, which names no live owner, so it is taken over.
 */
function readText(file: string): string | undefined {
  const read = readTextFileSync(file, LOCK_FILE_LIMIT);
  if (read.kind === 'missing') return undefined;
  return read.kind === 'ok' ? read.text : '';
}

function parse(text: string): LockContent | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockContent> | null;
    if (
      typeof value?.pid === 'number' &&
      typeof value.nonce === 'string' &&
      typeof value.startedAt === 'number' &&
      (value.holdUntil === undefined || typeof value.holdUntil === 'number')
    ) {
      return value as LockContent;
    }
  } catch {}
  return undefined;
}

/** node:crypto only when a lock is actually taken: a fresh statusline never loads it. */
function randomHex(bytes: number): string {
  return process.getBuiltinModule('node:crypto').randomBytes(bytes).toString('hex');
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {}
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return code(error) === 'EPERM';
  }
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

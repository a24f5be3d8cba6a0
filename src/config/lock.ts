import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, open, rename, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import { errorCode, readTextFile } from '../local/read-file.js';
import { LOCK_FILE_LIMIT } from '../local/read-file-sync.js';

/**
 * An exclusive lock beside a file (`<file>.lock`) so that concurrent read-modify-write runs (two
 * `codexbar login` at once) never lose each other's change. The lock file is created with O_EXCL, holds who
 * owns it, and is removed on release. A lock whose owner died on this host, or that is older than `staleMs`,
 * is taken over (docs/invariants.md, "Nothing written outside the cache dir").
 */

export interface LockOptions {
  /** Wait between attempts; tests pass their own. */
  sleep?: (ms: number) => Promise<void>;
  /** Give up after this many attempts (default 400 × 25 ms ≈ 10 s). */
  attempts?: number;
  /** A lock older than this is stale whoever holds it (default 30 s; a write takes milliseconds). */
  staleMs?: number;
}

/**
 * Something at the lock's path that no lock could be: a named pipe, a directory, a file too large. Read, it
 * could block the run or stand in the way forever, so it is refused at once (docs/invariants.md, "Regular
 * files only, never a blocking read").
 */
export class LockRefusedError extends Error {
  constructor(
    readonly lockPath: string,
    readonly reason: string,
  ) {
    super(`its lock file is unusable (${reason})`);
  }
}

export class LockTimeoutError extends Error {
  constructor(readonly holderPid: number | undefined) {
    super(
      holderPid === undefined ? 'locked by another process' : `locked by another process (pid ${holderPid})`,
    );
  }
}

interface Holder {
  pid?: number;
  host?: string;
  /** The lock file's exact text: compared before a takeover removes anything. */
  text: string;
  ageMs: number;
}

const RETRY_MS = 25;
const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function withFileLock<T>(
  file: string,
  fn: () => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const lockPath = `${file}.lock`;
  const nonce = await acquire(lockPath, options);
  try {
    return await fn();
  } finally {
    await release(lockPath, nonce);
  }
}

async function acquire(lockPath: string, options: LockOptions): Promise<string> {
  const sleep = options.sleep ?? realSleep;
  const attempts = options.attempts ?? 400;
  const staleMs = options.staleMs ?? 30_000;
  const nonce = randomBytes(12).toString('hex');
  const text = JSON.stringify({ pid: process.pid, host: os.hostname(), nonce, at: new Date().toISOString() });
  let lastHolder: Holder | undefined;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (await tryCreate(lockPath, text)) return nonce;
    const holder = await readHolder(lockPath);
    if (holder === undefined) continue; // released between our attempt and the read
    lastHolder = holder;
    if (isStale(holder, staleMs)) {
      await takeOver(lockPath, holder);
      continue;
    }
    await sleep(RETRY_MS);
  }
  throw new LockTimeoutError(lastHolder?.pid);
}

/**
 * Creates the lock with its owner in it. A lock whose content could not be written (a full disk) is removed
 * again: left empty, it would make the next run wait and blame another process.
 */
async function tryCreate(lockPath: string, text: string): Promise<boolean> {
  const flag = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(lockPath, flag, 0o600);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(text);
    await handle.close();
    return true;
  } catch (error) {
    await handle.close().catch(() => {});
    await unlink(lockPath).catch(() => {});
    throw error;
  }
}

/** The lock's text, or undefined once it is gone; anything at its path that is not a lock is refused. */
async function lockText(lockPath: string): Promise<string | undefined> {
  const read = await readTextFile(lockPath, LOCK_FILE_LIMIT);
  if (read.kind === 'missing') return undefined;
  if (read.kind === 'unreadable') throw new LockRefusedError(lockPath, read.reason);
  return read.text;
}

async function readHolder(lockPath: string): Promise<Holder | undefined> {
  try {
    const text = await lockText(lockPath);
    if (text === undefined) return undefined;
    const holder: Holder = { text, ageMs: Date.now() - (await stat(lockPath)).mtimeMs };
    try {
      const parsed = JSON.parse(text) as { pid?: unknown; host?: unknown };
      if (typeof parsed.pid === 'number') holder.pid = parsed.pid;
      if (typeof parsed.host === 'string') holder.host = parsed.host;
    } catch {
      // Being written right now, or not ours: only its age can make it stale.
    }
    return holder;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

function isStale(holder: Holder, staleMs: number): boolean {
  if (holder.ageMs > staleMs) return true;
  return holder.pid !== undefined && holder.host === os.hostname() && !processAlive(holder.pid);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return errorCode(error) !== 'ESRCH';
  }
}

/**
 * Moves the stale lock aside (rename is atomic: of several processes judging it stale, one wins), then checks
 * that what it moved is the lock it judged. If another process had already replaced it with a fresh lock, that
 * lock is put back.
 */
async function takeOver(lockPath: string, stale: Holder): Promise<void> {
  const aside = `${lockPath}.${randomBytes(6).toString('hex')}.stale`;
  try {
    await rename(lockPath, aside);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  const moved = await lockText(aside).catch(() => undefined);
  if (moved !== undefined && moved !== stale.text) {
    await link(aside, lockPath).catch(() => {});
  }
  await unlink(aside).catch(() => {});
}

async function release(lockPath: string, nonce: string): Promise<void> {
  const text = await lockText(lockPath).catch(() => undefined);
  if (text === undefined || !text.includes(nonce)) return;
  await unlink(lockPath).catch(() => {});
}

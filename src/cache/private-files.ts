import {
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

/**
 * Owner-only: directories 0700, files 0600 (docs/invariants.md, "Owner-only atomic files"). Synchronous: a
 * snapshot is a few kilobytes, and `node:fs/promises` would load its FileHandle machinery (and readline) into
 * every short run that saves one (bench/README.md, Start-up).
 */
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

class CacheWriteError extends Error {
  constructor(
    readonly target: string,
    reason: string,
  ) {
    super(`cannot write ${target}: ${reason}`);
  }
}

/**
 * Makes `dir` (and missing parents) owner-only. An existing directory must be a real directory owned by us
 * (not a symlink) with no group or other access; anything else is refused, so nothing is ever written
 * through a link or into a directory others can read.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  const stat = lstatSync(dir);
  if (stat.isSymbolicLink() || !stat.isDirectory()) throw new CacheWriteError(dir, 'not a directory');
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) {
    throw new CacheWriteError(dir, 'owned by another user');
  }
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
    throw new CacheWriteError(dir, `its mode is ${(stat.mode & 0o777).toString(8)}, not 700`);
  }
}

/**
 * Writes `data` to `target` atomically: a fresh temporary file beside it (created exclusively, never
 * through a symlink, mode 0600), flushed, then renamed over the target. A reader sees the old file or
 * the new one, never a torn one, and concurrent writers never interleave. The directory must exist
 * (ensurePrivateDir).
 */
export function writePrivateFileAtomic(target: string, data: string | Uint8Array): void {
  // Unique, not secret: the directory is the user's own and O_EXCL refuses a name that exists, so the pid and
  // a random suffix do, without loading node:crypto into every run (bench/README.md, Start-up).
  const suffix = `${process.pid.toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${suffix}.tmp`);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  const fd = openSync(temp, flags, FILE_MODE);
  try {
    writeFileSync(fd, data);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    removeQuietly(temp);
    throw error;
  }
  closeSync(fd);
  try {
    // rename replaces the directory entry itself: a symlink at `target` is replaced, never followed.
    renameSync(temp, target);
  } catch (error) {
    removeQuietly(temp);
    throw error;
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {}
}

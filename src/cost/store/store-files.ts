/**
 * Where the event stores live and how their files are made, set aside and cleared:
 * `<cache dir>/codexbar/cost/<key>.sqlite` with SQLite's `-wal`, `-shm` (and `-journal`) beside it, 0600
 * files in 0700 directories (docs/invariants.md, "Owner-only atomic files"), never opened through a symlink.
 */
import { constants } from 'node:fs';
import { lstat, open, readdir, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { codexbarCacheDir } from '../../cache/cache-dir.js';
import { ensurePrivateDir } from '../../cache/private-files.js';
import type { LocalEnvironment } from '../../local/environment.js';

const FILE_MODE = 0o600;
/** A store key: an account key or a team key, 32 hex digits either way. */
const STORE_KEY = /^[0-9a-f]{32}$/;
/** The suffix a store that could not be used is renamed to, replacing an older one. */
const SET_ASIDE = '.unusable';
/** SQLite's files beside a store: its WAL, its shared memory, and the rollback journal it checks on open. */
const SIDECARS = ['-wal', '-shm', '-journal'];

function costStoreDir(env: LocalEnvironment): string {
  return path.join(codexbarCacheDir(env), 'cost');
}

export function costStorePath(dir: string, key: string): string {
  if (!STORE_KEY.test(key)) throw new Error('an event store key is 32 hex digits');
  return path.join(dir, `${key}.sqlite`);
}

/** Makes `<cache dir>/codexbar` and its `cost` directory, owner-only (refused when they are not ours). */
export function ensureStoreDir(env: LocalEnvironment): string {
  ensurePrivateDir(codexbarCacheDir(env));
  const dir = costStoreDir(env);
  ensurePrivateDir(dir);
  return dir;
}

/**
 * Why an existing store must not be opened, or undefined when it is ours to use: a symlink (never followed),
 * anything but a regular file, another user's file, or one others may read. Its `-wal`, `-shm` and
 * `-journal` are held to the same rules, as SQLite opens them itself: a FIFO at the journal would make it
 * wait for a writer forever (docs/invariants.md, "Regular files only, never a blocking read").
 */
export async function foreignFileReason(file: string): Promise<string | undefined> {
  for (const suffix of ['', ...SIDECARS]) {
    const reason = await fileReason(`${file}${suffix}`, suffix ? `its ${suffix}` : 'it');
    if (reason) return reason;
  }
  return undefined;
}

async function fileReason(file: string, subject: string): Promise<string | undefined> {
  let stat: Awaited<ReturnType<typeof lstat>>;
  try {
    stat = await lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (stat.isSymbolicLink()) return `${subject} is a symbolic link`;
  if (!stat.isFile()) return `${subject} is not a regular file`;
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid())
    return `${subject} belongs to another user`;
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
    return `${subject === 'it' ? 'its' : `${subject}'s`} mode is ${(stat.mode & 0o777).toString(8)}, not 600`;
  }
  return undefined;
}

/**
 * Creates an empty store file, 0600, exclusively and without following a symlink (SQLite then gives its
 * `-wal` and `-shm` the same mode). Another run creating it at the same moment is fine.
 */
export async function createStoreFile(file: string): Promise<void> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  try {
    const handle = await open(file, flags, FILE_MODE);
    await handle.close();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * Moves an unusable store out of the way (`<key>.sqlite.unusable`, replacing an older one) and removes its
 * `-wal`/`-shm`/`-journal`: SQLite would otherwise replay that log into the new database. Returns the new
 * name.
 */
export async function setStoreAside(file: string): Promise<string> {
  const aside = `${file}${SET_ASIDE}`;
  await rename(file, aside).catch(ignoreMissing);
  for (const suffix of SIDECARS) await unlink(`${file}${suffix}`).catch(ignoreMissing);
  return aside;
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}

/** A file the cost store owns: a store, its WAL, shared memory or journal, or a set-aside store. */
function isStoreFile(name: string): boolean {
  const key = name.slice(0, 32);
  if (!STORE_KEY.test(key)) return false;
  const rest = name.slice(32);
  return ['.sqlite', ...SIDECARS.map((s) => `.sqlite${s}`), `.sqlite${SET_ASIDE}`].includes(rest);
}

/**
 * Deletes every cost event store (for `cache clear --cost`): the databases, their `-wal`/`-shm`/`-journal`
 * files and set-aside stores, and nothing else. Returns how many files it removed; a missing directory
 * removes none.
 */
export async function clearCostStores(env: LocalEnvironment): Promise<number> {
  const dir = costStoreDir(env);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names.filter(isStoreFile).sort()) {
    try {
      await unlink(path.join(dir, name));
      removed++;
    } catch (error) {
      ignoreMissing(error as NodeJS.ErrnoException);
    }
  }
  return removed;
}

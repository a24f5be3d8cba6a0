/**
 * A compile cache in our own cache directory (bench/README.md, Start-up), so later runs skip compiling the
 * bundles. bin/codexbar.js loads this small module first, and each bundle through `requireBundle`, which
 * keeps V8's code cache for it. Node ≥ 22.1 has a compile cache of its own (`module.enableCompileCache`), but
 * it caches what a module compiles before it runs; this one is written when the process exits, with every
 * function the run compiled, and measured 40–50 ms faster for `usage` on Node 22 and 24. The directory is
 * `<cache dir>/codexbar/compile-cache`, created 0700 (docs/invariants.md, "Owner-only atomic files");
 * anything unusable (a symlink, another owner, open to others) means no compile cache, never an error.
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off.
 */
import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { isAbandonedTemp, isTempName } from '../cache/abandoned-temp.js';
import { codexbarCacheDir } from '../cache/cache-dir.js';
import { fnv1a } from '../lib/hash.js';
import { openRegularFileSync } from '../local/read-file-sync.js';

export function compileCacheDir(): string | undefined {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const platform = process.platform === 'darwin' || process.platform === 'win32' ? process.platform : 'linux';
  const root = codexbarCacheDir({
    platform,
    env: process.env,
    // Read only without HOME: node:os is one more module for every prompt to load.
    get homeDir() {
      return process.getBuiltinModule('node:os').homedir();
    },
    now: () => new Date(),
  });
  if (!path.isAbsolute(root)) return undefined;
  const dir = path.join(root, 'compile-cache');
  try {
    // Made only when missing: most runs find it, and two lstat calls are all they cost.
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
    return [root, dir].every(isPrivateDir) ? dir : undefined;
  } catch {
    return undefined;
  }
}

function isPrivateDir(dir: string): boolean {
  const stat = lstatSync(dir);
  if (stat.isSymbolicLink() || !stat.isDirectory()) return false;
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return false;
  return process.platform === 'win32' || (stat.mode & 0o077) === 0;
}

/**
 * `load(file)` for a self-contained CommonJS bundle, with V8's code cache for it in `dir` when one is
 * given. The cache file is named after the Node version, the architecture, the bundle's path and its
 * identity (device, inode, size, modification time), so a reinstalled or rebuilt bundle never meets code
 * compiled for another (V8 itself checks only the source's length). A missing or rejected cache is written
 * when the process exits, by then holding every function the run compiled: atomically, 0600, through a new
 * file that replaces the old one (never written through a symlink); older caches of the same bundle path
 * and Node are removed. Failures only mean no cache.
 */
export function requireBundle(file: string, dir: string | undefined, load: NodeJS.Require): unknown {
  if (dir === undefined) return load(file);
  const { prefix, name } = cacheFileName(file);
  const cacheFile = path.join(dir, name);
  const cachedData = readPrivateFile(cacheFile);
  const script = new vm.Script(`${WRAPPER}${readFileSync(file, 'utf8')}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once('exit', () => writeCache(dir, prefix, name, () => script.createCachedData()));
  }
  const module = { exports: {} as unknown };
  const init = script.runInThisContext() as (...args: unknown[]) => void;
  init.call(module.exports, module.exports, load, module, file, path.dirname(file));
  return module.exports;
}

/**
 * The name of a bundle's cache file, and the prefix its older caches share (see requireBundle). One cache per
 * installed bundle: two installs run in turn (a global one and an npx one) keep theirs.
 */
export function cacheFileName(file: string): { prefix: string; name: string } {
  const stat = statSync(file);
  const prefix = `${path.basename(file)}-${process.version}-${process.arch}-${fnv1a(file)}-`;
  const identity = [stat.dev, stat.ino, stat.size, Math.trunc(stat.mtimeMs)].map((n) => n.toString(36));
  return { prefix, name: `${prefix}${identity.join('.')}.v8` };
}

/**
 * CommonJS's module wrapper. The bundles require only Node's modules and better-sqlite3, which resolve the
 * same from bin/ as from dist/, so they get the bin script's `require` (node:module stays unloaded).
 */
const WRAPPER = '(function (exports, require, module, __filename, __dirname) { ';

/**
 * Our own cache file, or undefined: checked on the descriptor that is read (no link followed, no FIFO waited
 * on, docs/invariants.md, "Regular files only, never a blocking read"), so nothing can take its place between
 * the check and the read.
 */
function readPrivateFile(file: string): Buffer | undefined {
  const opened = openRegularFileSync(file, constants.O_NOFOLLOW ?? 0);
  if (opened.kind !== 'open') return undefined;
  try {
    if (typeof process.getuid === 'function' && opened.stat.uid !== process.getuid()) return undefined;
    return readFileSync(opened.fd);
  } catch {
    return undefined;
  } finally {
    closeSync(opened.fd);
  }
}

function writeCache(dir: string, prefix: string, name: string, data: () => Buffer): void {
  const temp = path.join(dir, `.${name}.${process.pid}.tmp`);
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeFileSync(fd, data());
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path.join(dir, name));
    // "Now" as the file system dates files: the file just written, so both times come from one clock.
    const now = lstatSync(path.join(dir, name)).mtimeMs;
    for (const old of readdirSync(dir)) {
      const file = path.join(dir, old);
      // The bundle's older caches, and temp files killed runs left (src/cache/abandoned-temp.ts). One at a
      // time: another run sweeping the same file must not stop this sweep.
      try {
        const stale = old.startsWith(prefix) && old !== name;
        if (stale || (isTempName(old) && isAbandonedTemp(lstatSync(file), now))) unlinkSync(file);
      } catch {}
    }
  } catch {
    try {
      unlinkSync(temp);
    } catch {}
  }
}

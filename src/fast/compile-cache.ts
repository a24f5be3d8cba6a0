/**
 * Node's compile cache (Node ≥ 22.1) in our own cache directory (docs/behaviour.md §26.10): V8 keeps the
 * compiled bundle there, so later runs skip compiling it. bin/codexbar.js loads this small module, before
 * the bundle, only when `module.enableCompileCache` exists. The directory is
 * `<cache dir>/codexbar/compile-cache`, created 0700; anything unusable (a symlink, another owner, open to
 * others) means no compile cache, never an error.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codexbarCacheDir } from '../cache/cache-dir.js';

export function compileCacheDir(): string | undefined {
  const platform = process.platform === 'darwin' || process.platform === 'win32' ? process.platform : 'linux';
  const root = codexbarCacheDir({ platform, env: process.env, homeDir: os.homedir(), now: () => new Date() });
  if (!path.isAbsolute(root)) return undefined;
  const dir = path.join(root, 'compile-cache');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
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

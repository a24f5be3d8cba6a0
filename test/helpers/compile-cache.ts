/**
 * Gives a spawned CLI's HOME the run's warm compile cache (test/setup/compile-cache.ts), as any user's
 * machine has after its first run. Only where HOME has no cache yet (or, for another install, none of that
 * install's); the directories are made as the CLI makes them (0700, files 0600), so the CLI trusts and keeps
 * them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { cacheFileName } from '../../src/boot/compile-cache.js';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');

/**
 * `bin`, another install's bin/codexbar.js (test/integration/sqlite-fallback.test.ts), also gets the warm
 * cache of each bundle it has under the name that install looks for: its bundles are the worktree's bytes
 * at another path, which V8 accepts, so it does not compile them cold and write a cache at exit each run.
 */
export function seedCompileCache(home: string, bin?: string): void {
  const warm = inject('warmCompileCache');
  const dir = path.join(home, '.cache', 'codexbar', 'compile-cache');
  if (!warm) return;
  const fresh = !fs.existsSync(dir);
  if (fresh) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const copies: Array<[from: string, to: string]> = fresh
    ? fs.readdirSync(warm).map((name) => [name, name])
    : [];
  if (bin !== undefined) copies.push(...installCopies(warm, dir, bin));
  for (const [from, to] of copies) {
    fs.copyFileSync(path.join(warm, from), path.join(dir, to));
    fs.chmodSync(path.join(dir, to), 0o600);
  }
}

/** The warm cache files another install's bundles can use, each under the name that install looks for. */
function installCopies(warm: string, dir: string, bin: string): Array<[from: string, to: string]> {
  return ['cli.cjs', 'statusline.cjs'].flatMap((bundle): Array<[string, string]> => {
    const theirs = path.join(path.dirname(bin), '..', 'dist', bundle);
    if (!fs.existsSync(theirs)) return [];
    const own = fs.realpathSync(path.join(dist, bundle));
    const ours = cacheFileName(own).name;
    // The name from the path the bin script's require.resolve gives, links resolved.
    const other = fs.realpathSync(theirs);
    const name = cacheFileName(other).name;
    const usable =
      fs.existsSync(path.join(warm, ours)) && !fs.existsSync(path.join(dir, name)) && sameBytes(own, other);
    return usable ? [[ours, name]] : [];
  });
}

/**
 * Whether another install's bundle is the worktree's, byte for byte. V8 checks only a cache's source length,
 * so code compiled from other bytes must never be handed over: a packed install built apart from this
 * worktree (`.ci/run`'s npm installs) gets its cache only when it is the same build.
 */
const same = new Map<string, boolean>();
function sameBytes(own: string, other: string): boolean {
  let answer = same.get(other);
  if (answer === undefined) {
    answer = fs.readFileSync(own).equals(fs.readFileSync(other));
    same.set(other, answer);
  }
  return answer;
}

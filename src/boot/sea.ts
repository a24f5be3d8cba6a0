/**
 * The single executable's entry (docs/single-executable.md): one CommonJS bundle that Node's `--build-sea`
 * puts inside a Node binary, with the fast path and the CLI in it. An executable can `require` only Node's
 * built-in modules, so better-sqlite3 is never tried and node:sqlite is its SQLite engine (src/local/sqlite.ts);
 * its code cache is built in by `--build-sea` (`useCodeCache`), so it writes no compile cache.
 */
import { launch } from './launch.js';

/** package.json's version, put here by the build (scripts/build-sea.ts). */
declare const CODEXBAR_VERSION: string;

// argv is [executable, the name it was run by, …arguments], as for `node script …`.
launch(process.argv.slice(2), {
  version: () => CODEXBAR_VERSION,
  fastPath: () => import('../statusline/fast-path.js'),
  cli: () => import('../cli.js'),
});

/**
 * Global setup (test/setup/global.ts): one warm compile cache for the whole run. Every test that spawns the built CLI gives it a
 * fresh HOME, so each run would compile the bundles from scratch and write a code cache on exit, ~70 ms of
 * CPU a process (bench/README.md, "npm test"). Two runs here (`usage --json` and a `statusline`, against a
 * fake cursor.com) leave a cache that test/helpers/compile-cache.ts copies into each HOME before a spawn. The
 * tests of the compile cache itself start cold.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { startFakeCursor } from '../fake-cursor/server.js';
import { proAccount } from '../helpers/accounts.js';
import { makeToken } from '../helpers/home.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The warm `compile-cache` directory, or null when the CLI is not built. */
    warmCompileCache: string | null;
  }
}

export async function warmCompileCache(project: TestProject): Promise<() => void> {
  if (!fs.existsSync(path.join(repoRoot, 'dist', 'cli.cjs'))) {
    project.provide('warmCompileCache', null);
    return () => {};
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-compile-cache-'));
  const token = await makeToken('user_compile_cache');
  const fake = await startFakeCursor({ accounts: [proAccount([token.cookieValue], 'cache@example.com')] });
  try {
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: root,
      TZ: 'UTC',
      CODEXBAR_CURSOR_BASE_URL: fake.url,
      CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${token.cookieValue}`,
    };
    // A failed run throws, with its stderr: nothing would be warm, and the suite should say why.
    for (const args of [['usage', '--json'], ['statusline']]) {
      await promisify(execFile)(process.execPath, [path.join(repoRoot, 'bin', 'codexbar.js'), ...args], {
        env,
      });
    }
  } finally {
    await fake.close();
  }
  project.provide('warmCompileCache', path.join(root, '.cache', 'codexbar', 'compile-cache'));
  return () => fs.rmSync(root, { recursive: true, force: true });
}

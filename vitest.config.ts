import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

const TMPFS_MAGIC = 0x01021994;

/**
 * Where the tests' HOMEs, stores and copies go: Linux's /dev/shm when it is a tmpfs with room, unless
 * TMPDIR is set. The suite makes and removes thousands of small files and real SQLite stores that fsync;
 * on a disk (here ext4 mounted with `discard`, which trims on every unlink) that waiting cost 4–5 s of an
 * `npm test` (bench/README.md, "npm test"). Nothing a test checks depends on the file system being a disk.
 */
function scratchDir(): string | undefined {
  if (process.env.TMPDIR || process.platform !== 'linux') return undefined;
  try {
    const shm = fs.statfsSync('/dev/shm');
    const room = shm.bavail * shm.bsize;
    fs.accessSync('/dev/shm', fs.constants.W_OK);
    return shm.type === TMPFS_MAGIC && room >= 4 * 1024 ** 3 ? '/dev/shm' : undefined;
  } catch {
    return undefined;
  }
}

const scratch = scratchDir();

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Suites with their own config and script: test/keyring needs a real keyring in a D-Bus session
    // (`npm run test:keyring`), test/browser a real Chromium (`npm run test:browser`), test/prometheus a real
    // Prometheus (`npm run test:prometheus`), test/sea the single executable (`npm run test:sea`); `.ci/run` runs
    // all four.
    exclude: [
      ...configDefaults.exclude,
      'test/keyring/**',
      'test/browser/**',
      'test/prometheus/**',
      'test/sea/**',
    ],
    env: { TZ: 'UTC', ...(scratch ? { TMPDIR: scratch } : {}) },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine. Much of the
    // suite waits on child processes, sockets and timers, so a worker per core keeps every core busy.
    maxWorkers: availableParallelism(),
    setupFiles: ['test/setup/sqlite.ts'],
    globalSetup: ['test/setup/global.ts'],
    // Test files share each worker's module graph instead of loading vitest, zod, undici and our modules
    // again per file: most of the suite's CPU time went there. So a test file leaves nothing behind: it
    // closes its servers and databases, never writes process.env, and mocks no module (the CLI gets its
    // environment, clock and budgets through `run(argv, io)`).
    isolate: false,
    // Transformed modules are kept in node_modules/.experimental-vitest-cache (keyed by content and
    // config), so a second run skips most of the ~9 s of transforms: 64.2 and 59.2 s without, 59.8 and
    // 50.5 s with, interleaved (bench/README.md, "npm test"). A fresh clone, or `vitest --clearCache`,
    // starts without it.
    experimental: { fsModuleCache: true },
    // Vitest blanks CSS imports unless told otherwise; the serve page imports its style sheet as text.
    css: { include: [/src\/serve\/page\/.*\.css/] },
  },
});

import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Suites with their own config and script: test/keyring needs a real keyring in a D-Bus session
    // (`npm run test:keyring`), test/browser a real Chromium (`npm run test:browser`); `.ci/run` runs both.
    exclude: [...configDefaults.exclude, 'test/keyring/**', 'test/browser/**'],
    env: { TZ: 'UTC' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine. Much of the
    // suite waits on child processes, sockets and timers, so a worker per core keeps every core busy.
    maxWorkers: availableParallelism(),
    setupFiles: ['test/setup/sqlite.ts'],
    // Test files share each worker's module graph instead of loading vitest, zod, undici and our modules
    // again per file: most of the suite's CPU time went there. So a test file leaves nothing behind: it
    // closes its servers and databases, never writes process.env, and mocks no module (the CLI gets its
    // environment, clock and budgets through `run(argv, io)`).
    isolate: false,
    // Vitest blanks CSS imports unless told otherwise; the serve page imports its style sheet as text.
    css: { include: [/src\/serve\/page\/.*\.css/] },
  },
});

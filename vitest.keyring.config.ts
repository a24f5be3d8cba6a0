import { defineConfig } from 'vitest/config';

// `npm run test:keyring`: the suites that need a real OS keyring and a D-Bus session, kept out of `npm test`.
export default defineConfig({
  test: {
    include: ['test/keyring/**/*.test.ts'],
    env: { TZ: 'UTC' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});

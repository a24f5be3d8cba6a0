import { defineConfig } from 'vitest/config';

// `npm run test:sea`: the single executable (`npm run build:sea`, docs/single-executable.md) against the fake
// cursor.com, kept out of `npm test` because building it takes a Node 26 binary from the npm registry and
// ~10 s. `.ci/run` runs it.
export default defineConfig({
  test: {
    include: ['test/sea/**/*.test.ts'],
    env: { TZ: 'UTC' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});

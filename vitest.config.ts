import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/keyring needs a real keyring in a D-Bus session: `npm run test:keyring` (see .ci/run).
    exclude: [...configDefaults.exclude, 'test/keyring/**'],
    env: { TZ: 'UTC' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});

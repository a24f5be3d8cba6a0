import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The browser suite has its own config and script (`npm run test:browser`); `npm test` needs no browser.
    exclude: [...configDefaults.exclude, 'test/browser/**'],
    env: { TZ: 'UTC' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest blanks CSS imports unless told otherwise; the serve page imports its style sheet as text.
    css: { include: [/src\/serve\/page\/.*\.css/] },
  },
});

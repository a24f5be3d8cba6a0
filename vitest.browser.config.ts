import { defineConfig } from 'vitest/config';

// `npm run test:browser`: the dashboard page in headless Chromium (test/browser/). Kept out of `npm test`,
// which must not need a browser.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    env: { TZ: 'UTC' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest blanks CSS imports unless told otherwise; the serve page imports its style sheet as text.
    css: { include: [/src\/serve\/page\/.*\.css/] },
    // One Chromium at a time on a 2-core machine.
    fileParallelism: false,
  },
});

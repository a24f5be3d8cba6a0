import { defineConfig } from 'vitest/config';

// `npm run test:prometheus`: a real Prometheus scraping `serve`'s /metrics, and promtool on the example rules
// (docs/prometheus/), kept out of `npm test` like the keyring and browser suites: Prometheus waits ~5 s before
// its first scrape. `.ci/run` installs Debian's `prometheus` and runs it with CODEXBAR_REQUIRE_PROMETHEUS=1.
export default defineConfig({
  test: {
    include: ['test/prometheus/**/*.test.ts'],
    env: { TZ: 'UTC' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});

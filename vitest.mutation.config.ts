import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The tests `npm run test:mutation` runs against each mutant (stryker.config.json): the unit tests, which
 * pin the rule modules it mutates one at a time. The integration tests run the whole CLI for every mutant
 * they cover, which made a cold run take hours on two cores (the event store's verification, pinned end to
 * end, has a run of its own: vitest.mutation-store.config.ts); those that spawn the built CLI would run
 * dist/, which a mutant of src/ never reaches. (Replaced, not merged: vitest's mergeConfig
 * would append to the suite's `include`.)
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/unit/**/*.test.ts'],
    // The module cache is keyed by a module's path, not by what Stryker's sandbox made of it: with it on,
    // every mutant ran the cached, unmutated code.
    experimental: { ...base.test?.experimental, fsModuleCache: false },
  },
});

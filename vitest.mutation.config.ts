import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The tests `npm run test:mutation` runs against each mutant (stryker.config.json): the unit tests and the
 * in-process integration tests of the rule modules it mutates. Tests that spawn the built CLI are left
 * out: they run dist/, which a mutant of src/ never reaches. (Replaced, not merged: vitest's mergeConfig
 * would append to the suite's `include`.)
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      'test/unit/**/*.test.ts',
      'test/integration/cost-*.test.ts',
      'test/integration/team-*.test.ts',
      'test/integration/statusline*.test.ts',
      'test/integration/usage-{cache,output,team,unified}.test.ts',
    ],
    // The module cache is keyed by a module's path, not by what Stryker's sandbox made of it: with it on,
    // every mutant ran the cached, unmutated code.
    experimental: { ...base.test?.experimental, fsModuleCache: false },
  },
});

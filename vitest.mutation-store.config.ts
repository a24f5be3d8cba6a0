import { defineConfig } from 'vitest/config';
import mutation from './vitest.mutation.config.js';

/** stryker.store.config.json: the unit tests and the event store's end-to-end tests, for ranged-collect.ts. */
export default defineConfig({
  ...mutation,
  test: {
    ...mutation.test,
    include: [...(mutation.test?.include ?? []), 'test/integration/{cost,team-cost}-store.test.ts'],
  },
});

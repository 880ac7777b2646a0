import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutate` runs against each mutant of the domain's money and grade rules
 * (stryker.config.mjs, decision record 031): the domain's own tests. Kept apart from
 * vitest.config.ts so that `npm test` is unchanged.
 */
export default defineConfig({
  test: {
    include: ['packages/domain/src/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
  },
});

import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutate` runs against each mutant of the domain's money and grade rules
 * (stryker.config.mjs, decision record 031): the domain's tests of those files and of the rules
 * built on them (fee reports, bank references). The rest of the domain's tests and the server's
 * never see these files' mutants die sooner, and a mutant of a constant (a static mutant) runs every
 * test listed here, so the list is kept to these. Kept apart from vitest.config.ts so that
 * `npm test` is unchanged.
 */
export default defineConfig({
  test: {
    include: ['packages/domain/src/{money,payments,fees,fee,bursary,bank-references,discounts,grading,ranking}*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
  },
});

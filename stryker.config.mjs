// Mutation testing of the domain's money and grade rules (decision record 031): `npm run mutate`.
// In place, so that any test that imports @portal/domain sees the mutated source; a run restores
// the files when it ends (also on Ctrl-C). Not part of `npm test`.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.mjs', related: false },
  coverageAnalysis: 'perTest',
  inPlace: true,
  // No "// @ts-nocheck" added to every file of the tree (vitest does not type-check anyway).
  disableTypeChecks: false,
  mutate: [
    'packages/domain/src/money.ts',
    'packages/domain/src/fees.ts',
    'packages/domain/src/fees-due.ts',
    'packages/domain/src/bursary.ts',
    'packages/domain/src/discounts.ts',
    'packages/domain/src/grading.ts',
    'packages/domain/src/ranking.ts',
    // The payment amount rule: sanitizeAmountInput, checkAmount and amountSchema.
    'packages/domain/src/payments.ts:175-228',
  ],
  // The machine has 2 cores shared with others: at most 2 test processes.
  concurrency: 2,
  timeoutMS: 20_000,
  thresholds: { high: 90, low: 85, break: 85 },
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/**/src/**/*.test.ts', 'apps/server/{src,test}/**/*.test.ts', 'apps/web/src/**/*.test.{ts,tsx}'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own database (SQLite in memory, or its own PostgreSQL schema).
    fileParallelism: true,
  },
});

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Transactions run through one helper, `inTransaction` (src/db/index.ts): no other product file
 * opens one with Kysely's `.transaction()` itself. Released migrations are frozen and keep theirs.
 */
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const OPENS_TRANSACTION = /\.transaction\(\)/;

function productFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => join(SRC, f))
    .filter((f) => !relative(SRC, f).startsWith('db/migrations/'));
}

describe('transactions through one helper', () => {
  it('the rule sees a transaction opened by hand (the probe)', () => {
    expect(OPENS_TRANSACTION.test('await this.repo.db.transaction().execute(async (trx) => {')).toBe(true);
    expect(OPENS_TRANSACTION.test('await inTransaction(this.repo.db, async (trx) => {')).toBe(false);
  });

  it('no product file but db/index.ts opens a transaction itself', () => {
    const files = productFiles();
    expect(files.length).toBeGreaterThan(100);
    const offenders = files
      .filter((f) => relative(SRC, f) !== 'db/index.ts')
      .filter((f) => OPENS_TRANSACTION.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f));
    expect(offenders).toEqual([]);
  });
});

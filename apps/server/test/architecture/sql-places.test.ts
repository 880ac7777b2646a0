import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * SQL lives in repositories (ARCHITECTURE.md, "Repository"): a module's `*.repository.ts` and the
 * `*.queries.ts` files a repository answers with, and `db/` (connection, migrations, seed, factories,
 * the shared audit and counter writers). A service or helper asks a repository; it writes no query.
 */
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const WRITES_SQL = /\.(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql`|\bsql<|\bsql\.(raw|ref|lit|join|id|table)\(/;
const MAY_HOLD_SQL = (file: string) => file.startsWith('db/') || /\.(repository|queries)\.ts$/.test(file);

function productFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => relative(SRC, join(SRC, f)));
}

describe('SQL only in repositories', () => {
  it('the rule sees a query and a raw fragment, and lets a repository call through (the probe)', () => {
    expect(WRITES_SQL.test("const rows = await trx.selectFrom('students').select('id').execute();")).toBe(true);
    expect(WRITES_SQL.test('await sql`select 1`.execute(conn);')).toBe(true);
    expect(WRITES_SQL.test('const rows = await this.repo.publications(sessionId, term, conn);')).toBe(false);
    expect(MAY_HOLD_SQL('modules/people/student-photos.service.ts')).toBe(false);
    expect(MAY_HOLD_SQL('modules/people/accounts.queries.ts')).toBe(true);
  });

  it('no service, route or helper outside repositories and db/ writes a query', () => {
    const files = productFiles();
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.filter((f) => !MAY_HOLD_SQL(f)).filter((f) => WRITES_SQL.test(readFileSync(join(SRC, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});

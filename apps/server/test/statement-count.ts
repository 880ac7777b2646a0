import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database, DB } from '../src/db/index';
import type { TestContext, TestDialect } from './helpers';

/**
 * Runs `run` over a Kysely of its own on the test's database and returns how many statements it
 * ran (Kysely's query log). On PostgreSQL the connection is a small pool on the test's schema,
 * closed afterwards; on SQLite it shares the test's database handle, which stays open.
 */
export async function countStatements(ctx: TestContext, dialect: TestDialect, run: (db: DB) => Promise<unknown>): Promise<number> {
  let n = 0;
  const log = (e: { level: string }) => {
    if (e.level === 'query') n++;
  };
  let db: DB;
  let pool: pg.Pool | undefined;
  if (dialect === 'sqlite') db = new Kysely<Database>({ dialect: new SqliteDialect({ database: ctx.handle.sqlite! }), log });
  else {
    pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 2, options: `-c search_path=${ctx.handle.pgSchema}` });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
  }
  try {
    await run(db);
  } finally {
    // (Destroying the SQLite Kysely would close the test's own database.)
    if (pool) await db.destroy();
  }
  return n;
}

import { Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import type { Database, DB } from '../src/db/index';
import type { TestContext, TestDialect } from './helpers';

/**
 * Runs `run` over a Kysely of its own on the test's database and returns how many statements it
 * ran (Kysely's query log). On PostgreSQL the connection is a small pool on the test's schema,
 * closed afterwards; on SQLite it shares the test's database handle, which stays open.
 */
export async function countStatements(ctx: TestContext, dialect: TestDialect, run: (db: DB) => Promise<unknown>): Promise<number> {
  const counting = countingConnection(ctx, dialect);
  try {
    await run(counting.db);
  } finally {
    await counting.close();
  }
  return counting.statements;
}

/**
 * A Kysely of its own on the test's database that counts the statements run through it
 * (`statements`, set back to 0 by `reset()`): for a count after a warm-up on the same services (the
 * reference cache filled, decision 047). `close()` ends the PostgreSQL pool; SQLite's handle stays open.
 */
export function countingConnection(
  ctx: TestContext,
  dialect: TestDialect,
): { db: DB; readonly statements: number; reset(): void; close(): Promise<void> } {
  let n = 0;
  const conn = loggingConnection(ctx, dialect, () => n++);
  return {
    db: conn.db,
    get statements() {
      return n;
    },
    reset() {
      n = 0;
    },
    close: () => conn.close(),
  };
}

/**
 * A Kysely of its own on the test's database that hands each statement's SQL to `onSql` (which tables
 * a read touches, how many statements it runs). `close()` ends the PostgreSQL pool; SQLite's handle stays open.
 */
export function loggingConnection(
  ctx: TestContext,
  dialect: TestDialect,
  onSql: (sql: string) => void,
): { db: DB; close(): Promise<void> } {
  const log = (e: LogEvent) => {
    if (e.level === 'query') onSql(e.query.sql);
  };
  let db: DB;
  let pool: pg.Pool | undefined;
  if (dialect === 'sqlite') db = new Kysely<Database>({ dialect: new SqliteDialect({ database: ctx.handle.sqlite! }), log });
  else {
    pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 2, options: `-c search_path=${ctx.handle.pgSchema}` });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
  }
  return {
    db,
    // (Destroying the SQLite Kysely would close the test's own database.)
    close: async () => {
      if (pool) await db.destroy();
    },
  };
}

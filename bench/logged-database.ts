import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import type { DatabaseHandle } from '../apps/server/src/db/index';
import type { Database } from '../apps/server/src/db/schema';

/**
 * A database handle on the bench school at `url` whose every query is also given to `log`: the
 * scenarios that count or capture the statements a request runs build their app on it.
 */
export function loggedDatabase(url: string, log: (e: LogEvent) => void): DatabaseHandle {
  if (url.startsWith('sqlite:')) {
    const sqlite = new SQLite(url.slice('sqlite:'.length));
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }), log });
    return { db, dialect: 'sqlite', sqlite, destroy: () => db.destroy() };
  }
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
  return { db, dialect: 'postgres', destroy: () => db.destroy() };
}

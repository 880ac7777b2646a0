import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import type { DatabaseHandle } from '../apps/server/src/db/index';
import type { Database } from '../apps/server/src/db/schema';
import { registerTableChanges, TableChanges, TableWritePlugin } from '../apps/server/src/db/table-changes';

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
    // Its own writes drop what the reference cache read (decision 047), as on the app's database.
    const changes = new TableChanges();
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }), log, plugins: [new TableWritePlugin(changes)] });
    registerTableChanges(db, changes);
    return { db, dialect: 'sqlite', sqlite, changes, destroy: () => db.destroy() };
  }
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const changes = new TableChanges();
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log, plugins: [new TableWritePlugin(changes)] });
  registerTableChanges(db, changes);
  return { db, dialect: 'postgres', changes, destroy: () => db.destroy() };
}

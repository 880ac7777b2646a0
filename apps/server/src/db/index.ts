import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type SelectQueryBuilder } from 'kysely';
import pg from 'pg';
import { secureSqliteFile } from '../lib/data-dir';
import { LATEST_MIGRATION, StaticMigrationProvider } from './migrations/index';
import type { Dialect } from './migrations/util';
import type { Database, DB, Trx } from './schema';
import { registerTableChanges, TableChanges, TableWritePlugin, tableChangesOf, TransactionWrites } from './table-changes';

// pg returns int8 (count, sum) and numeric (avg) as strings; the API wants numbers.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export interface DatabaseHandle {
  db: DB;
  dialect: Dialect;
  /** The SQLite file, when the database is SQLite on disk. */
  sqliteFile?: string;
  /** The raw better-sqlite3 connection (backups, integrity checks). */
  sqlite?: SQLite.Database;
  /** PostgreSQL: the schema every query runs in, when not the default. */
  pgSchema?: string;
  /** PostgreSQL: the connection string (the reference cache's listener opens a connection of its own). */
  pgUrl?: string;
  /** This process's writes to the reference tables (the cache's invalidation, db/table-changes.ts). */
  changes?: TableChanges;
  destroy(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL only: run every query in this schema (tests use one schema per test file). */
  pgSchema?: string;
  pgPoolSize?: number;
}

export function createDatabase(url: string, options: DatabaseOptions = {}): DatabaseHandle {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.pgPoolSize ?? 10,
      connectionTimeoutMillis: 5000,
      // random_page_cost 1.1 (the usual value for SSDs and a cached working set, instead of 4 for
      // spinning disks): with 4, PostgreSQL joins a class's 840 results to all 50,000 students with a
      // hash join over a full scan (23 ms) instead of 840 key lookups (2 ms). docs/performance.md.
      // A schema of its own (tests) also turns off parallel query: a parallel worker restoring the
      // session's search_path failed now and then with "schema t_… does not exist" (3F000, "where:
      // parallel worker") although the schema existed, failing a migration at random.
      options: [
        options.pgSchema ? `-c search_path=${options.pgSchema} -c max_parallel_workers_per_gather=0` : '',
        '-c random_page_cost=1.1',
      ]
        .filter(Boolean)
        .join(' '),
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    // Likewise a client that loses its connection while checked out (a database restart racing a
    // request): its query fails (-> 503) but the 'error' event it also emits must not kill the process.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const changes = new TableChanges();
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new TableWritePlugin(changes)] });
    registerTableChanges(db, changes);
    return { db, dialect: 'postgres', pgSchema: options.pgSchema, pgUrl: url, changes, destroy: () => db.destroy() };
  }
  const file = url.replace(/^sqlite:(\/\/)?/, '');
  // The file and its WAL/SHM are 0600 (SQLite gives the WAL/SHM the database file's mode).
  if (file !== ':memory:') secureSqliteFile(path.resolve(file));
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  if (file !== ':memory:') secureSqliteFile(path.resolve(file));
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const changes = new TableChanges();
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    plugins: [new TableWritePlugin(changes)],
  });
  registerTableChanges(db, changes);
  return {
    db,
    dialect: 'sqlite',
    changes,
    sqlite,
    sqliteFile: file === ':memory:' ? undefined : path.resolve(file),
    destroy: () => db.destroy(),
  };
}

/**
 * Kysely prepares every statement anew on each query; preparing costs as much as running a small
 * indexed query (bench: ~11% of the CPU of a read endpoint). The queries of the app are a small,
 * fixed set of SQL texts (parameters are bound, never inlined), so prepared statements are kept and
 * reused, a bounded number of them. A statement still busy (an open iterator of a streamed query)
 * is never handed out twice: a fresh one is prepared instead.
 */
export function withStatementCache(sqlite: SQLite.Database, max = 500) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SQLite.Statement {
      const hit = cache.get(sql);
      if (hit && !hit.busy) return hit;
      const stmt = sqlite.prepare(sql);
      if (!hit) {
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

export async function migrateToLatest(handle: DatabaseHandle): Promise<void> {
  const migrator = new Migrator({
    db: handle.db,
    provider: new StaticMigrationProvider(handle.dialect),
    // Kysely looks for its migration tables in every schema unless told which: without this, a
    // test schema is skipped when another test file's schema already has them.
    ...(handle.pgSchema ? { migrationTableSchema: handle.pgSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

export async function pingDatabase(db: DB): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

export type DatabaseReadiness = 'ok' | 'unreachable' | 'migrations_pending';

/**
 * Readiness: the database answers and holds this build's newest migration (one primary-key lookup in
 * Kysely's migration table; a newer release's further migrations are fine). SQLite asks the raw
 * connection, like the health check, so a long write transaction does not hold the answer up.
 */
export async function databaseReadiness(handle: DatabaseHandle): Promise<DatabaseReadiness> {
  try {
    const found = handle.sqlite
      ? handle.sqlite.prepare('select 1 as ok from kysely_migration where name = ?').get(LATEST_MIGRATION) !== undefined
      : (await sql`select 1 as ok from kysely_migration where name = ${LATEST_MIGRATION}`.execute(handle.db)).rows.length > 0;
    return found ? 'ok' : 'migrations_pending';
  } catch (err) {
    // No migration table at all: a database nothing has migrated yet.
    const e = err as { code?: string; message?: string };
    return e.code === '42P01' || /no such table/.test(e.message ?? '') ? 'migrations_pending' : 'unreachable';
  }
}

/**
 * The one way the server runs writes that stand or fall together: `work` gets the transaction and
 * every statement of it goes through that connection. One place to change how transactions run
 * (isolation, retries, timing) for every module.
 */
export async function inTransaction<T>(db: DB, work: (trx: Trx) => Promise<T>): Promise<T> {
  const changes = tableChangesOf(db);
  // The reference tables it wrote are reported again once it committed (never when it rolled back):
  // a cache read between the write and the commit may have kept the old rows (decision 047).
  const writes = changes ? new TransactionWrites() : undefined;
  const trx = await db.startTransaction().execute();
  let out: T;
  try {
    out = await work(writes ? trx.withPlugin(writes) : trx);
    await trx.commit().execute();
  } catch (err) {
    // The rollback's own failure never replaces the cause: after SQLITE_FULL (or a failed commit)
    // SQLite has already rolled back, and "cannot rollback - no transaction is active" would hide
    // the disk being full (issue 37.11). The connection is released either way.
    await trx
      .rollback()
      .execute()
      .catch(() => undefined);
    throw err;
  }
  if (writes) changes!.emit(writes.tables);
  return out;
}

/**
 * A module's repository over the app's database: its queries run on `db`; `transaction` opens one
 * (`inTransaction`); `dialect` for the few statements that differ (row locks, upserts).
 */
export abstract class Repository {
  constructor(
    protected readonly db: DB,
    protected readonly dialect: 'sqlite' | 'postgres' = 'sqlite',
  ) {}

  transaction<T>(fn: (trx: Trx) => Promise<T>): Promise<T> {
    return inTransaction(this.db, fn);
  }
}

/** How many rows a query (its tables joined and filtered, nothing selected yet) matches. */
export async function countOf<D, T extends keyof D>(query: SelectQueryBuilder<D, T, object>): Promise<number> {
  // Typed by hand: the generic tables leave kysely unable to name the selection's `n`.
  const row = (await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()) as { n: number | string };
  return Number(row.n);
}

/** ISO-8601 UTC timestamp as stored in every `*_at` column. */
export function nowIso(): string {
  return new Date().toISOString();
}

export type { Conn, DB, Database, Trx } from './schema';

import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Config } from '../config';
import { migrateToLatest, type DatabaseHandle, inTransaction } from './index';
import { seedNewInstallCurricula } from './seed/curricula';
import { ensureFirstAdmin, seedDemoSchool, type SignInNotes } from './seed/index';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn'>;

/**
 * The key of the start-up lock: one per schema (PostgreSQL scopes advisory locks to a database),
 * so instances of one portal wait for each other while test schemas in one database do not.
 */
const LOCK_KEY = sql`hashtext('school-portal:startup'), hashtext(current_schema())`;

/**
 * Runs `fn` while this process holds the portal's start-up lock. On PostgreSQL it is a
 * transaction-scoped advisory lock on a connection of its own: several instances starting at the
 * same moment run their start-up one after another, and the lock is released when the transaction
 * ends, also when `fn` throws or the process dies (the server ends the session). `fn` works through
 * the pool's other connections. SQLite has one process per database file: nothing to wait for.
 */
export async function withStartupLock<T>(handle: DatabaseHandle, log: Log, fn: () => Promise<T>): Promise<T> {
  if (handle.dialect !== 'postgres') return fn();
  return inTransaction(handle.db, async (trx) => {
    const { rows } = await sql<{ got: boolean }>`select pg_try_advisory_xact_lock(${LOCK_KEY}) as got`.execute(trx);
    if (!rows[0]?.got) {
      log.info('another instance is starting on this database: waiting for its migrations and seed');
      await sql`select pg_advisory_xact_lock(${LOCK_KEY})`.execute(trx);
    }
    return fn();
  });
}

/**
 * What every start does to the database before serving: migrations, then the first admin (and the
 * demo school when asked), all under the start-up lock. Kysely's migrator locks its own migrations,
 * but the seeds check "is there an admin yet?" and then insert: two instances starting together
 * would both insert, and one would fail on the unique e-mail. Under one lock the second instance
 * finds the first one's admin and migrations, and does nothing. The sign-ins made go to `notes`
 * (main.ts prints them last), or straight to stdout without it.
 */
export async function prepareDatabase(handle: DatabaseHandle, config: Config, log: Log, notes?: SignInNotes): Promise<void> {
  await withStartupLock(handle, log, async () => {
    await migrateToLatest(handle);
    // Before the first admin: a database without accounts is a new install (nothing else is). The
    // demo school describes its own structure (seed/teaching.ts), which the e2e specs and the bench know.
    if (!config.demoData && (await seedNewInstallCurricula(handle.db)))
      log.info('new install: national curricula set as the subjects and offerings');
    await ensureFirstAdmin(handle.db, config, log, notes);
    if (config.demoData) await seedDemoSchool(handle.db, log, 4, config.demoPasswords, notes);
  });
}

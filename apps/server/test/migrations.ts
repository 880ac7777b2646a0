import { Migrator } from 'kysely';
import { createDatabase, type DatabaseHandle } from '../src/db/index';
import { StaticMigrationProvider } from '../src/db/migrations/index';
import { newPgSchema, type TestDialect } from './helpers';

/**
 * A database migrated only up to `migration`, as an earlier release left it, for upgrade tests: a
 * private in-memory SQLite or a PostgreSQL schema of its own. Its clean-up goes onto `cleanups`.
 */
export async function databaseAtMigration(
  dialect: TestDialect,
  migration: string,
  cleanups: (() => Promise<void> | void)[],
): Promise<DatabaseHandle> {
  let handle: DatabaseHandle;
  if (dialect === 'postgres') {
    const url = process.env.TEST_DATABASE_URL!;
    const schema = await newPgSchema(url, 'm');
    handle = createDatabase(url, { pgSchema: schema.name, pgPoolSize: 3 });
    cleanups.push(schema.drop);
  } else {
    handle = createDatabase('sqlite::memory:');
  }
  cleanups.push(() => handle.destroy());
  const migrator = new Migrator({
    db: handle.db,
    provider: new StaticMigrationProvider(handle.dialect),
    ...(handle.pgSchema ? { migrationTableSchema: handle.pgSchema } : {}),
  });
  const { error } = await migrator.migrateTo(migration);
  if (error) throw error instanceof Error ? error : new Error(`migration to ${migration} failed`);
  return handle;
}

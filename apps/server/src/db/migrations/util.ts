import type { CreateTableBuilder, Migration } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/** Every migration is a function of the dialect, so the same file serves SQLite and PostgreSQL. */
export type DialectMigration = (dialect: Dialect) => Migration;

/** An auto-increment integer primary key on both dialects. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

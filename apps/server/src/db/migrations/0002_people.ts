import type { Kysely } from 'kysely';
import type { DialectMigration } from './util';

/** People: indexes for the people lists (the tables themselves are in the foundation). */
export const people: DialectMigration = (_dialect) => ({
  async up(db: Kysely<unknown>) {
    // The paged lists and the name search order by surname, then first name.
    await db.schema.createIndex('students_name').on('students').columns(['last_name', 'first_name']).execute();
    await db.schema.createIndex('staff_name').on('staff').columns(['last_name', 'first_name']).execute();
  },
});

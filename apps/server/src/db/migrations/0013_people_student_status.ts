import type { Kysely } from 'kysely';
import type { DialectMigration } from './util';

/**
 * Withdrawn students: a student who leaves keeps their record, results and
 * payments; the record is read-only and the account cannot sign in. Every existing student is
 * 'active' (the column's default), so a database of the previous release migrates without loss.
 */
export const peopleStudentStatus: DialectMigration = (_dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('students')
      .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('active'))
      .execute();
    await db.schema.alterTable('students').addColumn('withdrawn_at', 'varchar(40)').execute();
    // The class lists filter on it with the class they already filter on.
    await db.schema.createIndex('students_status_class').on('students').columns(['status', 'student_class']).execute();
  },
});

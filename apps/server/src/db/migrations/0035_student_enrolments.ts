import type { Kysely } from 'kysely';
import { withId, type DialectMigration } from './util';

/**
 * Class history per session (decision record 038): `student_enrolments` keeps each student's arm
 * (and stream) in a session once that session is closed by promotion. A session with rows is closed:
 * its rosters and each student's arm in it come from those rows only; a session without rows is live
 * and reads `students.student_class`. Students gain the `graduated` status (alumni) and the date they
 * graduated. New table and one new nullable column: nothing existing changes.
 */
export const studentEnrolments: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('student_enrolments'), dialect)
      .addColumn('student_id', 'integer', (c) => c.notNull().references('students.id').onDelete('cascade'))
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      // The arm by name, renamed with it (decision 016).
      .addColumn('student_class', 'varchar(100)', (c) => c.notNull().references('class_arms.name').onUpdate('cascade'))
      .addColumn('stream_id', 'integer')
      // promoted | trial | repeat | graduated | moved | null
      .addColumn('outcome', 'varchar(12)')
      .addColumn('run_id', 'integer')
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addUniqueConstraint('student_enrolments_student_session', ['student_id', 'session_id'])
      .execute();
    // A closed session's roster of an arm, and "is this session closed".
    await db.schema
      .createIndex('student_enrolments_session_class')
      .on('student_enrolments')
      .columns(['session_id', 'student_class'])
      .execute();
    await db.schema.createIndex('student_enrolments_run').on('student_enrolments').column('run_id').execute();
    await db.schema.alterTable('students').addColumn('graduated_at', 'varchar(40)').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('students').dropColumn('graduated_at').execute();
    await db.schema.dropTable('student_enrolments').ifExists().execute();
  },
});

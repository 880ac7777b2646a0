import type { Kysely } from 'kysely';
import { withId, type DialectMigration } from './util';

/**
 * End-of-session promotion (decision record 039): each run (who started it, from which session into
 * which, its status and summary) and each student's move, with where the student was before, so a
 * run can be undone while the new session is still empty. A single student's move with a reason is a
 * move without a run. The closed session's class history is migration 0035's `student_enrolments`;
 * these tables only say how the students got there. New tables: nothing existing changes.
 */
export const promotionRuns: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('promotion_runs'), dialect)
      .addColumn('from_session_id', 'integer', (c) => c.notNull().references('academic_sessions.id'))
      .addColumn('to_session_id', 'integer', (c) => c.notNull().references('academic_sessions.id'))
      // The one arm promoted, or null for the whole school.
      .addColumn('arm', 'varchar(40)')
      // running | done | failed | undone
      .addColumn('status', 'varchar(10)', (c) => c.notNull())
      .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
      // {promoted, trial, repeat, graduated, left_out} as JSON text
      .addColumn('summary', 'text', (c) => c.notNull())
      // What the admin asked for (mapping and per-student changes) as JSON text, for the audit trail.
      .addColumn('request', 'text', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('finished_at', 'varchar(30)')
      .addColumn('undone_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('undone_at', 'varchar(30)')
      .execute();
    await db.schema.createIndex('promotion_runs_from_session').on('promotion_runs').columns(['from_session_id', 'status']).execute();

    await withId(db.schema.createTable('promotion_moves'), dialect)
      // null: a single student's move with a reason
      .addColumn('run_id', 'integer', (c) => c.references('promotion_runs.id').onDelete('cascade'))
      .addColumn('student_id', 'integer', (c) => c.notNull().references('students.id').onDelete('cascade'))
      // promoted | trial | repeat | graduated | moved
      .addColumn('outcome', 'varchar(10)', (c) => c.notNull())
      // Arms by name, renamed with them (decision 016): an undo puts a student back in the arm as it is called now.
      .addColumn('from_class', 'varchar(40)', (c) => c.notNull().references('class_arms.name').onUpdate('cascade'))
      .addColumn('from_stream_id', 'integer')
      .addColumn('from_status', 'varchar(20)', (c) => c.notNull())
      .addColumn('to_class', 'varchar(40)', (c) => c.notNull().references('class_arms.name').onUpdate('cascade'))
      .addColumn('to_stream_id', 'integer')
      .addColumn('to_status', 'varchar(20)', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('promotion_moves_run').on('promotion_moves').column('run_id').execute();
    await db.schema.createIndex('promotion_moves_student').on('promotion_moves').columns(['student_id', 'id']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('promotion_moves').ifExists().execute();
    await db.schema.dropTable('promotion_runs').ifExists().execute();
  },
});

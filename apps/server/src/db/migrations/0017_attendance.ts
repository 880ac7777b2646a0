import type { Kysely } from 'kysely';
import { withId, type DialectMigration } from './util';

/**
 * The daily attendance register: the school calendar (each term's dates, holidays,
 * mid-term breaks and extra school days), the registers an arm's form teacher saves for a day (and
 * period), each student's mark on them, and term totals carried in from paper registers.
 *
 * Nothing stored changes. The registers-a-day and Saturday settings live in `settings` under their
 * own key, with defaults until the admin saves them; the card keeps reading `report_terms` and
 * `report_card_entries` (the admin's typed "times opened" and the form teacher's totals override the
 * register's).
 */
export const attendance: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('school_terms')
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('term', 'varchar(3)', (c) => c.notNull())
      .addColumn('starts_on', 'varchar(10)', (c) => c.notNull())
      .addColumn('ends_on', 'varchar(10)', (c) => c.notNull())
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('school_terms_pk', ['session_id', 'term'])
      .execute();

    await withId(db.schema.createTable('calendar_events'), dialect)
      .addColumn('name', 'varchar(80)', (c) => c.notNull())
      // holiday | mid_term_break | school_day
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('starts_on', 'varchar(10)', (c) => c.notNull())
      .addColumn('ends_on', 'varchar(10)', (c) => c.notNull())
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('calendar_events_dates').on('calendar_events').columns(['starts_on', 'ends_on']).execute();

    await withId(db.schema.createTable('attendance_registers'), dialect)
      .addColumn('student_class', 'varchar(40)', (c) => c.notNull())
      .addColumn('date', 'varchar(10)', (c) => c.notNull())
      // morning | afternoon
      .addColumn('period', 'varchar(10)', (c) => c.notNull())
      // The term the date fell in when saved (the calendar refuses changes that would move it).
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('term', 'varchar(3)', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('marked_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('marked_at', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('attendance_registers_arm_day', ['student_class', 'date', 'period'])
      .execute();
    await db.schema.createIndex('attendance_registers_term').on('attendance_registers').columns(['session_id', 'term']).execute();
    await db.schema.createIndex('attendance_registers_date').on('attendance_registers').columns(['date']).execute();

    await db.schema
      .createTable('attendance_marks')
      .addColumn('register_id', 'integer', (c) => c.notNull().references('attendance_registers.id').onDelete('cascade'))
      .addColumn('student_id', 'integer', (c) => c.notNull().references('students.id').onDelete('cascade'))
      // present | late | absent | excused
      .addColumn('status', 'varchar(8)', (c) => c.notNull())
      .addPrimaryKeyConstraint('attendance_marks_pk', ['register_id', 'student_id'])
      .execute();
    await db.schema.createIndex('attendance_marks_student').on('attendance_marks').columns(['student_id', 'register_id']).execute();

    await db.schema
      .createTable('attendance_carried')
      .addColumn('student_id', 'integer', (c) => c.notNull().references('students.id').onDelete('cascade'))
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('term', 'varchar(3)', (c) => c.notNull())
      .addColumn('days_present', 'integer', (c) => c.notNull())
      .addColumn('days_absent', 'integer', (c) => c.notNull())
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('attendance_carried_pk', ['student_id', 'session_id', 'term'])
      .execute();
  },
});

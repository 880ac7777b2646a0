import type { Kysely } from 'kysely';
import type { DialectMigration } from './util';

/**
 * The full report card: the term's dates (next term begins, times school opened), each
 * student's card entries for a term (ratings, the two comments, attendance totals, a promotion
 * override), the approval status of each arm's cards for a term, and student photos.
 *
 * Nothing stored changes. A class already published keeps its publication, which is what "released"
 * is; an arm without a status row is a draft. The rating lists, labels, comment bank and promotion
 * rule live in `settings` under their own key, with defaults until the admin saves them.
 */
export const reportCards: DialectMigration = (_dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('report_terms')
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('term', 'varchar(3)', (c) => c.notNull())
      .addColumn('next_term_begins', 'text')
      .addColumn('times_opened', 'integer')
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('report_terms_pk', ['session_id', 'term'])
      .execute();

    await db.schema
      .createTable('report_card_entries')
      .addColumn('student_id', 'integer', (c) => c.notNull().references('students.id').onDelete('cascade'))
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('term', 'varchar(3)', (c) => c.notNull())
      // The arm the entry was made in (the student's class that term), as on results.
      .addColumn('student_class', 'varchar(40)', (c) => c.notNull())
      // JSON object trait id → rating 1..5
      .addColumn('ratings', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('form_comment', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('principal_comment', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('days_present', 'integer')
      .addColumn('days_absent', 'integer')
      .addColumn('promotion_override', 'varchar(10)')
      .addColumn('override_reason', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('report_card_entries_pk', ['student_id', 'session_id', 'term'])
      .execute();
    await db.schema
      .createIndex('report_card_entries_class')
      .on('report_card_entries')
      .columns(['session_id', 'term', 'student_class'])
      .execute();

    await db.schema
      .createTable('report_card_status')
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('term', 'varchar(3)', (c) => c.notNull())
      .addColumn('student_class', 'varchar(40)', (c) => c.notNull())
      // draft | submitted | approved; released is the class's publication (result_publications)
      .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('draft'))
      .addColumn('submitted_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('submitted_at', 'text')
      .addColumn('approved_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('approved_at', 'text')
      .addColumn('returned_reason', 'text')
      .addColumn('returned_at', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('report_card_status_pk', ['session_id', 'term', 'student_class'])
      .execute();

    await db.schema
      .createTable('student_photos')
      .addColumn('student_id', 'integer', (c) => c.primaryKey().references('students.id').onDelete('cascade'))
      // A small normalised JPEG or PNG as a data URL.
      .addColumn('photo', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
});

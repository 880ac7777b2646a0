import { sql, type Kysely } from 'kysely';
import { withId, type DialectMigration } from './util';

/**
 * The bursar's office, second part: discounts and scholarships per student, and the
 * transfers students report for the bursar to confirm. Both are new tables; nothing existing changes.
 */
export const bursaryOffice: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('fee_discounts'), dialect)
      .addColumn('student_id', 'integer', (c) => c.notNull().references('students.id').onDelete('cascade'))
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      // NULL: every term of the session.
      .addColumn('term', 'varchar(3)')
      .addColumn('kind', 'varchar(20)', (c) => c.notNull())
      .addColumn('basis', 'varchar(10)', (c) => c.notNull())
      // Hundredths of a percent (1250 = 12.5 %), for basis percent.
      .addColumn('percent_bp', 'integer', (c) => c.notNull().defaultTo(0))
      // Kobo off each term covered, for basis fixed.
      .addColumn('amount_kobo', 'integer', (c) => c.notNull().defaultTo(0))
      // JSON array of fee item names as given; [] = every compulsory item.
      .addColumn('items', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('given_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('given_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('revoked_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('revoke_reason', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('fee_discounts_session_student').on('fee_discounts').columns(['session_id', 'student_id']).execute();

    await withId(db.schema.createTable('transfer_reports'), dialect)
      .addColumn('student_id', 'integer', (c) => c.notNull().references('students.id').onDelete('cascade'))
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('term', 'varchar(3)')
      .addColumn('amount_kobo', 'integer', (c) => c.notNull())
      .addColumn('method', 'varchar(16)', (c) => c.notNull())
      .addColumn('bank', 'text', (c) => c.notNull())
      .addColumn('bank_reference', 'text', (c) => c.notNull())
      .addColumn('bank_reference_key', 'text', (c) => c.notNull())
      .addColumn('paid_on', 'varchar(10)', (c) => c.notNull())
      .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('scan_mime', 'varchar(40)', (c) => c.notNull())
      // Base64 of the slip's bytes, as payment_scans.
      .addColumn('scan_data', 'text', (c) => c.notNull())
      .addColumn('scan_bytes', 'integer', (c) => c.notNull())
      .addColumn('status', 'varchar(12)', (c) => c.notNull().defaultTo('to_confirm'))
      .addColumn('reported_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('reported_at', 'text', (c) => c.notNull())
      .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('decided_at', 'text')
      .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('payment_id', 'integer', (c) => c.references('payments.id'))
      // Set while waiting, cleared when decided: one waiting report per bank reference (NULLs never clash).
      .addColumn('waiting_key', 'text')
      .addCheckConstraint('transfer_reports_status_valid', sql`status in ('to_confirm','confirmed','rejected')`)
      .addCheckConstraint('transfer_reports_amount_positive', sql`amount_kobo > 0`)
      .execute();
    await db.schema.createIndex('transfer_reports_waiting_key').on('transfer_reports').column('waiting_key').unique().execute();
    await db.schema.createIndex('transfer_reports_payment').on('transfer_reports').column('payment_id').unique().execute();
    await db.schema.createIndex('transfer_reports_status').on('transfer_reports').columns(['status', 'reported_at']).execute();
    await db.schema.createIndex('transfer_reports_student').on('transfer_reports').columns(['student_id', 'reported_at']).execute();
  },
});

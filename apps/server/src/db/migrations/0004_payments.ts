import { sql, type Kysely } from 'kysely';
import { withId, type DialectMigration } from './util';

/** Payments: payments, fee schedules, processed webhook events and the built-in simulator's ledger. */
export const payments: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('payments'), dialect)
      .addColumn('reference', 'text', (c) => c.notNull().unique())
      // Kept when a student record is deleted: a payment is a financial record (the snapshot columns stay).
      .addColumn('student_id', 'integer', (c) => c.references('students.id').onDelete('set null'))
      .addColumn('admission_number', 'text', (c) => c.notNull())
      .addColumn('full_name', 'text', (c) => c.notNull())
      .addColumn('current_class', 'text', (c) => c.notNull())
      .addColumn('current_session', 'text', (c) => c.notNull())
      .addColumn('term', 'text')
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('phone_number', 'text')
      .addColumn('amount_kobo', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull().defaultTo('NGN'))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('provider_transaction_id', 'text')
      .addColumn('provider_access_code', 'text')
      .addColumn('provider_status', 'text')
      .addColumn('initiated_by', 'integer')
      .addColumn('paid_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addCheckConstraint('payments_status_valid', sql`status in ('pending','successful','failed','abandoned')`)
      .addCheckConstraint('payments_amount_positive', sql`amount_kobo > 0`)
      .execute();
    await db.schema.createIndex('payments_student').on('payments').columns(['admission_number', 'created_at']).execute();
    await db.schema.createIndex('payments_student_id').on('payments').columns(['student_id', 'current_session', 'status']).execute();

    await withId(db.schema.createTable('fee_schedules'), dialect)
      .addColumn('student_class', 'text', (c) => c.notNull())
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('term', 'text', (c) => c.notNull())
      .addColumn('amount_kobo', 'integer', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('fee_schedules_one_per_term', ['student_class', 'session_id', 'term'])
      .execute();

    // A signed webhook body is processed once: its SHA-256 is the key.
    await db.schema
      .createTable('payment_webhook_events')
      .addColumn('body_hash', 'text', (c) => c.primaryKey())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('reference', 'text')
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('received_at', 'text', (c) => c.notNull())
      .execute();

    // The built-in simulator is a provider of its own: it keeps its transactions apart from ours.
    await db.schema
      .createTable('payment_simulator_transactions')
      .addColumn('reference', 'text', (c) => c.primaryKey())
      .addColumn('access_code', 'text', (c) => c.notNull().unique())
      .addColumn('amount_kobo', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('callback_url', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('paid_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
});

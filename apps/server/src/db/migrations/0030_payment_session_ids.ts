import { sql, type Kysely } from 'kysely';
import type { DialectMigration } from './util';

/**
 * Payments refer to their session by id (decision record 033): `payments.session_id` references
 * `academic_sessions(id)`, filled from the session the row names. Statements, debtors, collections
 * and receipts key by it, so renaming a session (correcting "2025/2025" to "2025/2026") no longer
 * drops its payments from every balance. `current_session` stays as the name the payment was made
 * under (the spec's field); a name that matches no session (none is known) leaves the id empty.
 * One added column and index; no row changes otherwise.
 */
export const paymentSessionIds: DialectMigration = () => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('payments')
      .addColumn('session_id', 'integer', (c) => c.references('academic_sessions.id'))
      .execute();
    await sql`update payments set session_id = (select s.id from academic_sessions s where s.name = payments.current_session)`.execute(db);
    await db.schema.createIndex('payments_student_session').on('payments').columns(['student_id', 'session_id', 'status']).execute();
  },
});

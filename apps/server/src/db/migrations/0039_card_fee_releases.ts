import type { Kysely } from 'kysely';
import { withId, type DialectMigration } from './util';

/**
 * Results gated by fees (issue 34 item 7, docs/decisions/042): `card_fee_releases`, one row per
 * student's term card the admin or the bursar opened regardless of fees, with the reason and who did
 * it (the audit log keeps the same). Unique on (student_id, session_id, term): a card opened once.
 * The settings themselves (`results_fee_gate`, `results_fee_gate_percent`) live in the school
 * settings' JSON row, read over their defaults: nothing to migrate there. A new table only.
 */
export const cardFeeReleases: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('card_fee_releases'), dialect)
      .addColumn('student_id', 'integer', (c) => c.notNull().references('students.id').onDelete('cascade'))
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('term', 'varchar(4)', (c) => c.notNull())
      .addColumn('reason', 'varchar(300)', (c) => c.notNull())
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addUniqueConstraint('card_fee_releases_card', ['student_id', 'session_id', 'term'])
      .execute();
    await db.schema.createIndex('card_fee_releases_term').on('card_fee_releases').columns(['session_id', 'term']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('card_fee_releases').execute();
  },
});

import type { Kysely } from 'kysely';
import { withId, type DialectMigration } from './util';

/**
 * Result-checker PINs (issue 34, decision record 043): batches the admin generates for a session (and
 * a term, or the whole session), their cards, and the log of every check. A card's PIN is stored as
 * a keyed hash (HMAC-SHA256 under the server's PIN secret, unique: a check finds it in one indexed
 * lookup); its printable copy is AES-256-GCM ciphertext kept only until the admin seals the batch.
 * New tables: nothing existing changes.
 */
export const resultPins: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('result_pin_batches'), dialect)
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id'))
      // '1st' | '2nd' | '3rd'; null: any term of the session.
      .addColumn('term', 'varchar(3)')
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('uses', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      // Set once the printable copies are erased.
      .addColumn('sealed_at', 'varchar(30)')
      .addColumn('sealed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .execute();
    await db.schema.createIndex('result_pin_batches_session').on('result_pin_batches').column('session_id').execute();

    await withId(db.schema.createTable('result_pins'), dialect)
      .addColumn('batch_id', 'integer', (c) => c.notNull().references('result_pin_batches.id').onDelete('cascade'))
      .addColumn('serial', 'varchar(20)', (c) => c.notNull().unique())
      // hex HMAC-SHA256 of the 12 digits under the server's PIN secret.
      .addColumn('pin_hash', 'varchar(64)', (c) => c.notNull().unique())
      // base64url(iv | tag | ciphertext), AES-256-GCM; null once the batch is sealed.
      .addColumn('printable', 'varchar(80)')
      .addColumn('max_uses', 'integer', (c) => c.notNull())
      .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
      // The student the first use bound the PIN to.
      .addColumn('student_id', 'integer', (c) => c.references('students.id'))
      .addColumn('first_used_at', 'varchar(30)')
      .addColumn('last_used_at', 'varchar(30)')
      .addColumn('sold_at', 'varchar(30)')
      .addColumn('sold_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('sold_to', 'varchar(120)')
      .addColumn('price_kobo', 'integer')
      .execute();
    await db.schema.createIndex('result_pins_batch').on('result_pins').columns(['batch_id', 'id']).execute();

    await withId(db.schema.createTable('result_pin_uses'), dialect)
      // null: the PIN typed matched no card.
      .addColumn('pin_id', 'integer', (c) => c.references('result_pins.id').onDelete('cascade'))
      // The typed admission number's key (admissionNumberKey), and the student it named, if any.
      .addColumn('admission_key', 'varchar(40)', (c) => c.notNull())
      .addColumn('student_id', 'integer', (c) => c.references('students.id'))
      .addColumn('session_id', 'integer')
      .addColumn('term', 'varchar(3)')
      .addColumn('ip', 'varchar(64)', (c) => c.notNull())
      // ok | wrong | bound_to_another | exhausted | other_term | not_released | fees_outstanding | throttled
      .addColumn('result', 'varchar(24)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('result_pin_uses_pin').on('result_pin_uses').columns(['pin_id', 'id']).execute();
    await db.schema.createIndex('result_pin_uses_created_at').on('result_pin_uses').column('created_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('result_pin_uses').ifExists().execute();
    await db.schema.dropTable('result_pins').ifExists().execute();
    await db.schema.dropTable('result_pin_batches').ifExists().execute();
  },
});

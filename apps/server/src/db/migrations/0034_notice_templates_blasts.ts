import type { Kysely } from 'kysely';
import { withId, type DialectMigration } from './util';

/**
 * What notices say and the admin's blasts (decision record 037): the school's own templates (one row
 * per kind and channel it has edited; no row = the domain's default), the days after a fee falls due
 * on which debtors are reminded, and each blast (a custom notice to an audience) with its status.
 * A blast's messages are `notice_messages` rows (migration 0033) carrying its id; their counts are
 * its progress. New tables: nothing existing changes.
 */
export const noticeTemplatesBlasts: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('notice_templates')
      .addColumn('kind', 'varchar(32)', (c) => c.notNull())
      // sms | email
      .addColumn('channel', 'varchar(8)', (c) => c.notNull())
      // The email's subject; null for an SMS.
      .addColumn('subject', 'varchar(200)')
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addPrimaryKeyConstraint('notice_templates_pk', ['kind', 'channel'])
      .execute();

    await db.schema
      .createTable('notice_reminder_days')
      // Days after a fee falls due (7, 14, 30): a debtor is reminded once on each.
      .addColumn('days', 'integer', (c) => c.primaryKey())
      .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .execute();

    await withId(db.schema.createTable('notice_blasts'), dialect)
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      // {kind: 'all'|'arm'|'level'|'debtors', arm?, level?} as JSON text
      .addColumn('audience', 'text', (c) => c.notNull())
      // JSON array of 'sms' | 'email' | 'in_app'
      .addColumn('channels', 'varchar(40)', (c) => c.notNull())
      .addColumn('subject', 'varchar(200)')
      .addColumn('body', 'text', (c) => c.notNull())
      // sending | paused | cancelled | done
      .addColumn('status', 'varchar(12)', (c) => c.notNull())
      .addColumn('recipients', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('finished_at', 'varchar(30)')
      .execute();
    await db.schema.createIndex('notice_blasts_created_at').on('notice_blasts').column('created_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('notice_blasts').ifExists().execute();
    await db.schema.dropTable('notice_reminder_days').ifExists().execute();
    await db.schema.dropTable('notice_templates').ifExists().execute();
  },
});

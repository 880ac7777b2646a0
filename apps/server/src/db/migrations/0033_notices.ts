import type { Kysely } from 'kysely';
import { withId, type DialectMigration } from './util';

/**
 * Notices (issue 33, docs/decisions/036): the transactional outbox and what the worker delivers.
 * - `notice_events`: one row per thing that happened (results released for an arm, a payment
 *   received...), written in the emitter's own transaction; `dedupe_key` unique, so an event recorded
 *   twice is one row. `expanded_at` is set once the composer turned it into messages.
 * - `notice_messages`: one row per recipient and channel, with its delivery state. Unique on
 *   (event_id, channel, recipient_key) and on (blast_id, channel, recipient_key): a fan-out run twice
 *   writes nothing twice. The worker claims rows by `status`/`next_attempt_at` with a lease
 *   (`claimed_by`, `claimed_until`); delivery reports find a row by (provider, provider_message_id).
 * - `notice_preferences`: a person's opt-outs per kind.
 * - `notice_settings`: the school's notice settings (one JSON row; the admin edits it).
 * New tables: nothing existing changes.
 */
export const notices: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('notice_events'), dialect)
      .addColumn('kind', 'varchar(40)', (c) => c.notNull())
      .addColumn('dedupe_key', 'varchar(200)', (c) => c.notNull().unique())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('expanded_at', 'varchar(30)')
      .execute();
    await db.schema.createIndex('notice_events_unexpanded').on('notice_events').columns(['expanded_at', 'id']).execute();

    await withId(db.schema.createTable('notice_messages'), dialect)
      .addColumn('event_id', 'integer', (c) => c.references('notice_events.id').onDelete('cascade'))
      .addColumn('blast_id', 'integer')
      .addColumn('kind', 'varchar(40)', (c) => c.notNull())
      .addColumn('channel', 'varchar(10)', (c) => c.notNull())
      .addColumn('recipient_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      // Who the message is for, for uniqueness and the daily cap: "u:<user id>" or the address.
      .addColumn('recipient_key', 'varchar(200)', (c) => c.notNull())
      .addColumn('to_address', 'varchar(320)', (c) => c.notNull())
      .addColumn('subject', 'varchar(300)', (c) => c.notNull().defaultTo(''))
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('urgent', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'varchar(12)', (c) => c.notNull().defaultTo('queued'))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('claimed_by', 'varchar(100)')
      .addColumn('claimed_until', 'varchar(30)')
      .addColumn('provider', 'varchar(30)')
      .addColumn('provider_message_id', 'varchar(200)')
      .addColumn('last_error', 'varchar(500)')
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('sent_at', 'varchar(30)')
      .addColumn('delivered_at', 'varchar(30)')
      .addColumn('read_at', 'varchar(30)')
      .addUniqueConstraint('notice_messages_event_recipient', ['event_id', 'channel', 'recipient_key'])
      .addUniqueConstraint('notice_messages_blast_recipient', ['blast_id', 'channel', 'recipient_key'])
      .execute();
    // The worker's claim: what is due, oldest first.
    await db.schema.createIndex('notice_messages_due').on('notice_messages').columns(['status', 'next_attempt_at']).execute();
    // The inbox: a person's in-app notices, newest first.
    await db.schema.createIndex('notice_messages_inbox').on('notice_messages').columns(['recipient_user_id', 'channel', 'id']).execute();
    // The daily cap and the send rate: what went to a recipient, and when.
    await db.schema.createIndex('notice_messages_recipient_sent').on('notice_messages').columns(['recipient_key', 'sent_at']).execute();
    await db.schema.createIndex('notice_messages_sent_at').on('notice_messages').column('sent_at').execute();
    await db.schema.createIndex('notice_messages_provider_id').on('notice_messages').columns(['provider', 'provider_message_id']).execute();
    await db.schema.createIndex('notice_messages_blast').on('notice_messages').columns(['blast_id', 'status']).execute();
    await db.schema.createIndex('notice_messages_kind').on('notice_messages').columns(['kind', 'id']).execute();

    await db.schema
      .createTable('notice_preferences')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'varchar(40)', (c) => c.notNull())
      .addColumn('opted_out', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
      .addPrimaryKeyConstraint('notice_preferences_pk', ['user_id', 'kind'])
      .execute();

    await db.schema
      .createTable('notice_settings')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const t of ['notice_settings', 'notice_preferences', 'notice_messages', 'notice_events'])
      await db.schema.dropTable(t).ifExists().execute();
  },
});

import type { Kysely } from 'kysely';
import { withId, type DialectMigration } from './util';

/**
 * Retries of requests that create money records (decision record 022): one row per
 * Idempotency-Key a user sent to a route. The unique (user_id, route, idem_key) insert is the claim
 * that lets exactly one of two racing requests do the work; the first answer is kept (status and
 * body) and given again to a retry within 24 hours. `created_at` is indexed for the pruning.
 * A new table: nothing existing changes.
 */
export const idempotencyKeys: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('idempotency_keys'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('route', 'varchar(200)', (c) => c.notNull())
      .addColumn('idem_key', 'varchar(100)', (c) => c.notNull())
      .addColumn('request_hash', 'varchar(64)', (c) => c.notNull())
      // NULL while the first request is still working.
      .addColumn('status_code', 'integer')
      .addColumn('response_body', 'text')
      .addColumn('content_type', 'varchar(100)')
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addUniqueConstraint('idempotency_keys_claim', ['user_id', 'route', 'idem_key'])
      .execute();
    await db.schema.createIndex('idempotency_keys_created_at').on('idempotency_keys').column('created_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('idempotency_keys').ifExists().execute();
  },
});

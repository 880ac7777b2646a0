import type { Kysely } from 'kysely';
import type { DialectMigration } from './util';

/**
 * Arrears and credits (decision 041): the balance brought forward is computed from the sessions'
 * charges and payments, never stored; the one thing stored is the bursar's choice on a recorded
 * payment: `payments.allocation`, 'arrears_first' (the default, and every payment before this
 * release: arrears are settled first) or 'current_first' (its term before the arrears). One added
 * column; no row changes otherwise.
 */
export const arrears: DialectMigration = () => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('payments')
      .addColumn('allocation', 'text', (c) => c.notNull().defaultTo('arrears_first'))
      .execute();
  },
});

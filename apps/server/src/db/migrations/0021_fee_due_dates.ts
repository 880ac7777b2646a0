import type { Kysely } from 'kysely';
import type { DialectMigration } from './util';

/**
 * When fees fall due (decision record 015): a fee item may carry the day the school wants it paid by
 * (`due_on`, an ISO date). NULL — every existing item — keeps the rule's default: the item falls due
 * when its term begins. One added column; nothing existing changes.
 */
export const feeDueDates: DialectMigration = () => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('fee_items').addColumn('due_on', 'varchar(10)').execute();
  },
});

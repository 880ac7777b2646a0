import { sql, type Kysely } from 'kysely';
import { BANKED_METHODS, bankReferenceKey, findBank, unlistedBankCode } from '@portal/domain';
import { withId, type DialectMigration } from './util';

/**
 * Bank references compared by one rule, banks by their code (decision record 014):
 * - `banks`: the banks the admin adds to the domain's list (code, name, aliases);
 * - payments gain `reversed` (1 once a reversal entry exists: a reversed payment no longer holds
 *   its bank reference, the unique index only covers payments not reversed) and `replaces` (the
 *   reversed payment a new one with the same reference replaces);
 * - every stored key is computed again: the bank matched to the list by name or alias (its code),
 *   an unlisted old bank by its name's key (`?NAME`), the reference by `referenceKey`;
 * - stored rows that now share a key (they were recorded twice: "Access Bank" and "Access Bank Plc",
 *   an invisible character...) are kept, every one: the oldest holds the key, each later one loses
 *   it and gets a row in `bank_reference_reviews` for the bursar to review. Nothing is deleted.
 * Uses the domain's rule of this release (bank-references.ts).
 */
export const bankReferenceKeys: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('banks')
      .addColumn('code', 'varchar(12)', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      // JSON array of other names people write for it.
      .addColumn('aliases', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('added_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('added_at', 'text', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('bank_reference_reviews'), dialect)
      // 'payment' or 'transfer_report': the row that lost the key, and the one of the same kind holding it.
      .addColumn('entity', 'varchar(20)', (c) => c.notNull())
      .addColumn('entity_id', 'integer', (c) => c.notNull())
      .addColumn('holder_id', 'integer', (c) => c.notNull())
      .addColumn('reference_key', 'text', (c) => c.notNull())
      .addColumn('found_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .alterTable('payments')
      .addColumn('reversed', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('payments')
      .addColumn('replaces', 'integer', (c) => c.references('payments.id'))
      .execute();
    await sql`update payments set reversed = 1 where id in (select reversal_of from payments where reversal_of is not null)`.execute(db);

    const now = new Date().toISOString();
    const keyOf = (method: string, bank: string, reference: string) => {
      const banked = (BANKED_METHODS as readonly string[]).includes(method);
      const code = !banked ? '' : (findBank(bank)?.code ?? unlistedBankCode(bank));
      return bankReferenceKey(code, reference);
    };

    // Payments: every key computed again (reversal entries hold none); the old unique index goes first.
    await sql`drop index payments_bank_reference_key`.execute(db);
    const payments = (
      await sql<{
        id: number;
        method: string;
        bank: string;
        bank_reference: string;
        reversed: number;
      }>`select id, method, bank, bank_reference, reversed from payments
         where reversal_of is null and bank_reference <> '' order by id`.execute(db)
    ).rows;
    const holders = new Map<string, number>();
    for (const p of payments) {
      let key: string | null = keyOf(p.method, p.bank, p.bank_reference);
      if (Number(p.reversed) === 0) {
        const holder = holders.get(key);
        if (holder !== undefined) {
          await sql`insert into bank_reference_reviews (entity, entity_id, holder_id, reference_key, found_at)
                    values ('payment', ${p.id}, ${holder}, ${key}, ${now})`.execute(db);
          key = null;
        } else holders.set(key, p.id);
      }
      await sql`update payments set bank_reference_key = ${key} where id = ${p.id}`.execute(db);
    }
    // Only payments not reversed hold their reference: the same teller may be recorded again after a reversal.
    await sql`create unique index payments_bank_reference_key on payments (bank_reference_key) where reversed = 0`.execute(db);
    await sql`create index payments_reference_lookup on payments (bank_reference_key, reversed)`.execute(db);

    // Transfer reports: the key of each, and one waiting report per key (later duplicates stop waiting-holding it).
    await sql`drop index transfer_reports_waiting_key`.execute(db);
    const reports = (
      await sql<{
        id: number;
        method: string;
        bank: string;
        bank_reference: string;
        status: string;
      }>`select id, method, bank, bank_reference, status from transfer_reports order by id`.execute(db)
    ).rows;
    const waiting = new Map<string, number>();
    for (const r of reports) {
      const key = keyOf(r.method, r.bank, r.bank_reference);
      let waitingKey: string | null = r.status === 'to_confirm' ? key : null;
      if (waitingKey !== null) {
        const holder = waiting.get(waitingKey);
        if (holder !== undefined) {
          await sql`insert into bank_reference_reviews (entity, entity_id, holder_id, reference_key, found_at)
                    values ('transfer_report', ${r.id}, ${holder}, ${key}, ${now})`.execute(db);
          waitingKey = null;
        } else waiting.set(waitingKey, r.id);
      }
      await sql`update transfer_reports set bank_reference_key = ${key}, waiting_key = ${waitingKey} where id = ${r.id}`.execute(db);
    }
    await db.schema.createIndex('transfer_reports_waiting_key').on('transfer_reports').column('waiting_key').unique().execute();
  },
});

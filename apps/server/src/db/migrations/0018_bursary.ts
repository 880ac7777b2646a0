import { sql, type Kysely } from 'kysely';
import type { DialectMigration } from './util';

/** The columns payments had up to release 0017, in order (kept here: a migration never changes). */
const OLD_PAYMENT_COLUMNS = [
  'id',
  'reference',
  'student_id',
  'admission_number',
  'full_name',
  'current_class',
  'current_session',
  'term',
  'email',
  'phone_number',
  'amount_kobo',
  'currency',
  'status',
  'provider',
  'provider_transaction_id',
  'provider_access_code',
  'provider_status',
  'initiated_by',
  'paid_at',
  'created_at',
  'updated_at',
] as const;

/** As formatReceiptNumber in packages/domain (kept here: a migration never changes). */
const receiptNumber = (n: number) => `R-${String(n).padStart(6, '0')}`;

/** The school's date of an instant, in its time zone (as todayIn in packages/domain). */
function dateIn(timeZone: string, iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso.slice(0, 10);
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
}

/**
 * The bursar's office: staff capabilities (the bursar), offline payments beside online
 * ones (method, bank and its reference, the day paid, the teller's scan), one receipt sequence for
 * both, and reversals as rows of the negative amount. The amount check becomes "not zero" (SQLite
 * rebuilds the table for it; PostgreSQL swaps the constraint). Every successful payment of the
 * previous release gets a receipt number in the order (paid_at, id), and the counter continues.
 */
export const bursary: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('staff_capabilities')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('capability', 'varchar(20)', (c) => c.notNull())
      .addColumn('granted_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('granted_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('staff_capabilities_pk', ['user_id', 'capability'])
      .execute();

    if (dialect === 'postgres') {
      await sql`alter table payments drop constraint payments_amount_positive`.execute(db);
      await sql`alter table payments add constraint payments_amount_not_zero check (amount_kobo <> 0)`.execute(db);
    } else {
      // SQLite cannot drop a CHECK: the table is rebuilt with the same columns and rows (nothing references it yet).
      await db.schema
        .createTable('payments_rebuilt')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('reference', 'text', (c) => c.notNull().unique())
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
        .addCheckConstraint('payments_amount_not_zero', sql`amount_kobo <> 0`)
        .execute();
      const cols = sql.join(OLD_PAYMENT_COLUMNS.map((c) => sql.ref(c)));
      await sql`insert into payments_rebuilt (${cols}) select ${cols} from payments`.execute(db);
      await sql`drop table payments`.execute(db);
      await sql`alter table payments_rebuilt rename to payments`.execute(db);
      await db.schema.createIndex('payments_student').on('payments').columns(['admission_number', 'created_at']).execute();
      await db.schema.createIndex('payments_student_id').on('payments').columns(['student_id', 'current_session', 'status']).execute();
    }

    await db.schema
      .alterTable('payments')
      .addColumn('method', 'varchar(16)', (c) => c.notNull().defaultTo('online'))
      .execute();
    for (const column of ['bank', 'bank_reference', 'note', 'reason'])
      await db.schema
        .alterTable('payments')
        .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
        .execute();
    for (const column of ['bank_reference_key', 'receipt_number'])
      await db.schema.alterTable('payments').addColumn(column, 'text').execute();
    await db.schema.alterTable('payments').addColumn('paid_on', 'varchar(10)').execute();
    await db.schema
      .alterTable('payments')
      .addColumn('reversal_of', 'integer', (c) => c.references('payments.id'))
      .execute();
    await db.schema
      .alterTable('payments')
      .addColumn('recorded_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .execute();
    // NULLs never clash in a unique index on either database: only set values must be unique.
    await db.schema.createIndex('payments_bank_reference_key').on('payments').column('bank_reference_key').unique().execute();
    await db.schema.createIndex('payments_receipt_number').on('payments').column('receipt_number').unique().execute();
    await db.schema.createIndex('payments_reversal_of').on('payments').column('reversal_of').unique().execute();
    // The ledger: newest first by the day paid.
    await db.schema.createIndex('payments_ledger').on('payments').columns(['status', 'paid_on', 'id']).execute();

    await db.schema
      .createTable('payment_scans')
      .addColumn('payment_id', 'integer', (c) => c.primaryKey().references('payments.id').onDelete('cascade'))
      .addColumn('mime', 'varchar(40)', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .execute();

    // Backfill: receipt numbers in the order money arrived, and the day paid in the school's time zone.
    const school = await sql<{ value: string }>`select value from settings where key = 'school'`.execute(db);
    let timeZone = 'Africa/Lagos';
    try {
      const tz = (JSON.parse(school.rows[0]?.value ?? '{}') as { time_zone?: unknown }).time_zone;
      if (typeof tz === 'string' && tz) timeZone = tz;
    } catch {
      // A settings row the release could not read: the default zone.
    }
    const paid = await sql<{ id: number; paid_at: string | null; created_at: string }>`
      select id, paid_at, created_at from payments where status = 'successful' order by paid_at, id`.execute(db);
    // Chunked updates by value: a CASE per chunk keeps it set-based and under SQLite's bound-parameter limit.
    for (let i = 0; i < paid.rows.length; i += 200) {
      const chunk = paid.rows.slice(i, i + 200);
      const receipt = sql.join(
        chunk.map((r, j) => sql`when ${Number(r.id)} then ${receiptNumber(i + j + 1)}`),
        sql` `,
      );
      const day = sql.join(
        chunk.map((r) => sql`when ${Number(r.id)} then ${dateIn(timeZone, r.paid_at ?? r.created_at)}`),
        sql` `,
      );
      const ids = sql.join(chunk.map((r) => sql`${Number(r.id)}`));
      await sql`update payments set receipt_number = case id ${receipt} end, paid_on = case id ${day} end where id in (${ids})`.execute(db);
    }
    if (paid.rows.length) {
      const last = paid.rows.length;
      await sql`insert into counters (name, value) values ('receipt', ${last})
        on conflict (name) do update set value = ${last}`.execute(db);
    }
  },
});

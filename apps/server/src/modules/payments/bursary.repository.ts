import { sql, type Insertable } from 'kysely';
import type { PaymentMethod } from '@portal/domain';
import type { Conn, DB } from '../../db/index';
import { leftJoinPerson, staffOrAdminNameOf } from '../../db/person-name';
import { readInSlices } from '../../lib/yield';
import './payments.tables';
import type { PaymentsTable } from './payments.tables';
import { insertPaymentRow, payerStudents } from './payments.repository';

/** What the ledger filters by (dates are the days paid, inclusive). */
export interface LedgerFilter {
  reference?: string;
  /** referenceKey of a bank reference: its payments (at any bank) and their reversals. */
  bankReferenceKey?: string;
  studentId?: number;
  sessionId?: number;
  method?: PaymentMethod;
  from?: string;
  to?: string;
  /** Only these payments (a slice of `ledgerIds`). */
  ids?: readonly number[];
}

/** SQL of the bursar's office: recorded payments, reversals, scans, the ledger. */
export class BursaryRepository {
  constructor(readonly db: DB) {}

  /** A student with what a payment row stores of them. */
  studentForPayment(admissionNumber: string) {
    return payerStudents(this.db).where('students.admission_number', '=', admissionNumber).executeTakeFirst();
  }

  /** The receipt number of the payment holding a bank reference key, if any. */
  async receiptOfBankReference(conn: Conn, key: string): Promise<string | undefined> {
    const row = await conn
      .selectFrom('payments')
      .select('receipt_number')
      .where('bank_reference_key', '=', key)
      .where('reversed', '=', 0)
      .executeTakeFirst();
    return row ? (row.receipt_number ?? '') : undefined;
  }

  /** The latest reversed payment that held a bank reference key (the one a new payment of it replaces). */
  reversedHolding(conn: Conn, key: string) {
    return conn
      .selectFrom('payments')
      .select(['id', 'reference', 'receipt_number'])
      .where('bank_reference_key', '=', key)
      .where('reversed', '=', 1)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /** A reversal was written: the payment leaves the unique index of bank references (migration 0020). */
  async markReversed(trx: Conn, paymentId: number): Promise<void> {
    await trx.updateTable('payments').set({ reversed: 1 }).where('id', '=', paymentId).execute();
  }

  insert(trx: Conn, values: Omit<Insertable<PaymentsTable>, 'created_at' | 'updated_at'>) {
    return insertPaymentRow(trx, values);
  }

  async insertScan(trx: Conn, v: { payment_id: number; mime: string; data: string; bytes: number }): Promise<void> {
    await trx.insertInto('payment_scans').values(v).execute();
  }

  scanOf(paymentId: number) {
    return this.db.selectFrom('payment_scans').select(['mime', 'data']).where('payment_id', '=', paymentId).executeTakeFirst();
  }

  paymentByReference(conn: Conn, reference: string) {
    return conn.selectFrom('payments').selectAll().where('reference', '=', reference).executeTakeFirst();
  }

  /** The reversal of a payment, if any. */
  /** What the ledger calls a recorder: the staff or admin record's name, else null (the email is shown then). */
  async recorderName(userId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('users')
      .leftJoin('staff', 'staff.user_id', 'users.id')
      .leftJoin('admins', 'admins.user_id', 'users.id')
      .select(['staff.first_name as sf', 'staff.last_name as sl', 'admins.first_name as af', 'admins.last_name as al'])
      .where('users.id', '=', userId)
      .executeTakeFirst();
    if (!row) return null;
    return row.sf !== null ? `${row.sf} ${row.sl ?? ''}` : row.af !== null ? `${row.af} ${row.al ?? ''}` : null;
  }

  /** A cash payment of this amount for the student on that day, not reversed (a second one is asked about). */
  sameDayCash(studentId: number, amountKobo: number, paidOn: string) {
    return this.db
      .selectFrom('payments as p')
      .leftJoin('payments as rev', 'rev.reversal_of', 'p.id')
      .select(['p.receipt_number', 'p.reference'])
      .where('p.student_id', '=', studentId)
      .where('p.method', '=', 'cash')
      .where('p.amount_kobo', '=', amountKobo)
      .where('p.paid_on', '=', paidOn)
      .where('p.status', '=', 'successful')
      .where('p.reversal_of', 'is', null)
      .where('rev.id', 'is', null)
      .orderBy('p.id')
      .executeTakeFirst();
  }

  reversalOf(conn: Conn, paymentId: number) {
    return conn.selectFrom('payments').select(['receipt_number']).where('reversal_of', '=', paymentId).executeTakeFirst();
  }

  /** Ledger rows (successful payments and reversals) with their scan flag and the other side of a reversal. */
  private ledgerBase(conn: Conn, f: LedgerFilter) {
    const payments = conn
      .selectFrom('payments as p')
      .leftJoin('payments as orig', 'orig.id', 'p.reversal_of')
      .leftJoin('payments as rev', 'rev.reversal_of', 'p.id')
      .leftJoin('payments as repl', 'repl.id', 'p.replaces')
      .leftJoin('academic_sessions as sess', 'sess.id', 'p.session_id');
    let q = leftJoinPerson(payments, 'recorder', 'p.recorded_by').where('p.status', '=', 'successful');
    if (f.reference !== undefined) q = q.where('p.reference', '=', f.reference);
    if (f.studentId !== undefined) q = q.where('p.student_id', '=', f.studentId);
    if (f.bankReferenceKey !== undefined) {
      // Keys are "code|reference": match the part after the bar at any bank (LIKE with its wildcards escaped).
      const pattern = `%|${f.bankReferenceKey.replace(/[!%_]/g, (c) => `!${c}`)}`;
      const matches = sql<boolean>`bank_reference_key like ${pattern} escape '!'`;
      q = q.where((eb) =>
        eb.or([
          eb('p.id', 'in', eb.selectFrom('payments').select('id').where(matches)),
          eb('p.reversal_of', 'in', eb.selectFrom('payments').select('id').where(matches)),
        ]),
      );
    }
    if (f.sessionId !== undefined) q = q.where('p.session_id', '=', f.sessionId);
    if (f.method !== undefined) q = q.where('p.method', '=', f.method);
    if (f.from !== undefined) q = q.where('p.paid_on', '>=', f.from);
    if (f.to !== undefined) q = q.where('p.paid_on', '<=', f.to);
    if (f.ids !== undefined) q = q.where('p.id', 'in', f.ids.length ? f.ids : [-1]);
    return q;
  }

  /**
   * Every ledger row of the filter, as `ledger(f)` gives them, read in slices (the CSV, a heavy
   * report): the ids in the ledger's order first, then the rows of a few hundred ids at a time.
   * The same ORDER BY as `ledger`.
   */
  async ledgerInSlices(f: LedgerFilter): Promise<Awaited<ReturnType<BursaryRepository['ledger']>>> {
    const ids = await this.ledgerBase(this.db, f).select('p.id').orderBy('p.paid_on', 'desc').orderBy('p.id', 'desc').execute();
    return readInSlices(
      ids.map((r) => r.id),
      (slice) => this.ledger({ ...f, ids: slice }),
      (r) => r.id,
    );
  }

  ledger(f: LedgerFilter, page?: { limit: number; offset: number }, conn: Conn = this.db) {
    let q = this.ledgerBase(conn, f)
      .select([
        'p.id',
        'p.reference',
        'p.receipt_number',
        'p.admission_number',
        'p.full_name',
        'p.current_class',
        // The session as it is named now: a renamed session's payments follow it.
        sql<string>`coalesce(sess.name, p.current_session)`.as('current_session'),
        'p.term',
        'p.amount_kobo',
        'p.method',
        'p.bank',
        'p.bank_reference',
        'p.paid_on',
        'p.paid_at',
        'p.note',
        'p.reason',
        'p.created_at',
        'p.allocation',
        'orig.reference as orig_reference',
        'orig.receipt_number as orig_receipt_number',
        'rev.receipt_number as reversed_by',
        'repl.reference as replaces_reference',
        'repl.receipt_number as replaces_receipt_number',
        'recorder.email as recorder_email',
        // The recorder's name as people know it (staff or admin record), else the account's email.
        staffOrAdminNameOf('recorder').as('recorder_name'),
        sql<number>`(select count(*) from payment_scans s where s.payment_id = p.id)`.as('has_scan'),
      ])
      // A slice of ids is put in order by ledgerInSlices.
      .$if(f.ids === undefined, (q) => q.orderBy('p.paid_on', 'desc').orderBy('p.id', 'desc'));
    if (page) q = q.limit(page.limit).offset(page.offset);
    return q.execute();
  }

  /**
   * A student's ledger for the statement: only what its lines show (no recorder, no scan), so
   * PostgreSQL plans two tables instead of six on every statement. Unordered: `statementLines`
   * orders the lines (by day paid, then receipt), and an ORDER BY here led SQLite without
   * statistics to the `payments_ledger` index, reading every payment of the school (2.5 ms, not 0.01).
   */
  statementEntries(studentId: number, sessionId: number, conn: Conn = this.db) {
    return conn
      .selectFrom('payments as p')
      .leftJoin('payments as orig', 'orig.id', 'p.reversal_of')
      .leftJoin('payments as repl', 'repl.id', 'p.replaces')
      .where('p.status', '=', 'successful')
      .where('p.student_id', '=', studentId)
      .where('p.session_id', '=', sessionId)
      .select([
        'p.id',
        'p.allocation',
        'p.receipt_number',
        'p.term',
        'p.amount_kobo',
        'p.method',
        'p.paid_on',
        'p.paid_at',
        'p.created_at',
        'p.reason',
        'p.reversal_of',
        'orig.receipt_number as orig_receipt_number',
        'repl.receipt_number as replaces_receipt_number',
      ])
      .execute();
  }

  async ledgerTotals(f: LedgerFilter, conn: Conn = this.db): Promise<{ total: number; kobo: number }> {
    const row = await this.ledgerBase(conn, f)
      .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.coalesce(eb.fn.sum<number>('p.amount_kobo'), eb.lit(0)).as('kobo')])
      .executeTakeFirstOrThrow();
    return { total: Number(row.total), kobo: Number(row.kobo) };
  }
}

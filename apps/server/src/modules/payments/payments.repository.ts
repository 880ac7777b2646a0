import type { Conn } from '../../db/index';
import type { Insertable, Selectable } from 'kysely';
import type { PaymentStatus } from '@portal/domain';
import { nowIso, type DB } from '../../db/index';
import { QueryTemplates } from '../../db/query-templates';
import { readTogether } from '../../db/read-together';
import { inSlices } from '../../db/slices';
import { inArmOfSession, sessionIsClosed } from '../../db/class-history';
import './payments.tables';
import type { FeeItemsTable, PaymentsTable } from './payments.tables';

export type PaymentRow = Selectable<PaymentsTable>;

/** A student with what a payment row stores of them (online payments and the bursar's records alike). */
export function payerStudents(db: DB) {
  return db
    .selectFrom('students')
    .innerJoin('users', 'users.id', 'students.user_id')
    .select([
      'students.id',
      'students.admission_number',
      'students.first_name',
      'students.last_name',
      'students.student_class',
      'students.phone_number',
      'users.email',
    ]);
}

/** Writes a payment row stamped now (online payments and the bursar's records alike): the row as stored. */
export function insertPaymentRow(trx: Conn, values: Omit<Insertable<PaymentsTable>, 'created_at' | 'updated_at'>): Promise<PaymentRow> {
  const now = nowIso();
  return trx
    .insertInto('payments')
    .values({ ...values, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** SQL of the payments feature, nothing else. */
export class PaymentsRepository {
  /** The payment history, opened on every visit to a student's fees page, is compiled once. */
  private readonly hot = new QueryTemplates();

  constructor(readonly db: DB) {}

  /** Students with what a payment shows of them. */
  private students() {
    return this.db.selectFrom('students').select(['id', 'admission_number', 'first_name', 'last_name', 'student_class']);
  }

  /** A student's record as receipts name them. */
  studentRecord(id: number) {
    return this.db
      .selectFrom('students')
      .select(['admission_number', 'first_name', 'last_name', 'student_class'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /**
   * The arm's students in the session (decision 038): a closed session's enrolment rows, else today's
   * active students (withdrawn and graduated students leave the class report). No session: today's.
   */
  async studentsOfClass(arm: string, sessionId: number | null) {
    const closed = sessionId !== null && (await sessionIsClosed(this.db, sessionId));
    const rows = await this.db
      .selectFrom('students as s')
      .select(['s.id', 's.admission_number', 's.first_name', 's.last_name'])
      .where(inArmOfSession({ id: sessionId ?? 0, closed }, arm, { studentId: 's.id', currentArm: 's.student_class', status: 's.status' }))
      .orderBy('s.admission_number')
      .execute();
    return rows.map((r) => ({ ...r, student_class: arm }));
  }

  insertPayment(trx: Conn, values: Omit<Insertable<PaymentsTable>, 'id' | 'created_at' | 'updated_at'>): Promise<PaymentRow> {
    return insertPaymentRow(trx, values);
  }

  paymentByReference(conn: Conn, reference: string): Promise<PaymentRow | undefined> {
    return conn.selectFrom('payments').selectAll().where('reference', '=', reference).executeTakeFirst();
  }

  async setAccessCode(reference: string, accessCode: string | null): Promise<void> {
    await this.db
      .updateTable('payments')
      .set({ provider_access_code: accessCode, updated_at: nowIso() })
      .where('reference', '=', reference)
      .execute();
  }

  /**
   * The one way a payment changes status: a conditional update that only applies while the
   * payment is still in one of `from`. Returns whether this call made the change, so concurrent
   * callers (verify twice, verify and webhook) can never both apply it.
   */
  async transition(
    trx: Conn,
    reference: string,
    from: readonly PaymentStatus[],
    to: PaymentStatus,
    patch: Partial<Pick<PaymentsTable, 'paid_at' | 'provider_transaction_id' | 'provider_status'>> = {},
  ): Promise<boolean> {
    const r = await trx
      .updateTable('payments')
      .set({ ...patch, status: to, updated_at: nowIso() })
      .where('reference', '=', reference)
      .where('status', 'in', from)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Numbers a payment that just succeeded, once (the caller won the status transition). */
  async setReceipt(trx: Conn, reference: string, receiptNumber: string, paidOn: string): Promise<void> {
    await trx
      .updateTable('payments')
      .set({ receipt_number: receiptNumber, paid_on: paidOn })
      .where('reference', '=', reference)
      .where('receipt_number', 'is', null)
      .execute();
  }

  async noteProviderStatus(trx: Conn, reference: string, providerStatus: string): Promise<void> {
    await trx
      .updateTable('payments')
      .set({ provider_status: providerStatus, updated_at: nowIso() })
      .where('reference', '=', reference)
      .execute();
  }

  /** A student's payments with their session as it is named now (`session_name`; null: no session matched). */
  history(admissionNumber: string): Promise<(PaymentRow & { session_name: string | null })[]> {
    return this.hot.execute(
      this.db,
      'history',
      (slot) =>
        this.db
          .selectFrom('payments')
          .leftJoin('academic_sessions', 'academic_sessions.id', 'payments.session_id')
          .selectAll('payments')
          .select('academic_sessions.name as session_name')
          .where('payments.admission_number', '=', slot('admissionNumber'))
          .orderBy('payments.created_at', 'desc')
          .orderBy('payments.id', 'desc')
          .limit(500),
      { admissionNumber },
    );
  }

  /** Successful and pending payments of these students (optionally in one session), newest first. */
  paymentsOfStudents(studentIds: number[], sessionId: number | null) {
    if (!studentIds.length) return Promise.resolve([]);
    let q = this.db
      .selectFrom('payments')
      .select(['student_id', 'amount_kobo', 'status', 'paid_at', 'created_at'])
      .where('student_id', 'in', studentIds)
      .where('status', 'in', ['successful', 'pending']);
    if (sessionId !== null) q = q.where('session_id', '=', sessionId);
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  async paidKobo(studentId: number, sessionId: number): Promise<number> {
    const row = await this.db
      .selectFrom('payments')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_kobo'), eb.lit(0)).as('paid'))
      .where('student_id', '=', studentId)
      .where('session_id', '=', sessionId)
      .where('status', '=', 'successful')
      .executeTakeFirst();
    return Number(row?.paid ?? 0);
  }

  /** What a student had paid in a session once a payment counted: those credited up to it (receipt order, else id). */
  async paidKoboUpTo(studentId: number, sessionId: number, upTo: { receiptNumber: string | null; id: number }): Promise<number> {
    let q = this.db
      .selectFrom('payments')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_kobo'), eb.lit(0)).as('paid'))
      .where('student_id', '=', studentId)
      .where('session_id', '=', sessionId)
      .where('status', '=', 'successful');
    // Receipt numbers are allocated as payments are credited and padded to one width, so they sort as text.
    q = upTo.receiptNumber ? q.where('receipt_number', '<=', upTo.receiptNumber) : q.where('id', '<=', upTo.id);
    const row = await q.executeTakeFirst();
    return Number(row?.paid ?? 0);
  }

  /** Successful payments of a session summed per student, one query (report cards' balances). */
  paidKoboByStudent(studentIds: readonly number[], sessionId: number) {
    return this.paidKoboByStudentQuery(studentIds, sessionId).execute();
  }

  private paidKoboByStudentQuery(studentIds: readonly number[], sessionId: number) {
    return this.db
      .selectFrom('payments')
      .select((eb) => ['student_id', eb.fn.sum<number>('amount_kobo').as('paid')])
      .where('student_id', 'in', studentIds.length ? studentIds : [-1])
      .where('session_id', '=', sessionId)
      .where('status', '=', 'successful')
      .groupBy('student_id');
  }

  /**
   * The due rule's two reads (`compulsoryItems`, `activeDiscounts`) in ONE statement (issue 37.4,
   * `readTogether`): every balance the portal shows starts with them.
   */
  duesReads(sessionId: number, classes: readonly string[], studentIds: readonly number[] | null) {
    return readTogether(this.db, {
      items: this.compulsoryItemsQuery(sessionId, classes),
      discounts: this.activeDiscountsQuery(sessionId, studentIds),
    });
  }

  /**
   * What report cards print of fees, in ONE statement: the due rule's reads for an arm's students,
   * their payments in the session (`paidKoboByStudent`) and the next term's dues of the arm
   * (`compulsoryDues` of `nextSessionId`; none when null).
   */
  cardFeeReads(sessionId: number, arm: string, studentIds: readonly number[], nextSessionId: number | null) {
    return readTogether(this.db, {
      items: this.compulsoryItemsQuery(sessionId, [arm]),
      discounts: this.activeDiscountsQuery(sessionId, studentIds.length > 500 ? null : studentIds),
      paid: this.paidKoboByStudentQuery(studentIds, sessionId),
      nextDues: this.compulsoryDuesQuery(nextSessionId ?? -1, [arm]),
    });
  }

  // ---------------------------------------------------------------- fee items

  feeItems(filter: { sessionId?: number; arm?: string; classes?: readonly string[]; term?: string }, conn: Conn = this.db) {
    let q = conn
      .selectFrom('fee_items')
      .innerJoin('academic_sessions', 'academic_sessions.id', 'fee_items.session_id')
      .select([
        'fee_items.id',
        'fee_items.student_class',
        'fee_items.session_id',
        'academic_sessions.name as session',
        'fee_items.term',
        'fee_items.name',
        'fee_items.name_key',
        'fee_items.amount_kobo',
        'fee_items.compulsory',
        'fee_items.description',
        'fee_items.due_on',
        'fee_items.created_at',
        'fee_items.updated_at',
      ]);
    if (filter.sessionId !== undefined) q = q.where('fee_items.session_id', '=', filter.sessionId);
    if (filter.arm !== undefined) q = q.where('fee_items.student_class', '=', filter.arm);
    if (filter.classes !== undefined) q = q.where('fee_items.student_class', 'in', filter.classes.length ? filter.classes : ['']);
    if (filter.term !== undefined) q = q.where('fee_items.term', '=', filter.term);
    return q
      .orderBy('academic_sessions.name', 'desc')
      .orderBy('fee_items.student_class')
      .orderBy('fee_items.term')
      .orderBy('fee_items.compulsory', 'desc')
      .orderBy('fee_items.id')
      .execute();
  }

  /** The compulsory items of these classes in a session, in the classes' item order (what discounts apply to), with when each falls due. */
  compulsoryItems(sessionId: number, classes: readonly string[]) {
    return this.compulsoryItemsQuery(sessionId, classes).execute();
  }

  private compulsoryItemsQuery(sessionId: number, classes: readonly string[]) {
    return this.db
      .selectFrom('fee_items')
      .select(['student_class', 'term', 'name_key', 'amount_kobo', 'due_on', 'created_at'])
      .where('session_id', '=', sessionId)
      .where('student_class', 'in', classes.length ? classes : [''])
      .where('compulsory', '=', 1)
      .orderBy('student_class')
      .orderBy('term')
      .orderBy('id');
  }

  /** Discounts in force in a session, of these students (every student's when null). */
  activeDiscounts(sessionId: number, studentIds: readonly number[] | null) {
    return this.activeDiscountsQuery(sessionId, studentIds).execute();
  }

  private activeDiscountsQuery(sessionId: number, studentIds: readonly number[] | null) {
    let q = this.db
      .selectFrom('fee_discounts')
      .select(['id', 'student_id', 'term', 'kind', 'basis', 'percent_bp', 'amount_kobo', 'items'])
      .where('session_id', '=', sessionId)
      .where('revoked_at', 'is', null);
    if (studentIds) q = q.where('student_id', 'in', studentIds.length ? studentIds : [-1]);
    return q.orderBy('id');
  }

  /** Compulsory fees per class and term of a session, summed in the database (the report's hot path). */
  compulsoryDues(sessionId: number, classes: readonly string[]) {
    return this.compulsoryDuesQuery(sessionId, classes).execute();
  }

  private compulsoryDuesQuery(sessionId: number, classes: readonly string[]) {
    return this.db
      .selectFrom('fee_items')
      .select((eb) => ['student_class', 'term', eb.fn.sum<number>('amount_kobo').as('due_kobo')])
      .where('session_id', '=', sessionId)
      .where('student_class', 'in', classes.length ? classes : [''])
      .where('compulsory', '=', 1)
      .groupBy(['student_class', 'term']);
  }

  feeItemById(conn: Conn, id: number) {
    return conn.selectFrom('fee_items').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The item of this name (by key) in a class's term, if any. */
  feeItemByKey(conn: Conn, k: { student_class: string; session_id: number; term: string; name_key: string }) {
    return conn
      .selectFrom('fee_items')
      .selectAll()
      .where('student_class', '=', k.student_class)
      .where('session_id', '=', k.session_id)
      .where('term', '=', k.term)
      .where('name_key', '=', k.name_key)
      .executeTakeFirst();
  }

  /** Adds an item; null when the class already has one of that name in that term. */
  async insertFeeItem(trx: Conn, v: Omit<Insertable<FeeItemsTable>, 'id' | 'created_at' | 'updated_at'>): Promise<number | null> {
    const now = nowIso();
    const row = await trx
      .insertInto('fee_items')
      .values({ ...v, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['session_id', 'student_class', 'term', 'name_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id ?? null;
  }

  /** Many fee items at once (in slices); one the target has by name already is kept. Returns how many were added. */
  async insertFeeItems(trx: Conn, rows: Omit<Insertable<FeeItemsTable>, 'id' | 'created_at' | 'updated_at'>[]): Promise<number> {
    const now = nowIso();
    const ids = await inSlices(rows, 200, (slice) =>
      trx
        .insertInto('fee_items')
        .values(slice.map((v) => ({ ...v, created_at: now, updated_at: now })))
        .onConflict((oc) => oc.columns(['session_id', 'student_class', 'term', 'name_key']).doNothing())
        .returning('id')
        .execute(),
    );
    return ids.length;
  }

  async updateFeeItem(
    trx: Conn,
    id: number,
    v: { amount_kobo: number; description: string; name: string; name_key: string; compulsory: number; due_on?: string | null },
  ): Promise<void> {
    await trx
      .updateTable('fee_items')
      .set({ ...v, updated_at: nowIso() })
      .where('id', '=', id)
      .execute();
  }

  async deleteFeeItem(trx: Conn, id: number): Promise<void> {
    await trx.deleteFrom('fee_items').where('id', '=', id).execute();
  }

  // ---------------------------------------------------------------- webhook events

  /** Whether a webhook body was processed before (a replay needs no call to the provider). */
  async webhookEventSeen(bodyHash: string): Promise<boolean> {
    const row = await this.db.selectFrom('payment_webhook_events').select('body_hash').where('body_hash', '=', bodyHash).executeTakeFirst();
    return row !== undefined;
  }

  /** Records a webhook body once; false when it was seen before (a replay). */
  async recordWebhookEvent(trx: Conn, e: { bodyHash: string; event: string; reference: string | null }): Promise<boolean> {
    const row = await trx
      .insertInto('payment_webhook_events')
      .values({ body_hash: e.bodyHash, event: e.event, reference: e.reference, outcome: 'received', received_at: nowIso() })
      .onConflict((oc) => oc.column('body_hash').doNothing())
      .returning('body_hash')
      .executeTakeFirst();
    return row !== undefined;
  }

  async setWebhookOutcome(trx: Conn, bodyHash: string, outcome: string): Promise<void> {
    await trx.updateTable('payment_webhook_events').set({ outcome }).where('body_hash', '=', bodyHash).execute();
  }
}

import { sql, type Insertable } from 'kysely';
import type { TransferReportStatus } from '@portal/domain';
import { countOf, nowIso, type Conn, type DB } from '../../db/index';
import { leftJoinPerson, staffOrAdminNameOf } from '../../db/person-name';
import './payments.tables';
import type { TransferReportsTable } from './payments.tables';
import { payerStudents } from './payments.repository';

/** What the queue and a student's list filter by. */
export interface TransferReportFilter {
  id?: number;
  studentId?: number;
  status?: TransferReportStatus;
}

/** SQL of the transfers students report: the reports, their slips, the bursar's decisions. */
export class TransferReportsRepository {
  constructor(readonly db: DB) {}

  /** A student with what a payment row stores of them (the payer of a confirmed report). */
  studentById(id: number) {
    return payerStudents(this.db).where('students.id', '=', id).executeTakeFirst();
  }

  async insert(trx: Conn, values: Omit<Insertable<TransferReportsTable>, 'reported_at'>): Promise<number> {
    const row = await trx
      .insertInto('transfer_reports')
      .values({ ...values, reported_at: nowIso() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  waitingCount(studentId: number): Promise<number> {
    return countOf(this.db.selectFrom('transfer_reports').where('student_id', '=', studentId).where('status', '=', 'to_confirm'));
  }

  /** Every waiting report at once: how many, their amount and the oldest's time (the bursar's dashboard), one statement. */
  async waitingSummary(conn: Conn = this.db): Promise<{ count: number; kobo: number; oldest: string | null }> {
    const row = await conn
      .selectFrom('transfer_reports')
      .select((eb) => [
        eb.fn.countAll().as('count'),
        eb.fn.sum<number | string | null>('amount_kobo').as('kobo'),
        eb.fn.min('reported_at').as('oldest'),
      ])
      .where('status', '=', 'to_confirm')
      .executeTakeFirst();
    return { count: Number(row?.count ?? 0), kobo: Number(row?.kobo ?? 0), oldest: row?.oldest ? String(row.oldest) : null };
  }

  /** The whole report with its slip, to decide on it. */
  byId(conn: Conn, id: number) {
    return conn.selectFrom('transfer_reports').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Who reported it and the slip (the scan route's check and answer). */
  scanOf(id: number) {
    return this.db.selectFrom('transfer_reports').select(['student_id', 'scan_mime', 'scan_data']).where('id', '=', id).executeTakeFirst();
  }

  /**
   * Decides a report only while it still waits (the conditional update two bursars race on: one
   * changes the row, the other changes nothing); clears waiting_key so the reference may be
   * reported again after a rejection. Returns the time decided, or null when it no longer waited.
   */
  async decide(trx: Conn, id: number, d: { status: 'confirmed' | 'rejected'; decidedBy: number; reason?: string }): Promise<string | null> {
    const decidedAt = nowIso();
    const res = await trx
      .updateTable('transfer_reports')
      .set({ status: d.status, decided_by: d.decidedBy, decided_at: decidedAt, reason: d.reason ?? '', waiting_key: null })
      .where('id', '=', id)
      .where('status', '=', 'to_confirm')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1 ? decidedAt : null;
  }

  async linkPayment(trx: Conn, id: number, paymentId: number): Promise<void> {
    await trx.updateTable('transfer_reports').set({ payment_id: paymentId }).where('id', '=', id).execute();
  }

  private base(conn: Conn, f: TransferReportFilter) {
    let q = conn
      .selectFrom('transfer_reports as tr')
      .innerJoin('students as s', 's.id', 'tr.student_id')
      .innerJoin('academic_sessions as ses', 'ses.id', 'tr.session_id');
    if (f.id !== undefined) q = q.where('tr.id', '=', f.id);
    if (f.studentId !== undefined) q = q.where('tr.student_id', '=', f.studentId);
    if (f.status !== undefined) q = q.where('tr.status', '=', f.status);
    return q;
  }

  /**
   * Reports without their slips: waiting ones first, oldest first (the bursar works down the queue),
   * then decided ones, latest decision first. `newestFirst`: by the time reported (a student's list).
   */
  list(f: TransferReportFilter, opts: { page?: { limit: number; offset: number }; newestFirst?: boolean } = {}, conn: Conn = this.db) {
    let q = leftJoinPerson(this.base(conn, f).leftJoin('payments as p', 'p.id', 'tr.payment_id'), 'decider', 'tr.decided_by').select([
      'tr.id',
      'tr.status',
      's.admission_number',
      's.first_name',
      's.last_name',
      's.student_class',
      'tr.session_id',
      'ses.name as session',
      'tr.term',
      'tr.amount_kobo',
      'tr.method',
      'tr.bank',
      'tr.bank_reference',
      'tr.paid_on',
      'tr.note',
      'tr.reported_at',
      'tr.decided_at',
      'tr.reason',
      'p.reference as payment_reference',
      'p.receipt_number',
      'decider.email as decider_email',
      staffOrAdminNameOf('decider').as('decider_name'),
    ]);
    q = opts.newestFirst
      ? q.orderBy('tr.reported_at', 'desc').orderBy('tr.id', 'desc')
      : q
          .orderBy(sql`case when tr.status = 'to_confirm' then 0 else 1 end`)
          .orderBy(sql`case when tr.status = 'to_confirm' then tr.reported_at end`)
          .orderBy('tr.decided_at', 'desc')
          .orderBy('tr.id');
    if (opts.page) q = q.limit(opts.page.limit).offset(opts.page.offset);
    return q.execute();
  }

  count(f: TransferReportFilter, conn: Conn = this.db): Promise<number> {
    return countOf(this.base(conn, f));
  }
}

import {
  BURSARY_MESSAGES,
  PAYMENT_MESSAGES,
  TRANSFER_REPORT_MAX_WAITING,
  TRANSFER_REPORT_MESSAGES,
  TRANSFER_REPORT_PAGE_SIZE,
  TRANSFER_REPORT_STATUS_LABELS,
  bankReferenceKey,
  formatDate,
  koboToNaira,
  personName,
  type Term,
  type TransferConfirmation,
  type TransferReport,
  type TransferReportData,
  type TransferReportMethod,
  type TransferReportPage,
  type TransferReportStatus,
} from '@portal/domain';
import { writeAudit } from '../../db/audit';
import { isUniqueViolation } from '../../db/errors';
import type { AuthUser } from '../../http/auth';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors';
import type { CalendarService } from '../calendar/calendar.service';
import type { CapabilitiesService } from '../auth/capabilities.service';
import type { SessionsService } from '../calendar/sessions.service';
import type { BursaryRepository } from './bursary.repository';
import { presentRecorded, type RecordedRow } from './bursary.presenters';
import type { BursaryService, RecordedPayment } from './bursary.service';
import { decodeScan } from './payment-scans';
import type { AccessScope } from '../access/scope.service';
import type { TransferReportFilter, TransferReportsRepository } from './transfer-reports.repository';
import { inTransaction } from '../../db/index';

type Actor = Pick<AuthUser, 'id' | 'role' | 'email'>;
type ReportRow = Awaited<ReturnType<TransferReportsRepository['list']>>[number];

export function presentTransferReport(r: ReportRow): TransferReport {
  return {
    id: r.id,
    status: r.status,
    admission_number: r.admission_number,
    full_name: personName(r),
    student_class: r.student_class,
    session_id: r.session_id,
    session: r.session,
    term: (r.term as Term | null) ?? null,
    amount: koboToNaira(r.amount_kobo),
    method: r.method as TransferReportMethod,
    bank: r.bank,
    bank_reference: r.bank_reference,
    paid_on: r.paid_on,
    note: r.note,
    reported_at: r.reported_at,
    decided_at: r.decided_at,
    decided_by: r.decided_at ? r.decider_name?.trim() || r.decider_email || null : null,
    reason: r.reason,
    payment_reference: r.payment_reference ?? null,
    receipt_number: r.receipt_number ?? null,
  };
}

/** Thrown inside a decision's transaction when the report no longer waits (rolls the transaction back). */
class NotWaiting extends Error {}

/**
 * Transfers students report: the student reports a bank transfer or teller with
 * the slip; the bursar confirms it (recording the payment through the bursar's own code path, in
 * the same transaction) or rejects it with a reason. A report is decided once: the conditional
 * update settles two bursars racing; the unique keys settle references (waiting_key while waiting,
 * the payments' bank_reference_key once recorded).
 */
export class TransferReportsService {
  constructor(
    private readonly repo: TransferReportsRepository,
    private readonly bursary: BursaryService,
    private readonly bursaryRepo: BursaryRepository,
    private readonly scope: AccessScope,
    private readonly sessions: SessionsService,
    private readonly calendar: Pick<CalendarService, 'termStarts' | 'schoolToday'>,
    private readonly capabilities: CapabilitiesService,
  ) {}

  /** The signed-in student's own record; anyone else is refused (a report is always the reporter's own). */
  private async reporter(actor: Actor) {
    const own = await this.scope.ownStudent(actor);
    if (!own) throw forbidden(TRANSFER_REPORT_MESSAGES.studentsOnly);
    return own;
  }

  private async one(id: number): Promise<TransferReport> {
    const [row] = await this.repo.list({ id });
    if (!row) throw notFound(TRANSFER_REPORT_MESSAGES.reportNotFound);
    return presentTransferReport(row);
  }

  async report(actor: Actor, input: TransferReportData): Promise<TransferReport> {
    const student = await this.reporter(actor);
    const [session, { today }, waiting, bank] = await Promise.all([
      this.sessions.byId(input.session_id),
      this.calendar.schoolToday(),
      this.repo.waitingCount(student.id),
      this.bursary.bankOf(input.method, input.bank),
    ]);
    if (!session) throw badRequest({ session_id: [PAYMENT_MESSAGES.sessionInvalid] });
    await this.bursary.checkPaidOn(input.paid_on, today);
    const scan = decodeScan(input.scan);
    // The bank's code and the reference's key: the same rule as the bursar's payments.
    const key = bankReferenceKey(bank.bankCode, input.bank_reference);
    // Already a payment: said at once, naming its receipt (confirming would refuse it anyway).
    await this.bursary.refuseIfRecorded(key);
    // Each waiting report holds a slip of up to 2 MB: a student cannot fill the database.
    if (waiting >= TRANSFER_REPORT_MAX_WAITING) throw conflict(TRANSFER_REPORT_MESSAGES.tooManyWaiting(waiting));
    let id: number;
    try {
      id = await inTransaction(this.repo.db, async (trx) => {
        const created = await this.repo.insert(trx, {
          student_id: student.id,
          session_id: session.id,
          term: input.term,
          amount_kobo: input.amount,
          method: input.method,
          bank: bank.bank,
          bank_reference: input.bank_reference,
          bank_reference_key: key,
          paid_on: input.paid_on,
          note: input.note,
          scan_mime: scan.mime,
          scan_data: scan.bytes.toString('base64'),
          scan_bytes: scan.bytes.length,
          reported_by: actor.id,
          waiting_key: key,
        });
        await writeAudit(trx, {
          actorUserId: actor.id,
          action: 'transfer_report.create',
          entity: 'transfer_report',
          entityId: created,
          after: {
            admission_number: student.admission_number,
            session: session.name,
            term: input.term,
            amount_kobo: input.amount,
            method: input.method,
            bank: bank.bank,
            bank_reference: input.bank_reference,
            paid_on: input.paid_on,
            note: input.note,
            scan: { mime: scan.mime, bytes: scan.bytes.length },
          },
        });
        return created;
      });
    } catch (err) {
      // The same reference reported again while the first still waits (or two reports racing).
      if (isUniqueViolation(err, 'waiting_key')) throw conflict(TRANSFER_REPORT_MESSAGES.referenceWaiting);
      throw err;
    }
    return this.one(id);
  }

  /** The student's own reports, newest first. */
  async mine(actor: Actor): Promise<TransferReport[]> {
    const student = await this.reporter(actor);
    return (await this.repo.list({ studentId: student.id }, { newestFirst: true, page: { limit: 200, offset: 0 } })).map(
      presentTransferReport,
    );
  }

  /** The waiting reports at a glance (the bursar's dashboard): count, amount in naira, the oldest's time. */
  async waiting(): Promise<{ count: number; amount: number; oldest_reported_at: string | null }> {
    const w = await this.repo.waitingSummary();
    return { count: w.count, amount: koboToNaira(w.kobo), oldest_reported_at: w.oldest };
  }

  async queue(q: { status?: TransferReportStatus; page: number }): Promise<TransferReportPage> {
    const f: TransferReportFilter = { status: q.status };
    const [rows, total] = await Promise.all([
      this.repo.list(f, { page: { limit: TRANSFER_REPORT_PAGE_SIZE, offset: (q.page - 1) * TRANSFER_REPORT_PAGE_SIZE } }),
      this.repo.count(f),
    ]);
    return {
      reports: rows.map(presentTransferReport),
      page: q.page,
      pages: Math.max(1, Math.ceil(total / TRANSFER_REPORT_PAGE_SIZE)),
      total,
    };
  }

  private async refuseDecided(id: number): Promise<never> {
    const now = await this.repo.byId(this.repo.db, id);
    if (!now) throw notFound(TRANSFER_REPORT_MESSAGES.reportNotFound);
    throw conflict(TRANSFER_REPORT_MESSAGES.notWaiting(TRANSFER_REPORT_STATUS_LABELS[now.status]));
  }

  /**
   * Confirms a waiting report in one transaction: the report marked confirmed (only if it still
   * waits), the payment recorded by `BursaryService.recordIn` (the slip its scan, the bursar its
   * recorder), the two linked, and the audit row. A reference recorded meanwhile rolls it all back:
   * 409 referenceTaken, and the report still waits for the bursar to reject it.
   */
  async confirm(actor: Actor, id: number): Promise<TransferConfirmation> {
    const report = await this.repo.byId(this.repo.db, id);
    if (!report) throw notFound(TRANSFER_REPORT_MESSAGES.reportNotFound);
    if (report.status !== 'to_confirm') return this.refuseDecided(id);
    const [student, session, { timeZone }, recorderName] = await Promise.all([
      this.repo.studentById(report.student_id),
      this.sessions.byId(report.session_id),
      this.calendar.schoolToday(),
      this.bursaryRepo.recorderName(actor.id),
    ]);
    // Both are kept by foreign keys (deleting either deletes the report).
    if (!student || !session) throw notFound(TRANSFER_REPORT_MESSAGES.reportNotFound);
    const payment: RecordedPayment = {
      student,
      sessionId: session.id,
      sessionName: session.name,
      term: (report.term as Term | null) ?? null,
      amountKobo: report.amount_kobo,
      method: report.method as TransferReportMethod,
      bank: report.bank,
      // The code the report was keyed with (an upgraded report may name a bank the list does not know).
      bankCode: report.bank_reference_key.slice(0, report.bank_reference_key.indexOf('|')),
      bankReference: report.bank_reference,
      paidOn: report.paid_on,
      note: TRANSFER_REPORT_MESSAGES.reportedNote(formatDate(report.reported_at, timeZone)),
      scan: { mime: report.scan_mime, bytes: Buffer.from(report.scan_data, 'base64') },
      timeZone,
    };
    let done: { row: RecordedRow; decidedAt: string };
    try {
      done = await inTransaction(this.repo.db, async (trx) => {
        const decidedAt = await this.repo.decide(trx, id, { status: 'confirmed', decidedBy: actor.id });
        if (decidedAt === null) throw new NotWaiting();
        const recorded = await this.bursary.recordIn(trx, actor, payment, async (row) => {
          await this.repo.linkPayment(trx, id, row.id);
          return [
            {
              actorUserId: actor.id,
              action: 'transfer_report.confirm',
              entity: 'transfer_report',
              entityId: id,
              before: { status: 'to_confirm' },
              after: { status: 'confirmed', payment: row.reference, receipt_number: row.receipt_number },
            },
          ];
        });
        return { row: recorded, decidedAt };
      });
    } catch (err) {
      if (err instanceof NotWaiting) return this.refuseDecided(id);
      await this.bursary.refuseReferenceClash(err, payment);
      throw err;
    }
    // Both answers are built from the rows read and written (no re-read), as a recorded payment's is.
    const { row, decidedAt } = done;
    const decider = recorderName?.trim() || actor.email;
    return {
      report: presentTransferReport({
        ...report,
        admission_number: student.admission_number,
        first_name: student.first_name,
        last_name: student.last_name,
        student_class: student.student_class,
        session: session.name,
        status: 'confirmed',
        decided_at: decidedAt,
        reason: '',
        payment_reference: row.reference,
        receipt_number: row.receipt_number,
        decider_email: actor.email,
        decider_name: decider,
      }),
      payment: presentRecorded(row, actor, recorderName),
    };
  }

  /** Rejects a waiting report with the reason the student reads; its reference may be reported again. */
  async reject(actor: Actor, id: number, reason: string): Promise<TransferReport> {
    const report = await this.repo.byId(this.repo.db, id);
    if (!report) throw notFound(TRANSFER_REPORT_MESSAGES.reportNotFound);
    try {
      await inTransaction(this.repo.db, async (trx) => {
        if ((await this.repo.decide(trx, id, { status: 'rejected', decidedBy: actor.id, reason })) === null) throw new NotWaiting();
        await writeAudit(trx, {
          actorUserId: actor.id,
          action: 'transfer_report.reject',
          entity: 'transfer_report',
          entityId: id,
          before: { status: 'to_confirm' },
          after: { status: 'rejected', reason },
        });
      });
    } catch (err) {
      if (err instanceof NotWaiting) return this.refuseDecided(id);
      throw err;
    }
    return this.one(id);
  }

  /**
   * The slip: the bursar (or the admin), or the student who reported it. Another student hears the
   * report does not exist (404, as for an unknown id); staff without the capability are refused first.
   */
  async scan(actor: Actor, id: number): Promise<{ mime: string; bytes: Buffer }> {
    const own = await this.scope.ownStudent(actor);
    if (!own && actor.role === 'staff' && !(await this.capabilities.mine(actor)).capabilities.includes('bursar')) {
      throw forbidden(BURSARY_MESSAGES.bursarOnly);
    }
    const row = await this.repo.scanOf(id);
    if (!row || (own && row.student_id !== own.id)) throw notFound(TRANSFER_REPORT_MESSAGES.reportNotFound);
    return { mime: row.scan_mime, bytes: Buffer.from(row.scan_data, 'base64') };
  }
}

import { randomBytes } from 'node:crypto';
import {
  BANKED_METHODS,
  BURSARY_MESSAGES,
  LEDGER_PAGE_SIZE,
  PAYMENT_CURRENCY,
  PAYMENT_MESSAGES,
  SCAN_MAX_BYTES,
  bankReferenceKey,
  formatReceiptNumber,
  koboToNaira,
  personName,
  type LedgerEntry,
  type LedgerPage,
  type OfflineMethod,
  type OfflinePayment,
  type PaymentMethod,
  type Term,
} from '@portal/domain';
import { writeAudit, writeAuditMany, type AuditEntry } from '../../db/audit';
import { allocate } from '../../db/counters';
import type { Conn, Trx } from '../../db/index';
import { isUniqueViolation } from '../../db/errors';
import type { AuthUser } from '../../http/auth';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors';
import { mapInSlices } from '../../lib/yield';
import type { AttendanceService } from '../attendance/attendance.service';
import type { SessionsService } from '../results/sessions.service';
import type { BursaryRepository, LedgerFilter } from './bursary.repository';

type Actor = Pick<AuthUser, 'id' | 'role' | 'email'>;
type LedgerRow = Awaited<ReturnType<BursaryRepository['ledger']>>[number];

/** The next number of the one receipt sequence (online and offline payments, reversals), inside the caller's transaction. */
export async function nextReceiptNumber(trx: Trx): Promise<string> {
  return formatReceiptNumber(await allocate(trx, 'receipt'));
}

/** The type of a scan by its first bytes (never by what the upload says it is). */
export function sniffScanType(bytes: Buffer): 'image/png' | 'image/jpeg' | 'application/pdf' | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 5 && bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  return null;
}

/** A scan data URL decoded and checked: its label and its bytes must agree, at most SCAN_MAX_BYTES. */
export function decodeScan(dataUrl: string): { mime: string; bytes: Buffer } {
  const m = /^data:(image\/png|image\/jpeg|application\/pdf);base64,([A-Za-z0-9+/=]+)$/.exec(dataUrl);
  if (!m) throw badRequest({ scan: [BURSARY_MESSAGES.scanInvalid] });
  const bytes = Buffer.from(m[2]!, 'base64');
  if (bytes.length > SCAN_MAX_BYTES) throw badRequest({ scan: [BURSARY_MESSAGES.scanTooLarge] });
  if (sniffScanType(bytes) !== m[1]) throw badRequest({ scan: [BURSARY_MESSAGES.scanInvalid] });
  return { mime: m[1], bytes };
}

/** Noon of a school day in the school's time zone, as an ISO instant (an offline payment's paid_at). */
export function noonIn(timeZone: string, day: string): string {
  const guess = Date.parse(`${day}T12:00:00Z`);
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(guess));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  return new Date(guess - (asUtc - guess)).toISOString();
}

/** The day a payment counts from: the day paid (offline), else the day the gateway settled it, else recorded. */
export function paidOnOf(r: { paid_on: string | null; paid_at: string | null; created_at: string }): string {
  return r.paid_on ?? (r.paid_at ?? r.created_at).slice(0, 10);
}

export function presentLedgerEntry(r: LedgerRow): LedgerEntry {
  const reversal = r.orig_reference !== null;
  return {
    reference: r.reference,
    receipt_number: r.receipt_number ?? '',
    kind: reversal ? 'reversal' : 'payment',
    admission_number: r.admission_number,
    full_name: r.full_name,
    student_class: r.current_class,
    session: r.current_session,
    term: (r.term as Term | null) ?? null,
    amount: koboToNaira(r.amount_kobo),
    method: r.method,
    bank: r.bank,
    bank_reference: r.bank_reference,
    paid_on: paidOnOf(r),
    note: r.note,
    has_scan: Number(r.has_scan) > 0,
    reverses: reversal ? { reference: r.orig_reference!, receipt_number: r.orig_receipt_number ?? '' } : null,
    reason: r.reason,
    reversed_by: r.reversed_by ?? null,
    recorded_by: r.recorder_name?.trim() || r.recorder_email || null,
    recorded_at: r.created_at,
  };
}

/** An offline payment resolved and checked by its caller (the bursar's form, or a confirmed transfer report). */
export interface RecordedPayment {
  student: PayerStudent;
  sessionName: string;
  term: Term | null;
  amountKobo: number;
  method: OfflineMethod;
  bank: string;
  bankReference: string;
  paidOn: string;
  note: string;
  scan: { mime: string; bytes: Buffer } | null;
  /** The school's time zone (paid_at is noon of the day paid there). */
  timeZone: string;
}
type PayerStudent = NonNullable<Awaited<ReturnType<BursaryRepository['studentForPayment']>>>;
export type RecordedRow = Awaited<ReturnType<BursaryRepository['insert']>> & { has_scan: number };

/** The bank reference key a recorded payment stores: banked methods only carry a bank. */
function referenceKeyOf(p: Pick<RecordedPayment, 'method' | 'bank' | 'bankReference'>): string | null {
  const bank = (BANKED_METHODS as readonly string[]).includes(p.method) ? p.bank : '';
  return p.bankReference ? bankReferenceKey(bank, p.bankReference) : null;
}

/** A payment just recorded as a ledger entry, from the row written (no re-read: nothing reverses it yet). */
export function presentRecorded(row: RecordedRow, actor: Pick<AuthUser, 'email'>, recorderName: string | null): LedgerEntry {
  return presentLedgerEntry({
    ...row,
    orig_reference: null,
    orig_receipt_number: null,
    reversed_by: null,
    recorder_email: actor.email,
    recorder_name: recorderName,
  });
}

/**
 * The bursar's office: offline payments recorded beside online ones (one receipt sequence), the
 * teller's scan, reversals as entries of the negative amount, and the ledger. Each save is one
 * transaction with its audit row; the unique indexes settle races (never a 500).
 */
export class BursaryService {
  constructor(
    private readonly repo: BursaryRepository,
    private readonly sessions: SessionsService,
    private readonly attendance: AttendanceService,
  ) {}

  private async entry(conn: Conn, reference: string): Promise<LedgerEntry> {
    const [row] = await this.repo.ledger({ reference }, undefined, conn);
    if (!row) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    return presentLedgerEntry(row);
  }

  async record(actor: Actor, input: OfflinePayment): Promise<LedgerEntry> {
    const [student, session, { today, timeZone }, recorderName] = await Promise.all([
      this.repo.studentForPayment(input.admission_number),
      this.sessions.byId(input.session_id),
      this.attendance.schoolToday(),
      this.repo.recorderName(actor.id),
    ]);
    if (!student) throw badRequest({ admission_number: [PAYMENT_MESSAGES.studentNotFound] });
    if (!session) throw badRequest({ session_id: [PAYMENT_MESSAGES.sessionInvalid] });
    if (input.paid_on > today) throw badRequest({ paid_on: [BURSARY_MESSAGES.paidOnFuture] });
    const scan = input.scan ? decodeScan(input.scan) : null;
    const payment: RecordedPayment = {
      student,
      sessionName: session.name,
      term: input.term,
      amountKobo: input.amount,
      method: input.method,
      bank: input.bank,
      bankReference: input.bank_reference,
      paidOn: input.paid_on,
      note: input.note,
      scan,
      timeZone,
    };
    let row: RecordedRow;
    try {
      row = await this.repo.db.transaction().execute((trx) => this.recordIn(trx, actor, payment));
    } catch (err) {
      await this.refuseReferenceClash(err, payment);
      throw err;
    }
    return presentRecorded(row, actor, recorderName);
  }

  /**
   * The one way an offline payment is written, inside the caller's transaction: the receipt number,
   * the payment row (a `successful` payment, so every balance counts it at once), its scan and the
   * `payment.record` audit row. Used by `record` and by a confirmed transfer report. The unique bank
   * reference key refuses a second payment of the same reference (see `refuseReferenceClash`).
   */
  async recordIn(
    trx: Trx,
    actor: Actor,
    p: RecordedPayment,
    // The caller's own writes for this payment (a confirmed report's link), whose audit rows are
    // written with this one in a single insert: the receipt sequence is locked until commit.
    andThen?: (row: RecordedRow) => Promise<AuditEntry[]>,
  ): Promise<RecordedRow> {
    const banked = (BANKED_METHODS as readonly string[]).includes(p.method);
    const bank = banked ? p.bank : '';
    const key = referenceKeyOf(p);
    const reference = `OFF-${Date.now().toString(36).toUpperCase()}-${randomBytes(6).toString('hex').toUpperCase()}`;
    const receipt = await nextReceiptNumber(trx);
    const inserted = await this.repo.insert(trx, {
      reference,
      student_id: p.student.id,
      admission_number: p.student.admission_number,
      full_name: personName(p.student),
      current_class: p.student.student_class,
      current_session: p.sessionName,
      term: p.term,
      email: p.student.email,
      phone_number: p.student.phone_number || null,
      amount_kobo: p.amountKobo,
      currency: PAYMENT_CURRENCY,
      status: 'successful',
      provider: 'offline',
      provider_transaction_id: null,
      provider_access_code: null,
      provider_status: null,
      initiated_by: actor.id,
      paid_at: noonIn(p.timeZone, p.paidOn),
      method: p.method,
      bank,
      bank_reference: p.bankReference,
      bank_reference_key: key,
      paid_on: p.paidOn,
      note: p.note,
      receipt_number: receipt,
      reversal_of: null,
      recorded_by: actor.id,
    });
    if (p.scan)
      await this.repo.insertScan(trx, {
        payment_id: inserted.id,
        mime: p.scan.mime,
        data: p.scan.bytes.toString('base64'),
        bytes: p.scan.bytes.length,
      });
    const row = { ...inserted, has_scan: p.scan ? 1 : 0 };
    const more = andThen ? await andThen(row) : [];
    await writeAuditMany(trx, [
      {
        actorUserId: actor.id,
        action: 'payment.record',
        entity: 'payment',
        entityId: reference,
        after: {
          receipt_number: receipt,
          admission_number: p.student.admission_number,
          session: p.sessionName,
          term: p.term,
          amount_kobo: p.amountKobo,
          method: p.method,
          bank,
          bank_reference: p.bankReference,
          paid_on: p.paidOn,
          note: p.note,
          scan: p.scan ? { mime: p.scan.mime, bytes: p.scan.bytes.length } : null,
        },
      },
      ...more,
    ]);
    return row;
  }

  /**
   * After a failed `recordIn` transaction: the same bank reference again (or two bursars racing
   * with it) is a 409 naming the receipt that holds it; the unique index decided, and the counter's
   * step rolled back with the refused insert. Returns for any other error (the caller rethrows it).
   */
  async refuseReferenceClash(err: unknown, p: Pick<RecordedPayment, 'method' | 'bank' | 'bankReference'>): Promise<void> {
    const key = referenceKeyOf(p);
    if (key && isUniqueViolation(err, 'bank_reference_key')) await this.refuseTakenReference(this.repo.db, key);
  }

  /** 409 referenceTaken when a payment already holds this bank reference key. */
  async refuseIfRecorded(key: string): Promise<void> {
    await this.refuseTakenReference(this.repo.db, key);
  }

  private async refuseTakenReference(conn: Conn, key: string): Promise<void> {
    const receipt = await this.repo.receiptOfBankReference(conn, key);
    if (receipt !== undefined) throw conflict(BURSARY_MESSAGES.referenceTaken(receipt));
  }

  async reverse(actor: Actor, reference: string, reason: string): Promise<LedgerEntry> {
    const original = await this.repo.paymentByReference(this.repo.db, reference);
    if (!original) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    if (original.reversal_of !== null || original.amount_kobo < 0) throw conflict(BURSARY_MESSAGES.reversalNotReversible);
    if (original.status !== 'successful') throw conflict(BURSARY_MESSAGES.notReversible);
    const refuseTwice = async () => {
      const done = await this.repo.reversalOf(this.repo.db, original.id);
      if (done) throw conflict(BURSARY_MESSAGES.alreadyReversed(done.receipt_number ?? ''));
    };
    await refuseTwice();
    const { today } = await this.attendance.schoolToday();
    const reversalRef = `REV-${Date.now().toString(36).toUpperCase()}-${randomBytes(6).toString('hex').toUpperCase()}`;
    try {
      await this.repo.db.transaction().execute(async (trx) => {
        const receipt = await nextReceiptNumber(trx);
        await this.repo.insert(trx, {
          reference: reversalRef,
          student_id: original.student_id,
          admission_number: original.admission_number,
          full_name: original.full_name,
          current_class: original.current_class,
          current_session: original.current_session,
          term: original.term,
          email: original.email,
          phone_number: original.phone_number,
          amount_kobo: -original.amount_kobo,
          currency: original.currency,
          status: 'successful',
          provider: original.provider,
          provider_transaction_id: null,
          provider_access_code: null,
          provider_status: null,
          initiated_by: actor.id,
          paid_at: new Date().toISOString(),
          method: original.method,
          bank: original.bank,
          bank_reference: original.bank_reference,
          bank_reference_key: null,
          paid_on: today,
          note: '',
          receipt_number: receipt,
          reversal_of: original.id,
          reason,
          recorded_by: actor.id,
        });
        await writeAudit(trx, {
          actorUserId: actor.id,
          action: 'payment.reverse',
          entity: 'payment',
          entityId: reference,
          before: { receipt_number: original.receipt_number, amount_kobo: original.amount_kobo },
          after: { reversal: reversalRef, receipt_number: receipt, amount_kobo: -original.amount_kobo, reason },
        });
      });
    } catch (err) {
      // A racing second reversal: the unique reversal_of refuses it.
      if (isUniqueViolation(err, 'reversal_of')) await refuseTwice();
      throw err;
    }
    return this.entry(this.repo.db, reversalRef);
  }

  private async filterOf(q: { admission_number?: string; session_id?: number; method?: PaymentMethod; from?: string; to?: string }) {
    const f: LedgerFilter = { method: q.method, from: q.from, to: q.to };
    if (q.admission_number) {
      const s = await this.repo.studentForPayment(q.admission_number);
      if (!s) throw badRequest({ admission_number: [PAYMENT_MESSAGES.studentNotFound] });
      f.studentId = s.id;
    }
    if (q.session_id !== undefined) {
      const s = await this.sessions.byId(q.session_id);
      if (!s) throw badRequest({ session_id: [PAYMENT_MESSAGES.sessionInvalid] });
      f.sessionName = s.name;
    }
    return f;
  }

  async ledger(q: {
    admission_number?: string;
    session_id?: number;
    method?: PaymentMethod;
    from?: string;
    to?: string;
    page: number;
  }): Promise<LedgerPage> {
    const f = await this.filterOf(q);
    const [rows, totals] = await Promise.all([
      this.repo.ledger(f, { limit: LEDGER_PAGE_SIZE, offset: (q.page - 1) * LEDGER_PAGE_SIZE }),
      this.repo.ledgerTotals(f),
    ]);
    return {
      entries: rows.map(presentLedgerEntry),
      page: q.page,
      pages: Math.max(1, Math.ceil(totals.total / LEDGER_PAGE_SIZE)),
      total: totals.total,
      total_amount: koboToNaira(totals.kobo),
    };
  }

  /** Every entry in the range, for the CSV (newest first). */
  async ledgerAll(q: { from?: string; to?: string }): Promise<LedgerEntry[]> {
    return mapInSlices(await this.repo.ledgerInSlices(await this.filterOf(q)), presentLedgerEntry);
  }

  async scan(reference: string): Promise<{ mime: string; bytes: Buffer }> {
    const p = await this.repo.paymentByReference(this.repo.db, reference);
    if (!p) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    const s = await this.repo.scanOf(p.id);
    if (!s) throw new HttpError(404, { detail: BURSARY_MESSAGES.noScan });
    return { mime: s.mime, bytes: Buffer.from(s.data, 'base64') };
  }
}

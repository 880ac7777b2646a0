// One file for now (about 420 lines): one service class, offline payments (record, reverse, the
// ledger, the scanned slip), whose steps share the receipt and reference checks.
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import {
  BANK_REFERENCE_MESSAGES,
  BANKED_METHODS,
  BURSARY_MESSAGES,
  DUPLICATE_CASH_CODE,
  DUPLICATE_CASH_MESSAGES,
  LEDGER_PAGE_SIZE,
  PAYMENT_CURRENCY,
  PAYMENT_MESSAGES,
  bankReferenceKey,
  formatReceiptNumber,
  koboToNaira,
  type ledgerQuerySchema,
  noonIn,
  paymentDateProblem,
  paymentDateWindow,
  personName,
  referenceKey,
  type LedgerEntry,
  type LedgerPage,
  type OfflineMethod,
  type OfflinePayment,
  type PaymentAllocation,
  type Term,
} from '@portal/domain';
import { writeAudit, writeAuditMany, type AuditEntry } from '../../db/audit';
import { allocate } from '../../db/counters';
import type { Conn, Trx } from '../../db/index';
import { isUniqueViolation } from '../../db/errors';
import type { AuthUser } from '../../http/auth';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors';
import { mapInSlices } from '../../lib/yield';
import type { CalendarService } from '../calendar/calendar.service';
import type { SessionsService } from '../calendar/sessions.service';
import type { BanksService } from './banks.service';
import type { BursaryRepository, LedgerFilter } from './bursary.repository';
import { presentLedgerEntry, presentRecorded, type RecordedRow } from './bursary.presenters';
import { decodeScan } from './payment-scans';
import { inTransaction } from '../../db/index';
import { recordPaymentNotice } from './payment-notice';

type Actor = Pick<AuthUser, 'id' | 'role' | 'email'>;
/** The ledger's filters and page, as the domain's query schema gives them. */
type LedgerQuery = z.output<typeof ledgerQuerySchema>;

/** The next number of the one receipt sequence (online and offline payments, reversals), inside the caller's transaction. */
export async function nextReceiptNumber(trx: Trx): Promise<string> {
  return formatReceiptNumber(await allocate(trx, 'receipt'));
}

/** An offline payment resolved and checked by its caller (the bursar's form, or a confirmed transfer report). */
export interface RecordedPayment {
  student: PayerStudent;
  sessionId: number;
  sessionName: string;
  term: Term | null;
  amountKobo: number;
  method: OfflineMethod;
  bank: string;
  /** The bank's code in the list ('' for cash; `?NAME` for an old bank the list does not know). */
  bankCode: string;
  bankReference: string;
  paidOn: string;
  note: string;
  scan: { mime: string; bytes: Buffer } | null;
  /** The school's time zone (paid_at is noon of the day paid there). */
  timeZone: string;
  /** Arrears first (default) or this term first (decision 041). */
  allocation?: PaymentAllocation;
}
type PayerStudent = NonNullable<Awaited<ReturnType<BursaryRepository['studentForPayment']>>>;
/** The bank reference key a recorded payment stores (the bank's code and the reference's key): banked methods only carry a bank. */
function referenceKeyOf(p: Pick<RecordedPayment, 'method' | 'bankCode' | 'bankReference'>): string | null {
  const code = (BANKED_METHODS as readonly string[]).includes(p.method) ? p.bankCode : '';
  return p.bankReference ? bankReferenceKey(code, p.bankReference) : null;
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
    private readonly calendar: Pick<CalendarService, 'termStarts' | 'schoolToday'>,
    readonly banks: BanksService,
  ) {}

  /** The bank of the list a typed name means (its name as the list has it, and its code), else 400 bankUnknown. */
  async bankOf(method: OfflineMethod, typed: string): Promise<{ bank: string; bankCode: string }> {
    if (!(BANKED_METHODS as readonly string[]).includes(method)) return { bank: '', bankCode: '' };
    const bank = await this.banks.resolve(typed);
    if (!bank) throw badRequest({ bank: [BANK_REFERENCE_MESSAGES.bankUnknown] });
    return { bank: bank.name, bankCode: bank.code };
  }

  private async entry(conn: Conn, reference: string): Promise<LedgerEntry> {
    const [row] = await this.repo.ledger({ reference }, undefined, conn);
    if (!row) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    return presentLedgerEntry(row);
  }

  /** The days a payment may be dated: see `paymentDateWindow` in the domain. */
  async paymentDates(today: string): Promise<{ min: string; max: string }> {
    const current = await this.sessions.currentOrLatest();
    const starts = current ? await this.calendar.termStarts(current.id) : {};
    const first = Object.values(starts).sort()[0] ?? null;
    return paymentDateWindow(today, first);
  }

  /** 400 on `paid_on` when the day is outside the window (a year before the session's first term .. today). */
  async checkPaidOn(paidOn: string, today: string): Promise<void> {
    const problem = paymentDateProblem(paidOn, await this.paymentDates(today));
    if (problem) throw badRequest({ paid_on: [problem] });
  }

  /**
   * The same cash amount for the same student on the same day is more often a slip (a form sent
   * twice) than a second payment: without `confirm: true` it is a 409 asking the bursar, naming the
   * receipt already given.
   */
  private async refuseUnconfirmedSecondCash(studentId: number, input: OfflinePayment): Promise<void> {
    const first = await this.repo.sameDayCash(studentId, input.amount, input.paid_on);
    if (!first) return;
    const receipt = first.receipt_number ?? '';
    throw new HttpError(409, {
      detail: DUPLICATE_CASH_MESSAGES.question(koboToNaira(input.amount), receipt),
      code: DUPLICATE_CASH_CODE,
      receipt_number: receipt,
      reference: first.reference,
    });
  }

  async record(actor: Actor, input: OfflinePayment): Promise<LedgerEntry> {
    const [student, session, { today, timeZone }, recorderName, bank] = await Promise.all([
      this.repo.studentForPayment(input.admission_number),
      this.sessions.byId(input.session_id),
      this.calendar.schoolToday(),
      this.repo.recorderName(actor.id),
      this.bankOf(input.method, input.bank),
    ]);
    if (!student) throw badRequest({ admission_number: [PAYMENT_MESSAGES.studentNotFound] });
    if (!session) throw badRequest({ session_id: [PAYMENT_MESSAGES.sessionInvalid] });
    await this.checkPaidOn(input.paid_on, today);
    if (input.method === 'cash' && !input.confirm) await this.refuseUnconfirmedSecondCash(student.id, input);
    const scan = input.scan ? decodeScan(input.scan) : null;
    const payment: RecordedPayment = {
      student,
      sessionId: session.id,
      sessionName: session.name,
      term: input.term,
      amountKobo: input.amount,
      method: input.method,
      ...bank,
      bankReference: input.bank_reference,
      paidOn: input.paid_on,
      note: input.note,
      scan,
      timeZone,
      allocation: input.allocation,
    };
    let row: RecordedRow;
    try {
      row = await inTransaction(this.repo.db, (trx) => this.recordIn(trx, actor, payment));
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
    // The same reference recorded again after its payment was reversed: the new one says what it replaces.
    const replaced = key ? await this.repo.reversedHolding(trx, key) : undefined;
    const inserted = await this.repo.insert(trx, {
      reference,
      student_id: p.student.id,
      admission_number: p.student.admission_number,
      full_name: personName(p.student),
      current_class: p.student.student_class,
      current_session: p.sessionName,
      session_id: p.sessionId,
      term: p.term,
      // The payment's email is not null: '' for a student without one.
      email: p.student.email ?? '',
      phone_number: p.student.phone_number || null,
      amount_kobo: p.amountKobo,
      currency: PAYMENT_CURRENCY,
      status: 'successful',
      provider: 'offline',
      provider_transaction_id: null,
      provider_access_code: null,
      provider_status: null,
      initiated_by: actor.id,
      paid_at: noonIn(p.paidOn, p.timeZone),
      method: p.method,
      bank,
      bank_reference: p.bankReference,
      bank_reference_key: key,
      paid_on: p.paidOn,
      note: p.note,
      receipt_number: receipt,
      reversal_of: null,
      recorded_by: actor.id,
      replaces: replaced?.id ?? null,
      allocation: p.allocation ?? 'arrears_first',
    });
    if (p.scan)
      await this.repo.insertScan(trx, {
        payment_id: inserted.id,
        mime: p.scan.mime,
        data: p.scan.bytes.toString('base64'),
        bytes: p.scan.bytes.length,
      });
    const row = {
      ...inserted,
      has_scan: p.scan ? 1 : 0,
      replaces_reference: replaced?.reference ?? null,
      replaces_receipt_number: replaced?.receipt_number ?? null,
    };
    await recordPaymentNotice(trx, {
      id: inserted.id,
      student_id: p.student.id,
      receipt_number: receipt,
      amount_kobo: p.amountKobo,
      session: p.sessionName,
      term: p.term,
      paid_on: p.paidOn,
    });
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
          replaces: replaced?.receipt_number ?? null,
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
  async refuseReferenceClash(err: unknown, p: Pick<RecordedPayment, 'method' | 'bankCode' | 'bankReference'>): Promise<void> {
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
    const { today } = await this.calendar.schoolToday();
    const reversalRef = `REV-${Date.now().toString(36).toUpperCase()}-${randomBytes(6).toString('hex').toUpperCase()}`;
    try {
      await inTransaction(this.repo.db, async (trx) => {
        const receipt = await nextReceiptNumber(trx);
        await this.repo.insert(trx, {
          reference: reversalRef,
          student_id: original.student_id,
          admission_number: original.admission_number,
          full_name: original.full_name,
          current_class: original.current_class,
          current_session: original.current_session,
          session_id: original.session_id,
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
        // The reversed payment no longer holds its bank reference: the right amount may be recorded with it.
        await this.repo.markReversed(trx, original.id);
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

  private async filterOf(q: Omit<LedgerQuery, 'page'>) {
    const f: LedgerFilter = { method: q.method, from: q.from, to: q.to };
    // Searched by the same rule payments are kept unique by (invisible characters, case, dashes aside).
    if (q.bank_reference && referenceKey(q.bank_reference)) f.bankReferenceKey = referenceKey(q.bank_reference);
    if (q.admission_number) {
      const s = await this.repo.studentForPayment(q.admission_number);
      if (!s) throw badRequest({ admission_number: [PAYMENT_MESSAGES.studentNotFound] });
      f.studentId = s.id;
    }
    if (q.session_id !== undefined) {
      const s = await this.sessions.byId(q.session_id);
      if (!s) throw badRequest({ session_id: [PAYMENT_MESSAGES.sessionInvalid] });
      f.sessionId = s.id;
    }
    return f;
  }

  async ledger(q: LedgerQuery): Promise<LedgerPage> {
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

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import {
  CLASSES,
  PAYMENT_CURRENCY,
  PAYMENT_MESSAGES,
  TERM_VALUES,
  koboToNaira,
  type ClassReportRow,
  type ClassReportSummary,
  type FeeSchedule,
  type InitiatePayment,
  type InitiateResponse,
  type Payment,
  type PaymentContext,
  type PaymentStatus,
  type Receipt,
  type ReportPaymentStatus,
  type Term,
  type VerifyResponse,
} from '@portal/domain';
import type { Config } from '../../config';
import type { Database } from '../../db/schema';
import { badRequest, conflict, forbidden, HttpError, notFound, unauthorized } from '../../http/errors';
import type { AuthUser } from '../../http/auth';
import { writeAudit } from '../../lib/audit';
import { mapPaystackStatus, ProviderError, type PaymentProvider, type VerifyResult } from './payments.providers';
import type { PaymentRow, PaymentsRepository } from './payments.repository';

type Actor = Pick<AuthUser, 'id' | 'role'>;
const providerUnavailable = () => new HttpError(503, { detail: PAYMENT_MESSAGES.providerUnavailable });

/** A payment as the API shows it (spec §3), amounts in naira. */
export function presentPayment(p: PaymentRow): Payment {
  return {
    id: p.id,
    admission_number: p.admission_number,
    full_name: p.full_name,
    current_class: p.current_class,
    current_session: p.current_session,
    email: p.email,
    phone_number: p.phone_number,
    amount: koboToNaira(p.amount_kobo),
    reference: p.reference,
    status: p.status,
    created_at: p.created_at,
    term: (p.term as Term | null) ?? null,
    currency: p.currency,
    paid_at: p.paid_at,
  };
}

const NOT_SUCCESSFUL: readonly PaymentStatus[] = ['pending', 'failed', 'abandoned'];

export class PaymentsService {
  constructor(
    private readonly repo: PaymentsRepository,
    readonly provider: PaymentProvider,
    private readonly config: Pick<Config, 'publicUrl' | 'paystackSecretKey'>,
    private readonly log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>,
  ) {}

  /** The signed-in student's own record; null for staff and admin. */
  private async studentOf(actor: Actor) {
    if (actor.role !== 'student') return null;
    const s = await this.repo.studentByUserId(actor.id);
    if (!s) throw forbidden(PAYMENT_MESSAGES.notYourRecord);
    return s;
  }

  // ---------------------------------------------------------------- initiate

  async initiate(actor: Actor, input: InitiatePayment, origin: string): Promise<InitiateResponse> {
    const own = await this.studentOf(actor);
    if (own && own.admission_number !== input.admission_number) throw forbidden(PAYMENT_MESSAGES.notYourRecord);
    const student = own ?? (await this.repo.studentByAdmissionNumber(input.admission_number));
    if (!student) throw badRequest({ admission_number: [PAYMENT_MESSAGES.studentNotFound] });
    const session = await this.repo.sessionByName(input.current_session);
    if (!session) throw badRequest({ current_session: [PAYMENT_MESSAGES.sessionInvalid] });

    const reference = `FEES-${Date.now().toString(36).toUpperCase()}-${randomBytes(6).toString('hex').toUpperCase()}`;
    // The pending payment exists before the provider hears of it: whatever happens next, it is on record.
    const payment = await this.repo.db.transaction().execute(async (trx) => {
      const row = await this.repo.insertPayment(trx, {
        reference,
        student_id: student.id,
        admission_number: student.admission_number,
        full_name: input.full_name,
        current_class: input.current_class,
        current_session: session.name,
        term: input.term,
        email: input.email,
        phone_number: input.phone_number,
        amount_kobo: input.amount,
        currency: PAYMENT_CURRENCY,
        status: 'pending',
        provider: this.provider.name,
        provider_transaction_id: null,
        provider_access_code: null,
        provider_status: null,
        initiated_by: actor.id,
        paid_at: null,
      });
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'payment.create',
        entity: 'payment',
        entityId: reference,
        after: { status: 'pending', amount_kobo: row.amount_kobo, admission_number: row.admission_number, provider: row.provider },
      });
      return row;
    });

    try {
      const init = await this.provider.initialize({
        reference,
        amountKobo: payment.amount_kobo,
        currency: payment.currency,
        email: payment.email,
        callbackUrl: `${this.config.publicUrl ?? origin}/PaymentForm`,
        origin: this.config.publicUrl ?? origin,
        metadata: {
          admission_number: payment.admission_number,
          full_name: payment.full_name,
          current_class: payment.current_class,
          current_session: payment.current_session,
          term: payment.term,
        },
      });
      await this.repo.setAccessCode(reference, init.accessCode);
      return {
        status: 'success',
        message: PAYMENT_MESSAGES.authorizationCreated,
        data: { authorization_url: init.authorizationUrl, access_code: init.accessCode, reference },
      };
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      this.log?.warn({ reference, kind: err.kind, err: err.message }, 'payment provider initialize failed');
      // No checkout address was handed out, so nobody can pay this reference through us. It is
      // marked failed; should the provider still report a success for it, verify or the webhook credits it.
      await this.repo.db.transaction().execute(async (trx) => {
        if (await this.repo.transition(trx, reference, ['pending'], 'failed', { provider_status: `initialize_${err.kind}` })) {
          await this.audit(trx, null, reference, 'pending', 'failed', { reason: `initialize_${err.kind}` }, actor.id);
        }
      });
      throw providerUnavailable();
    }
  }

  // ---------------------------------------------------------------- verify and webhook

  private async audit(
    trx: Transaction<Database>,
    _payment: PaymentRow | null,
    reference: string,
    from: PaymentStatus,
    to: PaymentStatus,
    extra: Record<string, unknown>,
    actorUserId: number | null,
  ): Promise<void> {
    await writeAudit(trx, {
      actorUserId,
      action: `payment.${to}`,
      entity: 'payment',
      entityId: reference,
      before: { status: from },
      after: { status: to, ...extra },
    });
  }

  /**
   * Applies what the provider says about a payment, once. Every change is a conditional update
   * in a transaction with its audit row; a caller that loses a race changes nothing.
   */
  private apply(
    reference: string,
    result: VerifyResult,
    source: 'verify' | 'webhook',
    actorUserId: number | null,
  ): Promise<VerifyResponse> {
    return this.repo.db.transaction().execute((trx) => this.applyIn(trx, reference, result, source, actorUserId));
  }

  private async applyIn(
    trx: Transaction<Database>,
    reference: string,
    result: VerifyResult,
    source: 'verify' | 'webhook',
    actorUserId: number | null,
  ): Promise<VerifyResponse> {
    const p = await this.repo.paymentByReference(trx, reference);
    if (!p) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    if (p.status === 'successful') return { status: 'success', message: PAYMENT_MESSAGES.verified, reference };

    if (result.status === 'success') {
      const mismatch =
        result.amountKobo !== p.amount_kobo ? 'amount_mismatch' : result.currency !== p.currency ? 'currency_mismatch' : null;
      if (mismatch) {
        // Money arrived, but not what this payment asked for: never credit it; someone must look.
        this.log?.error(
          { reference, expected: [p.amount_kobo, p.currency], got: [result.amountKobo, result.currency] },
          'payment mismatch',
        );
        if (await this.repo.transition(trx, reference, ['pending', 'abandoned'], 'failed', { provider_status: mismatch })) {
          await this.audit(
            trx,
            p,
            reference,
            p.status,
            'failed',
            { reason: mismatch, source, provider_amount_kobo: result.amountKobo, provider_currency: result.currency },
            actorUserId,
          );
        } else if (p.provider_status !== mismatch) {
          await this.repo.noteProviderStatus(trx, reference, mismatch);
        }
        return { status: 'failed', message: PAYMENT_MESSAGES.verificationFailed, reference };
      }
      const paidAt = result.paidAt ?? new Date().toISOString();
      const credited = await this.repo.transition(trx, reference, NOT_SUCCESSFUL, 'successful', {
        paid_at: paidAt,
        provider_transaction_id: result.transactionId,
        provider_status: result.providerStatus,
      });
      if (credited) {
        await this.audit(
          trx,
          p,
          reference,
          p.status,
          'successful',
          { source, amount_kobo: p.amount_kobo, currency: p.currency, paid_at: paidAt, provider_transaction_id: result.transactionId },
          actorUserId,
        );
      }
      return { status: 'success', message: PAYMENT_MESSAGES.verified, reference };
    }

    if (result.status === 'failed' || result.status === 'abandoned') {
      const to: PaymentStatus = result.status;
      if (await this.repo.transition(trx, reference, ['pending'], to, { provider_status: result.providerStatus })) {
        await this.audit(trx, p, reference, p.status, to, { source, provider_status: result.providerStatus }, actorUserId);
      }
      return {
        status: result.status,
        message: result.status === 'failed' ? PAYMENT_MESSAGES.declined : PAYMENT_MESSAGES.abandoned,
        reference,
      };
    }
    return { status: 'pending', message: PAYMENT_MESSAGES.pending, reference };
  }

  async verify(actor: Actor, reference: string): Promise<VerifyResponse> {
    const p = await this.repo.paymentByReference(this.repo.db, reference);
    if (!p) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    const own = await this.studentOf(actor);
    if (own && p.student_id !== own.id) throw forbidden(PAYMENT_MESSAGES.notYourRecord);
    if (p.status === 'successful') return { status: 'success', message: PAYMENT_MESSAGES.verified, reference };
    if (p.provider !== this.provider.name) {
      this.log?.warn({ reference, provider: p.provider }, 'payment made through another provider than the configured one');
      throw providerUnavailable();
    }
    let result: VerifyResult;
    try {
      result = await this.provider.verify(reference);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      // Nothing is decided: the payment stays pending and a later verify (or the webhook) settles it.
      this.log?.warn({ reference, kind: err.kind, err: err.message }, 'payment provider verify failed');
      throw providerUnavailable();
    }
    return this.apply(reference, result, 'verify', actor.id);
  }

  /** Paystack's signature: HMAC-SHA512 of the raw body with the secret key, hex; compared in constant time. */
  signatureValid(raw: Buffer, signature: string | undefined): boolean {
    const key = this.config.paystackSecretKey;
    if (!key || !signature || !/^[0-9a-f]+$/i.test(signature)) return false;
    const expected = createHmac('sha512', key).update(raw).digest();
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** POST /api/payments/webhook/: authenticated by its signature; each body processed once. */
  async webhook(raw: Buffer, signature: string | undefined): Promise<string> {
    if (!this.signatureValid(raw, signature)) throw unauthorized(PAYMENT_MESSAGES.invalidSignature);
    let body: { event?: unknown; data?: Record<string, unknown> };
    try {
      body = JSON.parse(raw.toString('utf8')) as typeof body;
    } catch {
      throw badRequest({ non_field_errors: [PAYMENT_MESSAGES.invalidSignature] });
    }
    const event = typeof body?.event === 'string' ? body.event : 'unknown';
    const data = body?.data && typeof body.data === 'object' ? body.data : {};
    const reference = typeof data.reference === 'string' ? data.reference : null;
    const bodyHash = createHash('sha256').update(raw).digest('hex');

    // One transaction: the body is recorded as seen together with what it changed, so a replay
    // finds it and a failure leaves it unseen for the provider's next delivery.
    return this.repo.db.transaction().execute(async (trx) => {
      if (!(await this.repo.recordWebhookEvent(trx, { bodyHash, event, reference }))) return 'replay';
      let outcome = 'ignored';
      if (event === 'charge.success' && reference) {
        const p = await this.repo.paymentByReference(trx, reference);
        if (!p) outcome = 'unknown_reference';
        else {
          const amount = Number(data.amount);
          const r = await this.applyIn(
            trx,
            reference,
            {
              status: mapPaystackStatus(typeof data.status === 'string' ? data.status : undefined),
              amountKobo: Number.isFinite(amount) ? amount : -1,
              currency: typeof data.currency === 'string' ? data.currency : '',
              paidAt: typeof data.paid_at === 'string' ? data.paid_at : null,
              transactionId: typeof data.id === 'number' || typeof data.id === 'string' ? String(data.id) : null,
              providerStatus: typeof data.status === 'string' ? data.status : 'unknown',
            },
            'webhook',
            null,
          );
          outcome = r.status;
        }
      }
      await this.repo.setWebhookOutcome(trx, bodyHash, outcome);
      return outcome;
    });
  }

  // ---------------------------------------------------------------- reading

  async history(actor: Actor, admissionNumber: string): Promise<Payment[]> {
    const own = await this.studentOf(actor);
    if (own && own.admission_number !== admissionNumber) throw forbidden(PAYMENT_MESSAGES.notYourRecord);
    return (await this.repo.history(admissionNumber)).map(presentPayment);
  }

  private async reportSession(sessionName: string | undefined) {
    if (sessionName) {
      const s = await this.repo.sessionByName(sessionName);
      if (!s) throw badRequest({ session: [PAYMENT_MESSAGES.sessionInvalid] });
      return s;
    }
    return (await this.repo.currentSession()) ?? null;
  }

  async classReport(studentClass: string, sessionName?: string): Promise<{ session: string | null; rows: ClassReportRow[] }> {
    const session = await this.reportSession(sessionName);
    const students = await this.repo.studentsOfClass(studentClass);
    const payments = await this.repo.paymentsOfStudents(
      students.map((s) => s.id),
      session?.name ?? null,
    );
    const dueKobo = session
      ? (await this.repo.feeSchedules({ sessionId: session.id, studentClass })).reduce((sum, f) => sum + f.amount_kobo, 0)
      : 0;
    const byStudent = new Map<number, typeof payments>();
    for (const p of payments) {
      if (p.student_id === null) continue;
      const list = byStudent.get(p.student_id) ?? [];
      list.push(p);
      byStudent.set(p.student_id, list);
    }
    const rows = students.map((s): ClassReportRow => {
      const list = byStudent.get(s.id) ?? [];
      const successful = list.filter((p) => p.status === 'successful');
      const pending = list.filter((p) => p.status === 'pending');
      const status: ReportPaymentStatus = successful.length ? 'successful' : pending.length ? 'pending' : 'unpaid';
      const last = successful.length
        ? [...successful].sort((a, b) => (b.paid_at ?? b.created_at).localeCompare(a.paid_at ?? a.created_at))[0]
        : pending[0];
      const paidKobo = successful.reduce((sum, p) => sum + p.amount_kobo, 0);
      return {
        admission_number: s.admission_number,
        full_name: `${s.first_name} ${s.last_name}`,
        current_class: s.student_class,
        payment_status: status,
        last_payment_amount: last ? koboToNaira(last.amount_kobo) : null,
        last_payment_date: last ? (last.status === 'successful' ? (last.paid_at ?? last.created_at) : last.created_at) : null,
        amount_due: koboToNaira(dueKobo),
        amount_paid: koboToNaira(paidKobo),
        outstanding: koboToNaira(Math.max(0, dueKobo - paidKobo)),
      };
    });
    return { session: session?.name ?? null, rows };
  }

  async classSummary(studentClass: string, sessionName?: string): Promise<ClassReportSummary> {
    const { session, rows } = await this.classReport(studentClass, sessionName);
    const sumKobo = (f: (r: ClassReportRow) => number) => rows.reduce((s, r) => s + Math.round(f(r) * 100), 0);
    return {
      class: studentClass,
      session,
      students: rows.length,
      paid: rows.filter((r) => r.payment_status === 'successful').length,
      pending: rows.filter((r) => r.payment_status === 'pending').length,
      unpaid: rows.filter((r) => r.payment_status === 'unpaid').length,
      amount_due: koboToNaira(sumKobo((r) => r.amount_due)),
      amount_paid: koboToNaira(sumKobo((r) => r.amount_paid)),
      outstanding: koboToNaira(sumKobo((r) => r.outstanding)),
    };
  }

  async context(actor: Actor): Promise<PaymentContext> {
    const sessions = await this.repo.sessions();
    const current = sessions.find((s) => s.is_current === 1) ?? sessions[0] ?? null;
    const out: PaymentContext = {
      sessions: sessions.map((s) => ({ id: s.id, name: s.name, is_current: s.is_current === 1 })),
      current_session: current?.name ?? null,
      student: null,
    };
    const own = await this.studentOf(actor);
    if (!own) return out;
    let dueKobo = 0;
    let paidKobo = 0;
    let term: Term | null = null;
    let suggestedKobo = 0;
    if (current) {
      const schedules = (await this.repo.feeSchedules({ sessionId: current.id, studentClass: own.student_class })).sort(
        (a, b) => TERM_VALUES.indexOf(a.term as Term) - TERM_VALUES.indexOf(b.term as Term),
      );
      paidKobo = await this.repo.paidKobo(own.id, current.name);
      // Payments settle the terms in order: the next payment is for the first term not yet covered.
      let cumulative = 0;
      for (const f of schedules) {
        cumulative += f.amount_kobo;
        if (term === null && cumulative > paidKobo) {
          term = f.term as Term;
          suggestedKobo = cumulative - paidKobo;
        }
      }
      dueKobo = cumulative;
    }
    out.student = {
      admission_number: own.admission_number,
      full_name: `${own.first_name} ${own.last_name}`,
      current_class: own.student_class,
      email: own.email,
      phone_number: own.phone_number || null,
      term,
      amount_due: koboToNaira(dueKobo),
      amount_paid: koboToNaira(paidKobo),
      outstanding: koboToNaira(Math.max(0, dueKobo - paidKobo)),
      suggested_amount: koboToNaira(suggestedKobo),
    };
    return out;
  }

  async receipt(actor: Actor, reference: string): Promise<Receipt> {
    const p = await this.repo.paymentByReference(this.repo.db, reference);
    if (!p) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    const own = await this.studentOf(actor);
    if (own && p.student_id !== own.id) throw forbidden(PAYMENT_MESSAGES.notYourRecord);
    if (p.status !== 'successful' || !p.paid_at) throw notFound(PAYMENT_MESSAGES.receiptNotAvailable);
    const school = await this.repo.school();
    return {
      reference: p.reference,
      admission_number: p.admission_number,
      full_name: p.full_name,
      current_class: p.current_class,
      current_session: p.current_session,
      term: (p.term as Term | null) ?? null,
      email: p.email,
      phone_number: p.phone_number,
      amount: koboToNaira(p.amount_kobo),
      currency: p.currency,
      status: p.status,
      paid_at: p.paid_at,
      provider: p.provider === 'paystack' ? 'Paystack' : 'Payment simulator',
      school: {
        name: school.school_name,
        address: school.address,
        phone: school.phone,
        email: school.email,
        motto: school.motto,
        time_zone: school.time_zone,
      },
    };
  }

  // ---------------------------------------------------------------- fee schedules

  async feeSchedules(filter: { sessionId?: number; studentClass?: string }): Promise<FeeSchedule[]> {
    return (await this.repo.feeSchedules(filter)).map((f) => ({
      id: f.id,
      student_class: f.student_class,
      session_id: f.session_id,
      session: f.session,
      term: f.term as Term,
      amount: koboToNaira(f.amount_kobo),
      description: f.description,
      updated_at: f.updated_at,
    }));
  }

  private async oneFeeSchedule(id: number): Promise<FeeSchedule> {
    const list = await this.repo.feeSchedules({});
    const f = list.find((x) => x.id === id);
    if (!f) throw notFound(PAYMENT_MESSAGES.feeScheduleNotFound);
    return {
      id: f.id,
      student_class: f.student_class,
      session_id: f.session_id,
      session: f.session,
      term: f.term as Term,
      amount: koboToNaira(f.amount_kobo),
      description: f.description,
      updated_at: f.updated_at,
    };
  }

  async createFeeSchedule(
    actor: Actor,
    input: { student_class: string; session_id: number; term: Term; amount: number; description: string },
  ): Promise<FeeSchedule> {
    if (!(CLASSES as readonly string[]).includes(input.student_class)) throw badRequest({ student_class: [PAYMENT_MESSAGES.classInvalid] });
    if (!(await this.repo.sessionById(input.session_id))) throw badRequest({ session_id: [PAYMENT_MESSAGES.sessionInvalid] });
    const id = await this.repo.db.transaction().execute(async (trx) => {
      const newId = await this.repo.insertFeeSchedule(trx, {
        student_class: input.student_class,
        session_id: input.session_id,
        term: input.term,
        amount_kobo: input.amount,
        description: input.description,
      });
      if (newId === null) return null;
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'fee_schedule.create',
        entity: 'fee_schedule',
        entityId: newId,
        after: { ...input, amount_kobo: input.amount },
      });
      return newId;
    });
    if (id === null) throw conflict(PAYMENT_MESSAGES.feeScheduleExists);
    return this.oneFeeSchedule(id);
  }

  async updateFeeSchedule(actor: Actor, id: number, input: { amount: number; description: string }): Promise<FeeSchedule> {
    await this.repo.db.transaction().execute(async (trx) => {
      const before = await this.repo.feeScheduleById(trx, id);
      if (!before) throw notFound(PAYMENT_MESSAGES.feeScheduleNotFound);
      await this.repo.updateFeeSchedule(trx, id, { amount_kobo: input.amount, description: input.description });
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'fee_schedule.update',
        entity: 'fee_schedule',
        entityId: id,
        before: { amount_kobo: before.amount_kobo, description: before.description },
        after: { amount_kobo: input.amount, description: input.description },
      });
    });
    return this.oneFeeSchedule(id);
  }

  async deleteFeeSchedule(actor: Actor, id: number): Promise<void> {
    await this.repo.db.transaction().execute(async (trx) => {
      const before = await this.repo.feeScheduleById(trx, id);
      if (!before) throw notFound(PAYMENT_MESSAGES.feeScheduleNotFound);
      await this.repo.deleteFeeSchedule(trx, id);
      await writeAudit(trx, { actorUserId: actor.id, action: 'fee_schedule.delete', entity: 'fee_schedule', entityId: id, before });
    });
  }
}

// One file (about 400 lines): one class, the online checkout (initiate, verify, the provider's webhook
// and its signature, the simulator), whose steps share the payment row's states.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  ONLINE_PAYMENT_MESSAGES,
  todayIn,
  ONLINE_PAYMENT_OFF_CODE,
  FEE_MESSAGES,
  PAYMENT_CURRENCY,
  PAYMENT_MESSAGES,
  formatNaira,
  koboToNaira,
  paymentWarning,
  termLabel,
  type InitiatePayment,
  type InitiateResponse,
  type PaymentProviderInfo,
  type PaystackWebhookOutcome,
  type PaymentStatus,
  type SimulatorCheckout,
  type SimulatorOutcome,
  type VerifyResponse,
} from '@portal/domain';
import type { Config } from '../../config';
import type { Trx } from '../../db/index';
import { badRequest, HttpError, notFound, unauthorized } from '../../http/errors';
import { writeAudit } from '../../db/audit';
import { nextReceiptNumber } from './bursary.service';
import type { SessionsService } from '../calendar/sessions.service';
import type { SettingsService } from '../settings/settings.service';
import { standingWithArrears, type BroughtForwardOf, type FeesService } from './fees.service';
import { ProviderError, SimulatorProvider, simulatorReturnUrl, type PaymentProvider, type VerifyResult } from './payments.providers';
import type { PaymentRow, PaymentsRepository } from './payments.repository';
import { notOwnRecord, type AccessScope, type ScopeActor as Actor } from '../access/scope.service';
import { inTransaction } from '../../db/index';
import { recordPaymentNotice } from './payment-notice';

const providerUnavailable = () => new HttpError(503, { detail: PAYMENT_MESSAGES.providerUnavailable });
/** Online payment is off (production without a provider key): nothing is stored, the screens say where to pay. */
const paymentsOff = () => new HttpError(503, { detail: ONLINE_PAYMENT_MESSAGES.off, code: ONLINE_PAYMENT_OFF_CODE });

const NOT_SUCCESSFUL: readonly PaymentStatus[] = ['pending', 'failed', 'abandoned'];

/**
 * Taking a payment: initiate (a pending row before the provider hears of it), verify and the
 * provider's webhook (each applies the provider's answer once, with its audit row), and the
 * built-in simulator's checkout.
 */
export class CheckoutService {
  constructor(
    private readonly repo: PaymentsRepository,
    readonly provider: PaymentProvider,
    private readonly config: Pick<Config, 'publicUrl' | 'paystackSecretKey'>,
    private readonly fees: FeesService,
    private readonly sessions: SessionsService,
    private readonly settings: SettingsService,
    private readonly scope: AccessScope,
    private readonly log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>,
    /** The balance brought forward (decision 041): payable online like any fee. */
    private readonly broughtForward?: BroughtForwardOf,
  ) {}

  /** GET /api/payments/provider/: what the payment screens need to know before offering to pay. */
  providerInfo(): PaymentProviderInfo {
    const name = this.provider.name;
    return name === 'off'
      ? { online_payment: false, provider: null, message: ONLINE_PAYMENT_MESSAGES.off }
      : { online_payment: true, provider: name, message: null };
  }

  async initiate(actor: Actor, input: InitiatePayment, origin: string): Promise<InitiateResponse> {
    if (this.provider.name === 'off') throw paymentsOff();
    // A student pays only for themselves; staff (the bursary) for any student.
    const student = await this.scope.studentFor(actor, input.admission_number, {
      purpose: 'records',
      otherwise: 'refuse',
      unknown: () => badRequest({ admission_number: [PAYMENT_MESSAGES.studentNotFound] }),
    });
    const session = await this.sessions.byName(input.current_session);
    if (!session) throw badRequest({ current_session: [PAYMENT_MESSAGES.sessionInvalid] });
    await this.fees.checkClasses([input.current_class], 'current_class');
    if (!input.confirm) await this.refuseUnconfirmedOverpayment(student, session, input);

    const reference = `FEES-${Date.now().toString(36).toUpperCase()}-${randomBytes(6).toString('hex').toUpperCase()}`;
    // The pending payment exists before the provider hears of it: whatever happens next, it is on record.
    const payment = await inTransaction(this.repo.db, async (trx) => {
      const row = await this.repo.insertPayment(trx, {
        reference,
        student_id: student.id,
        admission_number: student.admission_number,
        full_name: input.full_name,
        current_class: input.current_class,
        current_session: session.name,
        session_id: session.id,
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
      await inTransaction(this.repo.db, async (trx) => {
        if (await this.repo.transition(trx, reference, ['pending'], 'failed', { provider_status: `initialize_${err.kind}` })) {
          await this.audit(trx, null, reference, 'pending', 'failed', { reason: `initialize_${err.kind}` }, actor.id);
        }
      });
      throw providerUnavailable();
    }
  }

  /**
   * A term already paid in full, or more than the outstanding balance, needs the
   * payer's explicit `confirm: true`; without it a 409 says why (`code`, and the balance in naira).
   */
  private async refuseUnconfirmedOverpayment(
    student: { id: number; student_class: string },
    session: { id: number; name: string },
    input: InitiatePayment,
  ): Promise<void> {
    const [dues, paidKobo, carried] = await Promise.all([
      this.fees.studentDues(session.id, [student]),
      this.repo.paidKobo(student.id, session.id),
      this.broughtForward ? this.broughtForward(session, [student]) : null,
    ]);
    const standing = standingWithArrears(dues.get(student.id)?.due ?? {}, paidKobo, carried?.kobo.get(student.id) ?? 0);
    const warning = paymentWarning(standing.session, standing.terms, input.amount, input.term);
    if (!warning) return;
    const detail =
      warning === 'term_already_paid'
        ? FEE_MESSAGES.termAlreadyPaid(termLabel(input.term ?? ''))
        : standing.session.balance === 0
          ? FEE_MESSAGES.nothingOutstanding
          : FEE_MESSAGES.exceedsBalance(formatNaira(koboToNaira(input.amount)), formatNaira(koboToNaira(standing.session.balance)));
    throw new HttpError(409, { detail, code: warning, balance: koboToNaira(standing.session.balance) });
  }

  // ---------------------------------------------------------------- verify and webhook

  private async audit(
    trx: Trx,
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
    return inTransaction(this.repo.db, (trx) => this.applyIn(trx, reference, result, source, actorUserId));
  }

  private async applyIn(
    trx: Trx,
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
        // Numbered in the same transaction as the credit: the transition is won once, so the number is given once.
        const receipt = await nextReceiptNumber(trx);
        const timeZone = await this.settings.timeZoneIn(trx);
        const paidOn = todayIn(timeZone, new Date(paidAt));
        await this.repo.setReceipt(trx, reference, receipt, paidOn);
        await recordPaymentNotice(trx, {
          id: p.id,
          student_id: p.student_id,
          receipt_number: receipt,
          amount_kobo: p.amount_kobo,
          session: p.current_session,
          term: p.term,
          paid_on: paidOn,
        });
        await this.audit(
          trx,
          p,
          reference,
          p.status,
          'successful',
          {
            source,
            amount_kobo: p.amount_kobo,
            currency: p.currency,
            paid_at: paidAt,
            provider_transaction_id: result.transactionId,
            receipt_number: receipt,
          },
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
    await this.scope.assertReachesStudent(actor, { id: p.student_id }, 'records');
    if (p.status === 'successful') return { status: 'success', message: PAYMENT_MESSAGES.verified, reference };
    if (p.provider !== this.provider.name) {
      this.log?.warn({ reference, provider: p.provider }, 'payment made through another provider than the configured one');
      throw providerUnavailable();
    }
    const result = await this.askProvider(reference, 'payment provider verify failed');
    return this.apply(reference, result, 'verify', actor.id);
  }

  /**
   * The provider's own record of a payment. When the provider cannot be asked, `failure` is logged
   * and the caller answers 503: nothing is decided, the payment stays pending and a later verify
   * (or the webhook's redelivery) settles it.
   */
  private async askProvider(reference: string, failure: string): Promise<VerifyResult> {
    try {
      return await this.provider.verify(reference);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      this.log?.warn({ reference, kind: err.kind, err: err.message }, failure);
      throw providerUnavailable();
    }
  }

  /** Paystack's signature: HMAC-SHA512 of the raw body with the secret key, hex; compared in constant time. */
  signatureValid(raw: Buffer, signature: string | undefined): boolean {
    const key = this.config.paystackSecretKey;
    if (!key || !signature || !/^[0-9a-f]+$/i.test(signature)) return false;
    const expected = createHmac('sha512', key).update(raw).digest();
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /**
   * POST /api/payments/webhook/: authenticated by its signature; each body processed once.
   * A signature proves who sent the event, not that the money arrived: a
   * `charge.success` only makes us ask the provider's verify call, and only its answer (status,
   * amount, currency) is applied, exactly as when the payer returns. The call is made before the
   * transaction (no network wait while holding the write lock); if the provider cannot be asked, or
   * its record is not final yet, the event is left unseen and a 503 makes the provider deliver it again.
   */
  async webhook(raw: Buffer, signature: string | undefined): Promise<PaystackWebhookOutcome> {
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

    let confirmed: VerifyResult | null = null;
    let outcome: PaystackWebhookOutcome = 'ignored';
    if (event === 'charge.success' && reference && !(await this.repo.webhookEventSeen(bodyHash))) {
      const p = await this.repo.paymentByReference(this.repo.db, reference);
      if (!p) outcome = 'unknown_reference';
      else if (p.status === 'successful') outcome = 'success';
      else if (p.provider !== this.provider.name) outcome = 'other_provider';
      else {
        confirmed = await this.askProvider(reference, 'payment provider verify failed (webhook)');
        if (confirmed.status !== 'success') {
          // The event claims a success the provider's own record does not show: nothing is credited.
          this.log?.warn({ reference, provider_status: confirmed.providerStatus }, 'webhook success not confirmed by verify');
        }
        // Not final yet at the provider: the event stays unseen and the provider's redelivery asks again.
        if (confirmed.status === 'pending') throw providerUnavailable();
      }
    }

    // One transaction: the body is recorded as seen together with what it changed, so a replay
    // finds it and a failure leaves it unseen for the provider's next delivery.
    return inTransaction(this.repo.db, async (trx) => {
      if (!(await this.repo.recordWebhookEvent(trx, { bodyHash, event, reference }))) return 'replay';
      if (confirmed && reference) outcome = (await this.applyIn(trx, reference, confirmed, 'webhook', null)).status;
      await this.repo.setWebhookOutcome(trx, bodyHash, outcome);
      return outcome;
    });
  }

  // ---------------------------------------------------------------- simulator checkout

  /**
   * The simulator's checkout behind the same guard as every route: only the student the
   * payment is for, the user who started it (staff at the bursary) or an admin sees or completes it.
   * Others get 404 for unknown codes and 403 for someone else's payment.
   */
  private async simulatorTransaction(actor: Actor, code: string) {
    const simulator = this.provider instanceof SimulatorProvider ? this.provider : null;
    const tx = simulator ? await simulator.findByAccessCode(code) : undefined;
    if (!simulator || !tx) throw notFound(ONLINE_PAYMENT_MESSAGES.checkoutNotFound);
    const p = await this.repo.paymentByReference(this.repo.db, tx.reference);
    if (!p) throw notFound(ONLINE_PAYMENT_MESSAGES.checkoutNotFound);
    // Not the scope's `records` (staff reach every student): a checkout is its payer's and its starter's.
    if (actor.role !== 'admin' && p.initiated_by !== actor.id) {
      if (actor.role !== 'student' || !(await this.scope.reachesStudent(actor, { id: p.student_id }, 'records'))) throw notOwnRecord();
    }
    return { simulator, tx, p };
  }

  async simulatorCheckout(actor: Actor, code: string): Promise<SimulatorCheckout> {
    const { tx } = await this.simulatorTransaction(actor, code);
    return {
      merchant: (await this.settings.get()).school_name,
      amount: koboToNaira(tx.amount_kobo),
      email: tx.email,
      reference: tx.reference,
      status: tx.status,
      return_url: simulatorReturnUrl(tx),
    };
  }

  /** Records the payer's choice once (a second one changes nothing), audited; verify then reads it. */
  async completeSimulator(actor: Actor, code: string, outcome: SimulatorOutcome): Promise<SimulatorCheckout> {
    const { simulator, tx, p } = await this.simulatorTransaction(actor, code);
    if (await simulator.complete(tx.access_code, outcome)) {
      // No code or reference in the log: the payment's id is enough to find it.
      this.log?.info({ event: 'simulator_checkout', paymentId: p.id, outcome, userId: actor.id }, 'simulator checkout completed');
    }
    return this.simulatorCheckout(actor, code);
  }
}

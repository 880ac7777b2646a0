import {
  PAYMENT_MESSAGES,
  koboToNaira,
  nextTermDue,
  sumNaira,
  type ClassReportRow,
  type ClassReportSummary,
  type Payment,
  type PaymentContext,
  type Receipt,
  type ReportPaymentStatus,
  type Term,
  personName,
} from '@portal/domain';
import { badRequest, notFound } from '../../http/errors';
import type { SessionsService } from '../calendar/sessions.service';
import type { SettingsService } from '../settings/settings.service';
import type { DiscountsService } from './discounts.service';
import { presentTerm, standingOf, standingWithArrears, type BroughtForwardOf, type FeesService, type StudentDues } from './fees.service';
import { presentPayment, presentReceipt } from './payments.presenters';
import type { PaymentsRepository } from './payments.repository';
import type { AccessScope, ScopeActor as Actor } from '../access/scope.service';

/** What the payment screens read: a student's history, the class report and summary, the payment form's context, receipts. */
export class PaymentReportsService {
  constructor(
    private readonly repo: PaymentsRepository,
    private readonly fees: FeesService,
    private readonly sessions: SessionsService,
    private readonly settings: SettingsService,
    private readonly discounts: DiscountsService,
    private readonly scope: AccessScope,
    /** The balance brought forward (decision 041); none when not given. */
    private readonly broughtForward: BroughtForwardOf = (_s, students) =>
      Promise.resolve({ from: null, kobo: new Map(students.map((x) => [x.id, 0])) }),
  ) {}

  async history(actor: Actor, admissionNumber: string): Promise<Payment[]> {
    await this.scope.assertReachesStudent(actor, { admission_number: admissionNumber }, 'records');
    return (await this.repo.history(admissionNumber)).map(presentPayment);
  }

  private async reportSession(sessionName: string | undefined) {
    if (sessionName) {
      const s = await this.sessions.byName(sessionName);
      if (!s) throw badRequest({ session: [PAYMENT_MESSAGES.sessionInvalid] });
      return s;
    }
    return (await this.sessions.currentOrLatest()) ?? null;
  }

  /**
   * Each student's status follows what was paid against the compulsory fees
   * due for the session, or for one term when `term` is given (payments settle terms in order).
   * `payment_status` keeps the spec's values: successful only when paid in full.
   */
  async classReport(
    arm: string,
    sessionName?: string,
    term?: Term,
  ): Promise<{ session: string | null; term: Term | null; rows: ClassReportRow[] }> {
    const session = await this.reportSession(sessionName);
    const students = await this.repo.studentsOfClass(arm, session?.id ?? null);
    const payments = await this.repo.paymentsOfStudents(
      students.map((s) => s.id),
      session?.id ?? null,
    );
    const dues = session ? await this.fees.studentDues(session.id, students) : new Map<number, StudentDues>();
    const carried = session ? (await this.broughtForward(session, students)).kobo : new Map<number, number>();
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
      const paidKobo = successful.reduce((sum, p) => sum + p.amount_kobo, 0);
      const standing = standingWithArrears(dues.get(s.id)?.due ?? {}, paidKobo, carried.get(s.id) ?? 0);
      const focus = term ? (standing.terms.find((t) => t.term === term) ?? standingOf({}, 0).session) : standing.session;
      const status: ReportPaymentStatus = focus.status === 'paid' ? 'successful' : pending.length ? 'pending' : 'unpaid';
      // The last money received: a reversal is not a payment.
      const received = successful.filter((p) => p.amount_kobo > 0);
      const last = received.length
        ? [...received].sort((a, b) => (b.paid_at ?? b.created_at).localeCompare(a.paid_at ?? a.created_at))[0]
        : pending[0];
      return {
        admission_number: s.admission_number,
        full_name: personName(s),
        current_class: s.student_class,
        payment_status: status,
        last_payment_amount: last ? koboToNaira(last.amount_kobo) : null,
        last_payment_date: last ? (last.status === 'successful' ? (last.paid_at ?? last.created_at) : last.created_at) : null,
        amount_due: koboToNaira(focus.due),
        amount_paid: koboToNaira(focus.paid),
        outstanding: koboToNaira(focus.balance),
        status: focus.status,
        balance: koboToNaira(focus.balance),
        terms: standing.terms.map(presentTerm),
      };
    });
    return { session: session?.name ?? null, term: term ?? null, rows };
  }

  async classSummary(arm: string, sessionName?: string, term?: Term): Promise<ClassReportSummary> {
    const { session, rows } = await this.classReport(arm, sessionName, term);
    return {
      class: arm,
      session,
      term: term ?? null,
      students: rows.length,
      paid: rows.filter((r) => r.status === 'paid').length,
      part_paid: rows.filter((r) => r.status === 'part_paid').length,
      pending: rows.filter((r) => r.payment_status === 'pending').length,
      unpaid: rows.filter((r) => r.status === 'unpaid').length,
      amount_due: sumNaira(rows, (r) => r.amount_due),
      amount_paid: sumNaira(rows, (r) => r.amount_paid),
      outstanding: sumNaira(rows, (r) => r.outstanding),
    };
  }

  async context(actor: Actor): Promise<PaymentContext> {
    const sessions = await this.sessions.list();
    const current = sessions.find((s) => s.is_current) ?? sessions[0] ?? null;
    const out: PaymentContext = {
      sessions,
      current_session: current?.name ?? null,
      student: null,
    };
    const own = await this.scope.ownStudent(actor);
    if (!own) return out;
    const [paidKobo, { dues, shares }, carried] = await Promise.all([
      current ? this.repo.paidKobo(own.id, current.id) : 0,
      current ? this.discounts.sharesOf(current.id, own) : { dues: undefined, shares: [] },
      current ? this.broughtForward(current, [own]) : null,
    ]);
    const broughtForward = carried?.kobo.get(own.id) ?? 0;
    const standing = standingWithArrears(dues?.due ?? {}, paidKobo, broughtForward);
    // Payments settle the arrears, then the terms in order: the next payment is for what is left of the
    // arrears and the first term not yet paid in full.
    const next = nextTermDue(standing.terms);
    out.student = {
      admission_number: own.admission_number,
      full_name: personName(own),
      current_class: own.student_class,
      // '' when the student has none: the payer types theirs on the payment form.
      email: own.email ?? '',
      phone_number: own.phone_number || null,
      term: next?.term ?? null,
      amount_due: koboToNaira(standing.session.due),
      amount_paid: koboToNaira(paidKobo),
      outstanding: koboToNaira(standing.session.balance),
      suggested_amount: koboToNaira(standing.arrears + (next?.amount ?? 0)),
      brought_forward: koboToNaira(broughtForward),
      brought_forward_from: broughtForward !== 0 ? (carried?.from?.name ?? null) : null,
      status: standing.session.status,
      terms: standing.terms.map(presentTerm),
      items: current ? await this.fees.list({ sessionId: current.id, arm: own.student_class }) : [],
      discounts: shares.filter((d) => d.kobo > 0).map((d) => ({ label: d.label, amount: koboToNaira(d.kobo) })),
    };
    return out;
  }

  async receipt(actor: Actor, reference: string): Promise<Receipt> {
    const p = await this.repo.paymentByReference(this.repo.db, reference);
    if (!p) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    await this.scope.assertReachesStudent(actor, { id: p.student_id }, 'records');
    if (p.status !== 'successful' || !p.paid_at) throw notFound(PAYMENT_MESSAGES.receiptNotAvailable);
    const [school, record, session] = await Promise.all([
      this.settings.get(),
      p.student_id === null ? undefined : this.repo.studentRecord(p.student_id),
      p.session_id === null ? undefined : this.sessions.byId(p.session_id),
    ]);
    // The session as it is named now (a renamed session's payments follow it).
    const receipt = presentReceipt({ ...p, current_session: session?.name ?? p.current_session, paid_at: p.paid_at }, record, school);
    if (p.student_id === null || !record || !session) return receipt;
    // The session's discounts and what the student owed once this payment (and every one credited before it) counted.
    const payer = { id: p.student_id, student_class: record.student_class };
    const [{ dues, shares }, paidKobo, carried] = await Promise.all([
      this.discounts.sharesOf(session.id, payer),
      this.repo.paidKoboUpTo(p.student_id, session.id, { receiptNumber: p.receipt_number, id: p.id }),
      this.broughtForward(session, [payer]),
    ]);
    return {
      ...receipt,
      discounts: shares.filter((d) => d.kobo > 0).map((d) => ({ label: d.label, amount: koboToNaira(d.kobo) })),
      balance_after: koboToNaira(standingWithArrears(dues?.due ?? {}, paidKobo, carried.kobo.get(payer.id) ?? 0).session.balance),
    };
  }
}

import {
  ARREARS_MESSAGES,
  BANK_REFERENCE_MESSAGES,
  BURSARY_MESSAGES,
  PAYMENT_MESSAGES,
  PAYMENT_METHOD_LABELS,
  TERM_VALUES,
  allocatePayments,
  currentTermOf,
  fallsDueOn,
  isDue,
  koboToNaira,
  personName,
  statementLines,
  withTerm,
  type Statement,
  type Term,
} from '@portal/domain';
import type { AuthUser } from '../../http/auth';
import { badRequest } from '../../http/errors';
import type { SessionsService } from '../calendar/sessions.service';
import type { BursaryRepository } from './bursary.repository';
import { paidOnOf } from './bursary.presenters';
import type { DiscountsService } from './discounts.service';
import { datedItemsOf, type FeeCalendar, type FeesService } from './fees.service';
import { outOfScope, type AccessScope } from '../access/scope.service';
import type { PeopleService } from '../people/people.service';
import type { ArrearsService } from './arrears.service';

type Actor = Pick<AuthUser, 'id' | 'role' | 'capable'>;

/**
 * A student's statement of account for a session: the compulsory charges of their class, each dated
 * the day it falls due (fees-due.ts: the item's due date, else its term's start, else the day it was
 * set), then payments and reversals by the day paid; the student's discounts are credits beside the
 * charges they reduce. Charges (and their discounts) not yet due by the school's today are listed as
 * upcoming, outside the balance. The closing balance equals the rule's due (discounts applied) −
 * paid (negative = credit), tested.
 */
export class StatementService {
  constructor(
    private readonly scope: AccessScope,
    private readonly bursaryRepo: BursaryRepository,
    private readonly fees: FeesService,
    private readonly sessions: SessionsService,
    private readonly calendar: FeeCalendar,
    private readonly discounts: DiscountsService,
    private readonly people: PeopleService,
    private readonly arrears: ArrearsService,
  ) {}

  async statement(actor: Actor, q: { admission_number?: string; session_id?: number }): Promise<Statement> {
    // Staff need the bursar capability, which the route's guard already checked with the account
    // (`capable`): the scope's `statement` reaches nobody without it.
    if ((await this.scope.scopeOf(actor, 'statement')).kind === 'none') throw outOfScope(actor, 'statement');
    // Independent lookups run together: each is a round trip on PostgreSQL.
    const [found, session] = await Promise.all([
      // The student reads their own, whatever admission number they send (`otherwise: 'own'`).
      this.scope.studentFor(actor, q.admission_number, {
        purpose: 'statement',
        otherwise: 'own',
        unknown: () => badRequest({ admission_number: [PAYMENT_MESSAGES.studentNotFound] }),
      }),
      q.session_id !== undefined ? this.sessions.byId(q.session_id) : this.sessions.currentOrLatest(),
    ]);
    if (!found) throw badRequest({ admission_number: [PAYMENT_MESSAGES.studentNotFound] });
    if (!session) throw badRequest({ session_id: [PAYMENT_MESSAGES.sessionInvalid] });
    // The arm the student was in that session (decision 038): a past session's charges stay its own.
    const student = await this.people.asInSession(session.id, found);

    const [items, starts, today, rows, { dues, shares }, carried] = await Promise.all([
      this.fees.compulsoryItems(session.id, student.student_class),
      this.calendar.termStarts(session),
      this.calendar.today(),
      this.bursaryRepo.statementEntries(student.id, session.id),
      this.discounts.sharesOf(session.id, student),
      this.arrears.broughtForward(session, [student]),
    ]);
    const broughtForward = carried.kobo.get(student.id) ?? 0;
    const termOrder = (t: string) => TERM_VALUES.indexOf(t as (typeof TERM_VALUES)[number]);
    const charges = [...items]
      .sort((a, b) => termOrder(a.term) - termOrder(b.term))
      .map((i) => {
        const date = fallsDueOn({ term: i.term, due_on: i.due_on, set_on: i.created_at }, starts);
        return {
          date,
          description: withTerm(i.name, i.term),
          term: i.term,
          kobo: i.kobo,
          upcoming: !isDue({ term: i.term, falls_due_on: date }, today),
        };
      });
    // A discount is a credit against the charges it reduces, dated (and due) like them; a whole-session one names the term.
    const dueDateOf = new Map(datedItemsOf(dues, starts).map((i) => [`${i.term}|${i.name_key}`, i.falls_due_on]));
    const discounts = TERM_VALUES.flatMap((term) =>
      shares.flatMap((d) => {
        const byDate = new Map<string, number>();
        for (const t of dues?.takes ?? []) {
          if (t.discount_id !== d.id || t.term !== term) continue;
          const date = dueDateOf.get(`${t.term}|${t.name_key}`) ?? starts[term] ?? '';
          byDate.set(date, (byDate.get(date) ?? 0) + t.kobo);
        }
        return [...byDate].map(([date, kobo]) => ({
          date,
          description: d.term ? d.label : withTerm(d.label, term),
          term,
          kobo,
          upcoming: !isDue({ term, falls_due_on: date }, today),
        }));
      }),
    );
    const ledger = rows.map((r) => {
      const kind = r.reversal_of !== null ? ('reversal' as const) : ('payment' as const);
      const receipt = r.receipt_number ?? '';
      return {
        date: paidOnOf(r),
        description:
          kind === 'reversal'
            ? BURSARY_MESSAGES.reversed(r.orig_receipt_number ?? '') + (r.reason ? ` ${r.reason}` : '')
            : `${PAYMENT_METHOD_LABELS[r.method]} ${receipt}` +
              (r.replaces_receipt_number ? ` (${BANK_REFERENCE_MESSAGES.replaces(r.replaces_receipt_number)})` : ''),
        term: (r.term as Term | null) ?? null,
        kobo: r.amount_kobo,
        receipt_number: receipt,
        kind,
      };
    });
    const { lines, balance_kobo } = statementLines(
      charges,
      ledger,
      discounts,
      carried.from && broughtForward !== 0
        ? { date: starts['1st'] ?? today, description: ARREARS_MESSAGES.broughtForward(carried.from.name), kobo: broughtForward }
        : null,
    );
    // The money that stands (a reversed payment and its reversal drop out), in the order paid, settles
    // the arrears and each term's charges after discounts (decision 041).
    const reversed = new Set(rows.flatMap((r) => (r.reversal_of !== null ? [Number(r.reversal_of)] : [])));
    const standing = rows
      .filter((r) => r.reversal_of === null && !reversed.has(Number(r.id)) && r.amount_kobo > 0)
      .map((r) => ({ date: paidOnOf(r), receipt: r.receipt_number ?? '', r }))
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.receipt < b.receipt ? -1 : a.receipt > b.receipt ? 1 : 0));
    const allocation = allocatePayments(
      broughtForward,
      dues?.due ?? {},
      standing.map(({ r }) => ({
        kobo: r.amount_kobo,
        term: (r.term as Term | null) ?? null,
        allocation: r.allocation ?? 'arrears_first',
      })),
      currentTermOf(starts, today),
    );
    const sum = (list: readonly { kobo: number; upcoming: boolean }[], upcoming: boolean) =>
      list.reduce((s, c) => s + (c.upcoming === upcoming ? c.kobo : 0), 0);
    const chargedKobo = sum(charges, false);
    const discountKobo = sum(discounts, false);
    const paidKobo = ledger.reduce((s, e) => s + e.kobo, 0);
    return {
      admission_number: student.admission_number,
      full_name: personName(student),
      student_class: student.student_class,
      session_id: session.id,
      session: session.name,
      // The domain's lines as they are, their kobo amounts in naira.
      lines: lines.map(({ debit_kobo, credit_kobo, balance_kobo: running, ...line }) => ({
        ...line,
        debit: koboToNaira(debit_kobo),
        credit: koboToNaira(credit_kobo),
        balance: koboToNaira(running),
      })),
      charged: koboToNaira(chargedKobo),
      discounts: koboToNaira(discountKobo),
      paid: koboToNaira(paidKobo),
      balance: koboToNaira(balance_kobo),
      upcoming: koboToNaira(sum(charges, true) - sum(discounts, true)),
      as_of: today,
      brought_forward: koboToNaira(broughtForward),
      brought_forward_from: broughtForward !== 0 ? (carried.from?.name ?? null) : null,
      arrears: {
        charged: koboToNaira(allocation.arrears.charged),
        paid: koboToNaira(allocation.arrears.paid),
        outstanding: koboToNaira(allocation.arrears.outstanding),
      },
      terms: allocation.terms.map((t) => ({
        term: t.term,
        charged: koboToNaira(t.charged),
        paid: koboToNaira(t.paid),
        outstanding: koboToNaira(t.outstanding),
      })),
    };
  }
}

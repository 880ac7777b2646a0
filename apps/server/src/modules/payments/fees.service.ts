// One file (about 450 lines): one job, what students owe: the fee items' service (list, create, update,
// bulk, copy) with the dues rule's reads (discounts, calendar); its presenters are a few lines each.
import {
  FEE_MESSAGES,
  allocatePayments,
  currentTermOf,
  isDue,
  PAYMENT_MESSAGES,
  TERM_VALUES,
  defaultFeeItemName,
  discountedDues,
  fallsDueOn,
  feeBalance,
  feeItemKey,
  koboToNaira,
  owedAsOf,
  termBalances,
  termLabel,
  termStartsOf,
  type FeeBalance,
  type FeeItem,
  type FeeItemCreate,
  type FeeItemUpdate,
  type FeeItemsBulk,
  type FeeItemsBulkResult,
  type FeeItemsCopy,
  type FeeItemsCopyResult,
  increasedFeeKobo,
  type DiscountBasis,
  type DatedItem,
  type DiscountTake,
  type DueItem,
  type Term,
  type TermStarts,
  type TermBalance,
  type TermFees,
  withBroughtForward,
} from '@portal/domain';
import type { AuthUser } from '../../http/auth';
import { badRequest, conflict, notFound } from '../../http/errors';
import { writeAudit, type AuditEntry } from '../../db/audit';
import { ROWS_PER_SLICE, yieldToEventLoop } from '../../lib/yield';
import type { CalendarService } from '../calendar/calendar.service';
import type { SessionsService } from '../calendar/sessions.service';
import type { TeachingService } from '../teaching/teaching.service';
import type { PaymentsRepository } from './payments.repository';
import { inTransaction, type Conn, type Trx } from '../../db/index';

/** The balance brought forward into a session for some students (decision 041; `ArrearsService` computes it). */
export interface BroughtForward {
  /** The session just before (by the calendar's order), null when there is none. */
  from: { id: number; name: string } | null;
  /** Kobo per student asked for: positive = arrears, negative = credit, 0 when square. */
  kobo: Map<number, number>;
}

/** The balance brought forward into a session for these students (decision 041): `ArrearsService.broughtForward`. */
export type BroughtForwardOf = (
  session: { id: number },
  students: readonly { id: number; student_class: string }[],
) => Promise<BroughtForward>;

type Actor = Pick<AuthUser, 'id' | 'role'>;
type ItemRow = Awaited<ReturnType<PaymentsRepository['feeItems']>>[number];

/**
 * The audit row of a changed fee item, for an edit and for the bulk set alike: the fields an edit
 * can change as they were, and the values written.
 */
function feeItemUpdateAudit(
  actor: Actor,
  before: Pick<ItemRow, 'id' | 'amount_kobo' | 'description' | 'name' | 'compulsory' | 'due_on'>,
  after: object,
): AuditEntry {
  return {
    actorUserId: actor.id,
    action: 'fee_schedule.update',
    entity: 'fee_schedule',
    entityId: before.id,
    before: {
      amount_kobo: before.amount_kobo,
      description: before.description,
      name: before.name,
      compulsory: before.compulsory,
      due_on: before.due_on ?? null,
    },
    after,
  };
}

export function presentFeeItem(f: ItemRow): FeeItem {
  return {
    id: f.id,
    student_class: f.student_class,
    session_id: f.session_id,
    session: f.session,
    term: f.term as Term,
    name: f.name,
    amount: koboToNaira(f.amount_kobo),
    compulsory: f.compulsory === 1,
    description: f.description,
    due_on: f.due_on ?? null,
    updated_at: f.updated_at,
  };
}

export function presentTerm(t: TermBalance): TermFees {
  return {
    term: t.term,
    amount_due: koboToNaira(t.due),
    amount_paid: koboToNaira(t.paid),
    balance: koboToNaira(t.balance),
    status: t.status,
  };
}

/** Compulsory fees of one class by term, in kobo. */
export type DueByTerm = Partial<Record<Term, number>>;

/** A student's standing for a session: the whole session and each term with fees. */
export interface Standing {
  session: FeeBalance;
  terms: TermBalance[];
}

export function standingOf(due: DueByTerm, paidKobo: number): Standing {
  const total = TERM_VALUES.reduce((s, t) => s + (due[t] ?? 0), 0);
  return { session: feeBalance(total, paidKobo), terms: termBalances(due, paidKobo) };
}

/**
 * A student's standing with the balance brought forward (decision 041): the session's figures count
 * the arrears as due (a credit as paid), and the terms are settled after the arrears (arrears first).
 * With nothing brought forward it is `standingOf`.
 */
export function standingWithArrears(due: DueByTerm, paidKobo: number, broughtForward: number): Standing & { arrears: number } {
  const total = TERM_VALUES.reduce((s, t) => s + (due[t] ?? 0), 0);
  return {
    session: withBroughtForward({ due: total, paid: paidKobo }, broughtForward),
    terms: termBalances(due, paidKobo - broughtForward),
    arrears: Math.max(0, broughtForward - Math.max(0, paidKobo)),
  };
}

/** What one student owes in a session: the class's compulsory items less the student's discounts. */
export interface StudentDues {
  due: DueByTerm;
  /** Kobo the discounts take off in all. */
  discountKobo: number;
  takes: DiscountTake[];
  /** The compulsory items after discounts, in order (what payments settle, term by term), with the school's due date and the day set. */
  items: (DueItem & { student_class: string; due_on: string | null; set_on: string })[];
  /** The discount rows in force behind `takes`, in the order given (their labels are built from these). */
  discounts: Awaited<ReturnType<PaymentsRepository['activeDiscounts']>>;
}

/** The stored items list of a discount (JSON of names) as the rule's keys; unreadable = every item. */
function discountItemKeys(items: string): string[] {
  try {
    const names = JSON.parse(items) as unknown;
    return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string').map(feeItemKey) : [];
  } catch {
    return [];
  }
}

/**
 * The one balance rule's "due" for each student: two queries for any number of students (the items
 * of their classes, the session's discounts in force). Every balance the portal shows reads this.
 */
export async function studentDuesOf(
  repo: PaymentsRepository,
  sessionId: number,
  students: readonly { id: number; student_class: string }[],
): Promise<Map<number, StudentDues>> {
  const classes = [...new Set(students.map((s) => s.student_class))];
  // A school-wide list reads the session's discounts whole: fewer bound parameters, the same rows.
  const { items, discounts } = await repo.duesReads(sessionId, classes, students.length > 500 ? null : students.map((s) => s.id));
  return studentDuesFrom(items, discounts, students);
}

type DueReads = Awaited<ReturnType<PaymentsRepository['duesReads']>>;

/** The one due rule over rows already read (`studentDuesOf`'s, or a card's `cardFeeReads`). */
async function studentDuesFrom(
  items: DueReads['items'],
  discounts: DueReads['discounts'],
  students: readonly { id: number; student_class: string }[],
): Promise<Map<number, StudentDues>> {
  const itemsOf = new Map<string, (DueItem & { due_on: string | null; set_on: string })[]>();
  for (const i of items) {
    const list = itemsOf.get(i.student_class) ?? [];
    list.push({ term: i.term as Term, name_key: i.name_key, kobo: Number(i.amount_kobo), due_on: i.due_on ?? null, set_on: i.created_at });
    itemsOf.set(i.student_class, list);
  }
  const discountsOf = new Map<number, typeof discounts>();
  for (const d of discounts) discountsOf.set(d.student_id, [...(discountsOf.get(d.student_id) ?? []), d]);
  const out = new Map<number, StudentDues>();
  for (const [n, s] of students.entries()) {
    // A whole school's dues are a heavy report's: a turn of the event loop between slices.
    if (n && n % ROWS_PER_SLICE === 0) await yieldToEventLoop();
    const classItems = itemsOf.get(s.student_class) ?? [];
    const rules = (discountsOf.get(s.id) ?? []).map((d) => ({
      id: Number(d.id),
      term: (d.term as Term | null) ?? null,
      basis: d.basis as DiscountBasis,
      percent_bp: Number(d.percent_bp),
      amount_kobo: Number(d.amount_kobo),
      item_keys: discountItemKeys(d.items),
    }));
    const r = discountedDues(classItems, rules);
    out.set(s.id, {
      due: r.due,
      discountKobo: r.takes.reduce((sum, t) => sum + t.kobo, 0),
      takes: r.takes,
      items: r.itemsAfter.map((i) => ({ ...i, student_class: s.student_class })),
      discounts: discountsOf.get(s.id) ?? [],
    });
  }
  return out;
}

/** What the due rule reads of the calendar: each term's start and the school's today. */
export interface FeeCalendar {
  /** Each term's first day: the school calendar's, else the "next term begins" the cards announced. */
  termStarts(session: { id: number; name: string }): Promise<TermStarts>;
  /** The school's today (its time zone). */
  today(): Promise<string>;
}

/** The school calendar (term dates, today) with the sessions' announced term dates. */
export function feeCalendar(
  school: Pick<CalendarService, 'termStarts' | 'schoolToday'>,
  sessions: Pick<SessionsService, 'announcedTermStarts'>,
): FeeCalendar {
  return {
    async termStarts(session) {
      const [calendar, announced] = await Promise.all([school.termStarts(session.id), sessions.announcedTermStarts(session)]);
      return termStartsOf(calendar, announced);
    },
    today: async () => (await school.schoolToday()).today,
  };
}

/** A student's items after discounts, each with the day it falls due: what `owedAsOf` reads. */
export function datedItemsOf(dues: StudentDues | undefined, starts: TermStarts): (DatedItem & { name_key: string })[] {
  return (dues?.items ?? []).map((i) => ({ term: i.term, name_key: i.name_key, kobo: i.kobo, falls_due_on: fallsDueOn(i, starts) }));
}

/** An arm's students on a card's term, as results' `CardFees` port asks (docs/decisions/028). */
export type FeesForCardsQuery = {
  session: { id: number; name: string };
  /** The card's term: the outstanding balance counts the fees of this term and those before it. */
  term: Term;
  arm: string;
  studentIds: readonly number[];
  next: { sessionId: number | null; term: Term };
};

/**
 * What report cards print of fees for an arm's students: the next term's compulsory fees of the class
 * (null when none are set, or the next session does not exist yet) and each student's outstanding
 * balance: what has fallen due up to the card's term, unpaid (next term's fees stand apart), in naira.
 * The composition root hands it to results as its `CardFees` port; payments imports nothing of results.
 */
export async function feesForCards(
  repo: PaymentsRepository,
  calendar: FeeCalendar,
  q: FeesForCardsQuery,
  broughtForward?: BroughtForwardOf,
): Promise<{ nextFees: number | null; outstanding: Map<number, number> }> {
  const students = q.studentIds.map((id) => ({ id, student_class: q.arm }));
  // The due rule's rows, the payments and next term's fees (the class's: the card prints them before any
  // student's discount) in one statement.
  const [reads, starts, today, carried] = await Promise.all([
    repo.cardFeeReads(q.session.id, q.arm, q.studentIds, q.next.sessionId),
    calendar.termStarts(q.session),
    calendar.today(),
    broughtForward ? broughtForward(q.session, students) : null,
  ]);
  const [dues, nextRows, paid] = [await studentDuesFrom(reads.items, reads.discounts, students), reads.nextDues, reads.paid];
  const nextRow = nextRows.find((d) => d.term === q.next.term);
  const paidBy = new Map(paid.map((p) => [p.student_id, Number(p.paid ?? 0)]));
  // The balance brought forward from the session before is outstanding too, settled first (decision 041).
  const outstanding = new Map(
    q.studentIds.map((id) => {
      const bf = carried?.kobo.get(id) ?? 0;
      const paidKobo = paidBy.get(id) ?? 0;
      const owed = owedAsOf(datedItemsOf(dues.get(id), starts), paidKobo, today, q.term).owed;
      return [id, koboToNaira(withBroughtForward({ due: owed.due, paid: paidKobo }, bf).balance)];
    }),
  );
  return { nextFees: nextRow ? koboToNaira(Number(nextRow.due_kobo)) : null, outstanding };
}

/** Students' term cards, as results' `CardGateFees` port asks (decision 042). */
export type FeesForGateQuery = {
  session: { id: number; name: string };
  term: Term;
  students: readonly { id: number; student_class: string }[];
};

/** A student's payments in a session as the statement reads them (`BursaryRepository.statementEntries`). */
export type GatePaymentRows = (
  studentId: number,
  sessionId: number,
) => Promise<
  readonly {
    id: number;
    allocation: string | null;
    receipt_number: string | null;
    term: string | null;
    amount_kobo: number;
    paid_on: string | null;
    paid_at: string | null;
    created_at: string;
    reversal_of: number | null;
  }[]
>;

/**
 * Each student's standing on one term, in kobo, for the fee gate (decision 042): the term's
 * compulsory fees that have fallen due by the school's today (after discounts), and the money the
 * statement's allocation gives them (decision 041, `allocatePayments`): the balance brought forward
 * first, then the terms in order, each standing payment by its own choice (arrears first unless the
 * bursar recorded "current term first"), in the order paid. So the gate and the statement's `terms[]`
 * read one allocation; only the charges differ (the gate counts what has fallen due).
 * The composition root hands it to results as its `CardGateFees` port; payments imports nothing of results.
 */
export async function feesForGate(
  repo: PaymentsRepository,
  calendar: FeeCalendar,
  q: FeesForGateQuery,
  sources: { payments: GatePaymentRows; broughtForward?: BroughtForwardOf },
): Promise<Map<number, { charged_kobo: number; paid_kobo: number }>> {
  if (!q.students.length) return new Map();
  const [dues, starts, today, carried, rows] = await Promise.all([
    studentDuesOf(repo, q.session.id, q.students),
    calendar.termStarts(q.session),
    calendar.today(),
    sources.broughtForward ? sources.broughtForward(q.session, q.students) : null,
    // A card at a time in practice (staff and the admin are never gated): one read per student.
    Promise.all(q.students.map((s) => sources.payments(s.id, q.session.id))),
  ]);
  const current = currentTermOf(starts, today);
  return new Map(
    q.students.map((s, k) => {
      const charges: Partial<Record<Term, number>> = {};
      for (const i of datedItemsOf(dues.get(s.id), starts)) {
        if (isDue(i, today)) charges[i.term] = (charges[i.term] ?? 0) + Math.max(0, Math.trunc(i.kobo));
      }
      const list = rows[k]!;
      const reversed = new Set(list.flatMap((r) => (r.reversal_of !== null ? [Number(r.reversal_of)] : [])));
      const standing = list
        .filter((r) => r.reversal_of === null && !reversed.has(Number(r.id)) && r.amount_kobo > 0)
        .map((r) => ({ date: r.paid_on ?? (r.paid_at ?? r.created_at).slice(0, 10), receipt: r.receipt_number ?? '', r }))
        .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.receipt < b.receipt ? -1 : a.receipt > b.receipt ? 1 : 0));
      const allocation = allocatePayments(
        carried?.kobo.get(s.id) ?? 0,
        charges,
        standing.map(({ r }) => ({
          kobo: r.amount_kobo,
          term: (r.term as Term | null) ?? null,
          allocation: r.allocation === 'current_first' ? 'current_first' : 'arrears_first',
        })),
        current,
      );
      const term = allocation.terms.find((t) => t.term === q.term)!;
      return [s.id, { charged_kobo: term.charged, paid_kobo: term.paid }];
    }),
  );
}

/** A parent's children in the current term, as parents' `FamilyFees` port asks (decision 035). */
export type FeesForFamilyQuery = {
  session: { id: number; name: string };
  /** The current term: the fees of this term and those before it that have fallen due by `today`. */
  term: Term;
  /** The school's today, as the caller already read it (not read again here). */
  today: string;
  students: readonly { id: number; student_class: string }[];
};

/**
 * What the parent home shows of each child's fees: fallen due up to the term (discounts applied),
 * paid in the session, and outstanding, in kobo: the same rule as the child's payment screen. Reads
 * only the children's rows (their classes' items, their discounts and payments) and the term starts:
 * a fixed number of statements whatever the number of children. The composition root hands it to
 * parents as its `FamilyFees` port; parents imports nothing of payments.
 */
export async function feesForFamily(
  repo: PaymentsRepository,
  calendar: Pick<FeeCalendar, 'termStarts'>,
  q: FeesForFamilyQuery,
  broughtForward?: BroughtForwardOf,
): Promise<Map<number, { due_kobo: number; paid_kobo: number; outstanding_kobo: number }>> {
  const ids = q.students.map((s) => s.id);
  const [dues, paid, starts, carried] = await Promise.all([
    studentDuesOf(repo, q.session.id, q.students),
    repo.paidKoboByStudent(ids, q.session.id),
    calendar.termStarts(q.session),
    broughtForward ? broughtForward(q.session, q.students) : null,
  ]);
  const paidBy = new Map(paid.map((p) => [p.student_id, Number(p.paid ?? 0)]));
  return new Map(
    ids.map((id) => {
      // Arrears brought forward are due too (a credit is money paid): decision 041.
      const paidKobo = paidBy.get(id) ?? 0;
      const session = owedAsOf(datedItemsOf(dues.get(id), starts), paidKobo, q.today, q.term).owed;
      const owed = withBroughtForward({ due: session.due, paid: paidKobo }, carried?.kobo.get(id) ?? 0);
      return [id, { due_kobo: owed.due, paid_kobo: owed.paid, outstanding_kobo: owed.balance }];
    }),
  );
}

/** Fee items and what they make a class owe. The rules; SQL stays in the repository. */
export class FeesService {
  constructor(
    private readonly repo: PaymentsRepository,
    private readonly sessions: SessionsService,
    private readonly teaching: TeachingService,
  ) {}

  /** Refuses a class the school has never had (fees may still be set for a retired arm's history). */
  async checkClasses(classes: readonly string[], field: string): Promise<void> {
    const known = new Set(await this.teaching.classNames({ includeRetired: true }));
    if (classes.some((c) => !known.has(c))) throw badRequest({ [field]: [PAYMENT_MESSAGES.classInvalid] });
  }

  /** What each of these students owes in a session, discounts applied (see studentDuesOf). */
  studentDues(sessionId: number, students: readonly { id: number; student_class: string }[]): Promise<Map<number, StudentDues>> {
    return studentDuesOf(this.repo, sessionId, students);
  }

  /** The compulsory items of a class's session, in kobo with their due date and created date (the statement's charges). */
  async compulsoryItems(sessionId: number, arm: string) {
    return (await this.repo.feeItems({ sessionId, arm }))
      .filter((f) => f.compulsory === 1)
      .map((f) => ({ term: f.term as Term, name: f.name, kobo: f.amount_kobo, due_on: f.due_on ?? null, created_at: f.created_at }));
  }

  async list(filter: { sessionId?: number; arm?: string }): Promise<FeeItem[]> {
    return (await this.repo.feeItems(filter)).map(presentFeeItem);
  }

  private async one(id: number): Promise<FeeItem> {
    const row = await this.repo.feeItemById(this.repo.db, id);
    if (!row) throw notFound(FEE_MESSAGES.feeItemNotFound);
    const list = await this.repo.feeItems({ sessionId: row.session_id, arm: row.student_class, term: row.term });
    const f = list.find((x) => x.id === id);
    if (!f) throw notFound(FEE_MESSAGES.feeItemNotFound);
    return presentFeeItem(f);
  }

  private async checkSession(sessionId: number, field = 'session_id'): Promise<void> {
    if (!(await this.sessions.byId(sessionId))) throw badRequest({ [field]: [PAYMENT_MESSAGES.sessionInvalid] });
  }

  async create(actor: Actor, input: FeeItemCreate): Promise<FeeItem> {
    await this.checkClasses([input.student_class], 'student_class');
    await this.checkSession(input.session_id);
    const name = input.name ?? defaultFeeItemName(input.description);
    const values = {
      student_class: input.student_class,
      session_id: input.session_id,
      term: input.term,
      name,
      name_key: feeItemKey(name),
      amount_kobo: input.amount,
      compulsory: input.compulsory === false ? 0 : 1,
      description: input.description,
      due_on: input.due_on ?? null,
    };
    const id = await inTransaction(this.repo.db, async (trx) => {
      const newId = await this.repo.insertFeeItem(trx, values);
      if (newId === null) return null;
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'fee_schedule.create',
        entity: 'fee_schedule',
        entityId: newId,
        after: values,
      });
      return newId;
    });
    if (id === null) throw conflict(FEE_MESSAGES.itemExists(name, input.student_class, termLabel(input.term)));
    return this.one(id);
  }

  async update(actor: Actor, id: number, input: FeeItemUpdate): Promise<FeeItem> {
    await inTransaction(this.repo.db, async (trx) => {
      const before = await this.repo.feeItemById(trx, id);
      if (!before) throw notFound(FEE_MESSAGES.feeItemNotFound);
      const name = input.name ?? before.name;
      const after = {
        amount_kobo: input.amount,
        description: input.description,
        name,
        name_key: feeItemKey(name),
        compulsory: input.compulsory === undefined ? before.compulsory : input.compulsory ? 1 : 0,
        // Omitted: kept as it is; null: due when the term begins.
        due_on: input.due_on === undefined ? (before.due_on ?? null) : input.due_on,
      };
      if (after.name_key !== before.name_key) {
        const clash = await this.repo.feeItemByKey(trx, { ...before, name_key: after.name_key });
        if (clash) throw conflict(FEE_MESSAGES.itemExists(name, before.student_class, termLabel(before.term)));
      }
      await this.repo.updateFeeItem(trx, id, after);
      await writeAudit(trx, feeItemUpdateAudit(actor, before, after));
    });
    return this.one(id);
  }

  async remove(actor: Actor, id: number): Promise<void> {
    await inTransaction(this.repo.db, async (trx) => {
      const before = await this.repo.feeItemById(trx, id);
      if (!before) throw notFound(FEE_MESSAGES.feeItemNotFound);
      await this.repo.deleteFeeItem(trx, id);
      await writeAudit(trx, { actorUserId: actor.id, action: 'fee_schedule.delete', entity: 'fee_schedule', entityId: id, before });
    });
  }

  /** The same items for many classes at once: an existing item of the same name is updated. One transaction. */
  async bulk(actor: Actor, input: FeeItemsBulk): Promise<FeeItemsBulkResult & { items: FeeItem[] }> {
    await this.checkClasses(input.classes, 'classes');
    await this.checkSession(input.session_id);
    const result = await inTransaction(this.repo.db, async (trx) => {
      let created = 0;
      let updated = 0;
      const existing = await this.repo.feeItems({ sessionId: input.session_id, classes: input.classes, term: input.term }, trx);
      const byKey = new Map(existing.map((e) => [`${e.student_class}|${e.name_key}`, e]));
      for (const cls of input.classes) {
        for (const it of input.items) {
          const values = {
            name: it.name,
            name_key: feeItemKey(it.name),
            amount_kobo: it.amount,
            compulsory: it.compulsory ? 1 : 0,
            description: it.description,
            // A line without a due date keeps an existing item's (a new one: due when the term begins).
            ...(it.due_on !== undefined ? { due_on: it.due_on } : {}),
          };
          const before = byKey.get(`${cls}|${values.name_key}`);
          if (before) {
            await this.repo.updateFeeItem(trx, before.id, values);
            await writeAudit(trx, feeItemUpdateAudit(actor, before, values));
            updated++;
          } else {
            const row = { ...values, student_class: cls, session_id: input.session_id, term: input.term };
            const id = await this.repo.insertFeeItem(trx, row);
            // Added by a concurrent save between the read and now: its own writer audited it.
            if (id === null) continue;
            await writeAudit(trx, {
              actorUserId: actor.id,
              action: 'fee_schedule.create',
              entity: 'fee_schedule',
              entityId: id,
              after: row,
            });
            created++;
          }
        }
      }
      return { created, updated };
    });
    const items = (await this.repo.feeItems({ sessionId: input.session_id, classes: input.classes, term: input.term })).map(presentFeeItem);
    return { ...result, items };
  }

  /** How many fee items of a session the next session's copy would take (its current arms', every term). */
  async sessionCopyCount(sessionId: number, conn?: Conn): Promise<number> {
    const classes = await this.teaching.classNames({ conn });
    return (await this.repo.feeItems({ sessionId, classes }, conn)).length;
  }

  /**
   * Copies every fee item of a session's current arms, each term into the same term of `to`, in the
   * caller's transaction (starting the next session, docs/decisions/040), raised by `basisPoints`
   * hundredths of a percent and rounded to ₦50 (`increasedFeeKobo`); due dates are left for the new
   * terms. Items the target already has by name are kept. Returns how many were added.
   */
  async copySessionIn(trx: Trx, actor: Pick<AuthUser, 'id'>, from: number, to: number, basisPoints: number): Promise<number> {
    const classes = await this.teaching.classNames({ conn: trx });
    const source = await this.repo.feeItems({ sessionId: from, classes }, trx);
    const rows = source.map((f) => ({
      student_class: f.student_class,
      session_id: to,
      term: f.term,
      name: f.name,
      name_key: f.name_key,
      amount_kobo: increasedFeeKobo(f.amount_kobo, basisPoints),
      compulsory: f.compulsory,
      description: f.description,
      due_on: null,
    }));
    const added = await this.repo.insertFeeItems(trx, rows);
    await writeAudit(trx, {
      actorUserId: actor.id,
      action: 'fee_schedule.copy_session',
      entity: 'fee_schedule',
      entityId: to,
      after: { from_session_id: from, to_session_id: to, increase_basis_points: basisPoints, items: added },
    });
    return added;
  }

  /** Copies a term's items (e.g. last term's) into another term; items the target already has by name are kept. */
  async copy(actor: Actor, input: FeeItemsCopy): Promise<FeeItemsCopyResult> {
    await this.checkSession(input.from_session_id, 'from_session_id');
    await this.checkSession(input.to_session_id, 'to_session_id');
    if (input.classes) await this.checkClasses(input.classes, 'classes');
    // Every current class when none are named: a retired arm has no one left to bill.
    const classes = input.classes ?? (await this.teaching.classNames());
    const source = await this.repo.feeItems({ sessionId: input.from_session_id, classes, term: input.from_term });
    if (!source.length) throw badRequest({ from_term: [FEE_MESSAGES.nothingToCopy] });
    return inTransaction(this.repo.db, async (trx) => {
      let copied = 0;
      let skipped = 0;
      for (const f of source) {
        const row = {
          student_class: f.student_class,
          session_id: input.to_session_id,
          term: input.to_term,
          name: f.name,
          name_key: f.name_key,
          amount_kobo: f.amount_kobo,
          compulsory: f.compulsory,
          description: f.description,
          // A due date belongs to its own term: the copy falls due when its term begins until one is set.
          due_on: null,
        };
        const id = await this.repo.insertFeeItem(trx, row);
        if (id === null) {
          skipped++;
          continue;
        }
        await writeAudit(trx, {
          actorUserId: actor.id,
          action: 'fee_schedule.create',
          entity: 'fee_schedule',
          entityId: id,
          after: { ...row, copied_from: f.id },
        });
        copied++;
      }
      return { copied, skipped };
    });
  }
}

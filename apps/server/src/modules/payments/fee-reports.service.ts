import {
  ARREARS_MESSAGES,
  BROUGHT_FORWARD_KEY,
  CLASS_LEVELS,
  DEBTORS_PAGE_SIZE,
  FEE_REPORT_MESSAGES,
  PAYMENT_MESSAGES,
  TERM_VALUES,
  classLevelOf,
  collectionFigures,
  currentTermOf,
  daysOverdue,
  isDue,
  koboToNaira,
  owedAsOf,
  personName,
  sortDebtors,
  withBroughtForward,
  type AcademicSession,
  type CollectionSummary,
  type Debtor,
  type DebtorsPage,
  type DebtorsQuery,
  type PaymentMethod,
  type Term,
} from '@portal/domain';
import { badRequest } from '../../http/errors';
import { mapInSlices, ROWS_PER_SLICE, yieldToEventLoop } from '../../lib/yield';
import type { SessionsService } from '../calendar/sessions.service';
import type { TeachingService } from '../teaching/teaching.service';
import type { FeeReportsRepository } from './fee-reports.repository';
import { datedItemsOf, type FeeCalendar, type FeesService } from './fees.service';
import type { ArrearsService } from './arrears.service';

/** Who may read the fee reports, for the modules that show them (the dashboards): the bursar's one definition. */
export { BURSAR } from './bursar-access';

/** A heavy report's next read, after a turn of the event loop. */
async function inTurn<T>(read: () => Promise<T>): Promise<T> {
  await yieldToEventLoop();
  return read();
}

/** What both reports read first: the students, their dues and payments, arrears, term starts and today. */
interface Standing {
  students: Awaited<ReturnType<FeeReportsRepository['activeStudents']>>;
  dues: Awaited<ReturnType<FeesService['studentDues']>>;
  paid: Awaited<ReturnType<FeeReportsRepository['paidByStudent']>>;
  carried: Awaited<ReturnType<ArrearsService['broughtForward']>>;
  starts: Awaited<ReturnType<FeeCalendar['termStarts']>>;
  today: string;
}

/** The debtors filter without paging (the CSV and PDF take every row). */
export type DebtorsFilter = Omit<DebtorsQuery, 'page'>;
export interface DebtorsReport {
  session: AcademicSession;
  term: Term | null;
  /** The school's today, and the day the term shown begins (when known). */
  asOf: string;
  termBegins: string | null;
  /** Every debtor of the filter, in the order asked (kobo figures kept for the totals). */
  debtors: Debtor[];
  total_balance: number;
  /** What the filter named, for titles and file names ("SSS 2B", "JSS 1", or null for the whole school). */
  scope: string | null;
}

/**
 * The debtors list and the collection summary (reports). Both read the one due rule
 * (fees-due.ts): `FeesService.studentDues` (class compulsory items less the student's discounts),
 * each item counted once it has fallen due by the school's today, against payments net of reversals
 * settling terms in order (`owedAsOf`, `allocateCollected`). A fixed number of queries whatever the
 * school's size.
 */
export class FeeReportsService {
  constructor(
    private readonly repo: FeeReportsRepository,
    private readonly fees: FeesService,
    private readonly sessions: SessionsService,
    private readonly teaching: TeachingService,
    private readonly calendar: FeeCalendar,
    private readonly arrears: ArrearsService,
  ) {}

  private async session(id: number | undefined): Promise<AcademicSession> {
    const s = id !== undefined ? await this.sessions.byId(id) : await this.sessions.currentOrLatest();
    if (!s) throw badRequest({ session_id: [PAYMENT_MESSAGES.sessionInvalid] });
    return s;
  }

  /** The classes a level or an arm names, checked against the school's arms (null: every class). */
  private async classesOf(level: string | undefined, arm: string | undefined): Promise<string[] | null> {
    if (!level && !arm) return null;
    const arms = await this.teaching.classNames({ includeRetired: true });
    if (level && !(CLASS_LEVELS as readonly string[]).includes(level)) throw badRequest({ level: [FEE_REPORT_MESSAGES.levelInvalid] });
    if (arm && !arms.includes(arm)) throw badRequest({ student_class: [FEE_REPORT_MESSAGES.classInvalid] });
    return arms.filter((a) => (!level || classLevelOf(a) === level) && (!arm || a === arm));
  }

  /**
   * The reads both reports start from, one after another with a turn of the event loop between them:
   * on SQLite each runs in one synchronous piece, and all of them in one turn held the loop for a
   * whole school's rows.
   */
  private async standing(session: AcademicSession, classes: string[] | null): Promise<Standing> {
    const students = await inTurn(() => this.repo.activeStudents(session.id, classes));
    const dues = await inTurn(() => this.fees.studentDues(session.id, students));
    const paid = await inTurn(() => this.repo.paidByStudent(session.id, classes));
    const carried = await inTurn(() => this.arrears.broughtForward(session, students));
    const [starts, today] = await inTurn(() => Promise.all([this.calendar.termStarts(session), this.calendar.today()]));
    return { students, dues, paid, carried, starts, today };
  }

  async debtorsAll(q: DebtorsFilter): Promise<DebtorsReport> {
    const [session, classes] = await Promise.all([this.session(q.session_id), this.classesOf(q.level, q.student_class)]);
    return this.debtorsOf(session, q, await this.standing(session, classes));
  }

  /**
   * The dashboards' fee figures (issue 36): the collection summary and the debtors list of one term
   * from one set of reads (`standing`), so each is the report's own figure at half the reads.
   */
  async termOverview(q: {
    session_id: number;
    term: Term;
    from: string;
    to: string;
  }): Promise<{ summary: CollectionSummary; debtors: DebtorsReport }> {
    const session = await this.session(q.session_id);
    const standing = await this.standing(session, null);
    const debtors = await this.debtorsOf(session, { term: q.term, sort: 'balance', order: 'desc' }, standing);
    const summary = await this.collectionsOf(session, q, standing);
    return { summary, debtors };
  }

  private async debtorsOf(session: AcademicSession, q: DebtorsFilter, standing: Standing): Promise<DebtorsReport> {
    const { students, dues, paid, carried, starts, today } = standing;
    // No term chosen: the current term (what has fallen due up to it); `session`: the whole session.
    const term = q.term === 'session' ? null : (q.term ?? currentTermOf(starts, today));
    const paidOf = new Map(paid.map((p) => [Number(p.student_id), { kobo: Number(p.paid ?? 0), last: p.last_paid_on }]));

    const rows: Debtor[] = [];
    let totalKobo = 0;
    for (const [n, s] of students.entries()) {
      // A heavy report: a turn of the event loop between slices of students.
      if (n && n % ROWS_PER_SLICE === 0) await yieldToEventLoop();
      const d = dues.get(s.id);
      const money = paidOf.get(s.id) ?? { kobo: 0, last: null };
      const items = datedItemsOf(d, starts);
      // The balance brought forward is due before anything (decision 041): the session's money settles it first.
      const bf = carried.kobo.get(s.id) ?? 0;
      const { owed: session, owedSince: since } = owedAsOf(items, money.kobo - bf, today, term);
      const owed = withBroughtForward({ due: session.due, paid: money.kobo }, bf);
      if (owed.balance <= 0) continue;
      const arrearsSince = bf > money.kobo ? (starts['1st'] ?? since ?? today) : null;
      const owedSince = arrearsSince !== null && (since === null || arrearsSince < since) ? arrearsSince : since;
      // What the discounts took off the items counted as due.
      const counted = new Set(items.filter((i) => isDue(i, today, term)).map((i) => `${i.term}|${i.name_key}`));
      const discountKobo = (d?.takes ?? []).filter((t) => counted.has(`${t.term}|${t.name_key}`)).reduce((sum, t) => sum + t.kobo, 0);
      totalKobo += owed.balance;
      rows.push({
        admission_number: s.admission_number,
        full_name: personName(s),
        student_class: s.student_class,
        due: koboToNaira(owed.due),
        discount: koboToNaira(discountKobo),
        paid: koboToNaira(owed.paid),
        balance: koboToNaira(owed.balance),
        status: owed.status,
        days_overdue: daysOverdue(owedSince, today),
        last_paid_on: money.last ? String(money.last).slice(0, 10) : null,
        brought_forward: koboToNaira(bf),
      });
    }
    return {
      session,
      term,
      asOf: today,
      termBegins: term ? (starts[term] ?? null) : null,
      debtors: sortDebtors(rows, q.sort, q.order),
      total_balance: koboToNaira(totalKobo),
      scope: q.student_class ?? q.level ?? null,
    };
  }

  async debtors(q: DebtorsQuery): Promise<DebtorsPage> {
    const all = await this.debtorsAll(q);
    const start = (q.page - 1) * DEBTORS_PAGE_SIZE;
    return {
      session_id: all.session.id,
      session: all.session.name,
      term: all.term,
      as_of: all.asOf,
      term_begins: all.termBegins,
      debtors: all.debtors.slice(start, start + DEBTORS_PAGE_SIZE),
      page: q.page,
      pages: Math.max(1, Math.ceil(all.debtors.length / DEBTORS_PAGE_SIZE)),
      total: all.debtors.length,
      total_balance: all.total_balance,
    };
  }

  async collections(q: { session_id?: number; term?: Term; from?: string; to?: string }): Promise<CollectionSummary> {
    if (q.from && q.to && q.from > q.to) throw badRequest({ from: [FEE_REPORT_MESSAGES.rangeInvalid] });
    const session = await this.session(q.session_id);
    return this.collectionsOf(session, q, await this.standing(session, null));
  }

  private async collectionsOf(
    session: AcademicSession,
    q: { term?: Term; from?: string; to?: string },
    standing: Standing,
  ): Promise<CollectionSummary> {
    const { students, dues, paid, carried, starts, today } = standing;
    const range = { from: q.from, to: q.to };
    const [names, byDay, byMethod] = await inTurn(() =>
      Promise.all([
        this.repo.itemNames(session.id),
        this.repo.received(session.id, 'day', range),
        this.repo.received(session.id, 'method', range),
      ]),
    );
    const paidOf = new Map(paid.map((p) => [Number(p.student_id), Number(p.paid ?? 0)]));
    const figures = collectionFigures(
      // A heavy report: a turn of the event loop between slices of students.
      await mapInSlices(students, (s) => {
        const d = dues.get(s.id);
        // Each item before discounts (after + what the discounts took of it) beside the item after them.
        const takenOff = new Map<string, number>();
        for (const t of d?.takes ?? []) takenOff.set(`${t.term}|${t.name_key}`, (takenOff.get(`${t.term}|${t.name_key}`) ?? 0) + t.kobo);
        // Arrears brought forward: an item due already, settled first, in every term's view; a credit is money paid.
        const bf = carried.kobo.get(s.id) ?? 0;
        const arrears = bf > 0 ? [{ name_key: BROUGHT_FORWARD_KEY, net: bf, gross: bf, falls_due_on: '', arrears: true }] : [];
        return {
          student_class: s.student_class,
          items: [
            ...arrears.map((a) => ({ ...a, term: TERM_VALUES[0] })),
            ...datedItemsOf(d, starts).map((i) => ({
              term: i.term,
              name_key: i.name_key,
              net: i.kobo,
              gross: i.kobo + (takenOff.get(`${i.term}|${i.name_key}`) ?? 0),
              falls_due_on: i.falls_due_on,
            })),
          ],
          paidKobo: (paidOf.get(s.id) ?? 0) + Math.max(0, -bf),
        };
      }),
      q.term ?? null,
      today,
    );
    const nameOf = new Map(names.map((n) => [n.name_key, n.name]));
    if (carried.from) nameOf.set(BROUGHT_FORWARD_KEY, ARREARS_MESSAGES.broughtForward(carried.from.name));
    const broughtForward = [...carried.kobo.values()].reduce((sum, k) => sum + Math.max(0, k), 0);
    const row = (f: { expected: number; collected: number; outstanding: number; upcoming: number }) => ({
      expected: koboToNaira(f.expected),
      collected: koboToNaira(f.collected),
      outstanding: koboToNaira(f.outstanding),
      upcoming: koboToNaira(f.upcoming),
    });
    return {
      session_id: session.id,
      session: session.name,
      term: q.term ?? null,
      as_of: today,
      totals: {
        ...row(figures.totals),
        discounts: koboToNaira(figures.totals.discounts),
        credit: koboToNaira(figures.totals.credit),
        students: figures.totals.students,
        brought_forward: koboToNaira(broughtForward),
      },
      by_class: figures.by_class
        .sort((a, b) => (a.student_class < b.student_class ? -1 : a.student_class > b.student_class ? 1 : 0))
        .map((c) => ({ student_class: c.student_class, students: c.students, ...row(c) })),
      by_item: figures.by_item
        .map((i) => ({ name: nameOf.get(i.name_key) ?? i.name_key, ...row(i) }))
        .sort((a, b) => a.name.localeCompare(b.name, 'en')),
      by_day: byDay.map((r) => ({ date: String(r.k), count: Number(r.count), amount: koboToNaira(Number(r.kobo ?? 0)) })),
      by_method: byMethod.map((r) => ({ method: r.k as PaymentMethod, count: Number(r.count), amount: koboToNaira(Number(r.kobo ?? 0)) })),
    };
  }
}

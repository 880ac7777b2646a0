import { addDays, classLevelOf, koboToNaira, nairaToKobo, TERM_VALUES, type Term } from '@portal/domain';
import type { AdminDashboard, DashboardQuery } from '@portal/domain/dashboard-admin';
import type { AuthUser } from '../../http/auth';
import { notFound } from '../../http/errors';
import type { AuthService } from '../auth/auth.service';
import type { CalendarService } from '../calendar/calendar.service';
import type { SessionsService } from '../calendar/sessions.service';
import type { NewAccountsService } from '../people/new-accounts.service';
import type { FeeReportsService } from '../payments/fee-reports.service';
import type { ReportApprovalsService } from '../results/report-approvals.service';
import type { TeachingService } from '../teaching/teaching.service';
import type { AdminDashboardQueries } from './admin.queries';

/** Days of the collections line, today included. */
export const COLLECTION_DAYS = 30;

/**
 * The admin / principal dashboard (issue 36, item 1): each panel is an aggregate read of its own
 * (admin.queries.ts) or the underlying report's service read as it is (report card approvals, the
 * fee collections and debtors reports, the day's new accounts, sign-in blocks), so a figure here is
 * the figure the report shows. A fixed number of statements whatever the number of students.
 */
export class AdminDashboardService {
  constructor(
    private readonly queries: AdminDashboardQueries,
    private readonly calendar: CalendarService,
    private readonly sessions: SessionsService,
    private readonly teaching: TeachingService,
    private readonly approvals: ReportApprovalsService,
    private readonly feeReports: FeeReportsService,
    private readonly newAccounts: NewAccountsService,
    private readonly auth: AuthService,
  ) {}

  async dashboard(actor: AuthUser, q: DashboardQuery): Promise<AdminDashboard> {
    const current = await this.calendar.currentTerm();
    let session: { id: number; name: string } | null = null;
    let term: Term | null = null;
    if (q.session_id !== undefined && q.term !== undefined) {
      const s = await this.sessions.byId(q.session_id);
      if (!s) throw notFound('No such session.');
      session = { id: s.id, name: s.name };
      term = q.term;
    } else if (current.session_id !== null) {
      session = { id: current.session_id, name: current.session_name ?? '' };
      term = current.term;
    }
    const today = current.today;
    const [attendance, accounts] = await Promise.all([this.attendance(today), this.accounts(actor)]);
    if (!session || !term) {
      return {
        session,
        term,
        today,
        attendance,
        score_entry: { subjects: [], cells: [] },
        report_cards: [],
        fees: { expected: 0, collected: 0, outstanding: 0, by_level: [], by_day: [], debtors: { count: 0, total: 0 } },
        grades: session ? await this.grades(session.id) : { term: null, grades: [], subjects: [] },
        accounts,
      };
    }
    // One after another: on SQLite each read runs in one piece anyway, and the fee reports yield between theirs.
    const scoreEntry = await this.scoreEntry(session.id, term);
    const reportCards = await this.reportCards(actor, session.id, term);
    const fees = await this.fees(session.id, term, today);
    const grades = await this.grades(session.id);
    return { session, term, today, attendance, score_entry: scoreEntry, report_cards: reportCards, fees, grades, accounts };
  }

  /** Today's morning register per arm with active students (as the absent-today report counts arms marked). */
  private async attendance(today: string): Promise<AdminDashboard['attendance']> {
    const [arms, registers] = await Promise.all([this.queries.activeByArm(), this.queries.registersOn(today)]);
    const byArm = new Map(registers.map((r) => [r.student_class, r]));
    return {
      date: today,
      arms: arms
        .sort((a, b) => a.student_class.localeCompare(b.student_class, 'en'))
        .map((a) => {
          const r = byArm.get(a.student_class);
          const marks = r?.marks ?? 0;
          const present = r?.present ?? 0;
          return {
            student_class: a.student_class,
            students: a.students,
            marked: r !== undefined,
            present,
            marks,
            present_pct: marks ? Math.round((present / marks) * 1000) / 10 : null,
          };
        }),
    };
  }

  /** Entered (results stored) against expected (the arm's students taking the subject: teaching's rule). */
  private async scoreEntry(sessionId: number, term: Term): Promise<AdminDashboard['score_entry']> {
    const students = await this.queries.sessionStudents(sessionId);
    const [takes, entered] = await Promise.all([this.teaching.subjectsOf(students), this.queries.enteredByArmSubject(sessionId, term)]);
    const cells = new Map<string, { student_class: string; subject: string; entered: number; expected: number }>();
    const cell = (student_class: string, subject: string) => {
      const key = `${student_class}\u0000${subject}`;
      let c = cells.get(key);
      if (!c) cells.set(key, (c = { student_class, subject, entered: 0, expected: 0 }));
      return c;
    };
    for (const s of students) for (const subject of takes.get(s.id) ?? []) cell(s.student_class, subject).expected++;
    for (const e of entered) cell(e.student_class, e.subject).entered += e.entered;
    const order = await this.teaching.subjectOrder();
    const rank = (s: string) => order.get(s) ?? Number.MAX_SAFE_INTEGER;
    const list = [...cells.values()].sort(
      (a, b) => a.student_class.localeCompare(b.student_class, 'en') || rank(a.subject) - rank(b.subject),
    );
    const subjects = [...new Set(list.map((c) => c.subject))].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b, 'en'));
    return { subjects, cells: list };
  }

  /** The report card approvals screen's list, status only. */
  private async reportCards(actor: AuthUser, sessionId: number, term: Term): Promise<AdminDashboard['report_cards']> {
    const arms = await this.approvals.list({ id: actor.id, role: actor.role }, { session_id: sessionId, term });
    return arms.map((a) => ({ student_class: a.student_class, students: a.students, status: a.status }));
  }

  /** The collections report for the term (by level, the last 30 days) and the debtors report's count and total. */
  private async fees(sessionId: number, term: Term, today: string): Promise<AdminDashboard['fees']> {
    const from = addDays(today, -(COLLECTION_DAYS - 1));
    // The collection summary and the debtors list from one set of reads: the reports' own figures.
    const { summary, debtors } = await this.feeReports.termOverview({ session_id: sessionId, term, from, to: today });
    const levels = new Map<string, { expected: number; collected: number }>();
    for (const c of summary.by_class) {
      const level = classLevelOf(c.student_class) ?? c.student_class;
      const l = levels.get(level) ?? { expected: 0, collected: 0 };
      l.expected += nairaToKobo(c.expected);
      l.collected += nairaToKobo(c.collected);
      levels.set(level, l);
    }
    const byDay = new Map(summary.by_day.map((d) => [d.date.slice(0, 10), d]));
    return {
      expected: summary.totals.expected,
      collected: summary.totals.collected,
      outstanding: summary.totals.outstanding,
      by_level: [...levels]
        .sort(([a], [b]) => a.localeCompare(b, 'en'))
        .map(([level, l]) => ({ level, expected: koboToNaira(l.expected), collected: koboToNaira(l.collected) })),
      by_day: Array.from({ length: COLLECTION_DAYS }, (_, i) => {
        const date = addDays(from, i);
        const d = byDay.get(date);
        return { date, amount: d?.amount ?? 0, count: d?.count ?? 0 };
      }),
      debtors: { count: debtors.debtors.length, total: debtors.total_balance },
    };
  }

  /** The newest term of the session with released results: its grades per subject. */
  private async grades(sessionId: number): Promise<AdminDashboard['grades']> {
    const released = await this.queries.releasedTerms(sessionId);
    const term = [...TERM_VALUES].reverse().find((t) => released.includes(t)) ?? null;
    if (!term) return { term: null, grades: [], subjects: [] };
    const rows = await this.queries.gradesReleased(sessionId, term);
    const grades = [...new Set(rows.map((r) => r.grade))].sort((a, b) => a.localeCompare(b, 'en'));
    const bySubject = new Map<string, Record<string, number>>();
    for (const r of rows) {
      const counts = bySubject.get(r.subject) ?? Object.fromEntries(grades.map((g) => [g, 0]));
      counts[r.grade] = (counts[r.grade] ?? 0) + r.n;
      bySubject.set(r.subject, counts);
    }
    return {
      term,
      grades,
      subjects: [...bySubject].sort(([a], [b]) => a.localeCompare(b, 'en')).map(([subject, counts]) => ({ subject, counts })),
    };
  }

  /** Today's new accounts (the sign-in slips waiting to be printed) and the accounts blocked from signing in. */
  private async accounts(actor: AuthUser): Promise<AdminDashboard['accounts']> {
    const [day, blocks] = await Promise.all([this.newAccounts.day(actor), this.auth.listSignInBlocks()]);
    return { new_today: day.accounts.length, blocked: new Set(blocks.map((b) => b.email)).size };
  }
}

import {
  competitionRanks,
  personName,
  rankClass,
  RESULT_MESSAGES,
  round2,
  averageOver,
  TERM_VALUES,
  type Role,
  type Term,
} from '@portal/domain';
import {
  attendancePercent,
  type DashboardTermPoint,
  type StudentDashboard,
  type StudentDashboardQuery,
} from '@portal/domain/dashboard-student';
import type { DB } from '../../db/index';
import { badRequest, notFound } from '../../http/errors';
import type { AccessScope } from '../access/scope.service';
import type { AttendanceService } from '../attendance/attendance.service';
import type { CalendarService } from '../calendar/calendar.service';
import type { SessionsService } from '../calendar/sessions.service';
import type { StatementService } from '../payments/statement.service';
import type { CardGate } from '../results/card-gate.service';
import type { SettingsService } from '../settings/settings.service';
import { releasedCardTotals, studentHead, termScores } from './student.queries';

type Actor = { id: number; role: Role; email?: string | null; capable?: boolean };

const termIndex = (t: string) => TERM_VALUES.indexOf(t as Term);

/**
 * The student's dashboard (issue 36 item 4), and a parent's view of a linked child: the released
 * cards' averages and positions term by term, this term's subjects against the class average, this
 * term's attendance and the fee balance. A parent acts as the child (decision 035), so both see
 * exactly the same: released cards only, and none of a card the fee gate withholds (decision 042).
 * Attendance and fees are the attendance summary's and the statement's own answers, so the figures
 * cannot drift from those screens.
 */
export class StudentDashboardService {
  constructor(
    private readonly db: DB,
    private readonly scope: AccessScope,
    private readonly calendar: Pick<CalendarService, 'currentTerm'>,
    private readonly sessions: Pick<SessionsService, 'byId'>,
    private readonly settings: Pick<SettingsService, 'get'>,
    private readonly gate: Pick<CardGate, 'answer'>,
    private readonly attendance: Pick<AttendanceService, 'student'>,
    private readonly statements: Pick<StatementService, 'statement'>,
  ) {}

  async dashboard(actor: Actor, q: StudentDashboardQuery): Promise<StudentDashboard> {
    // A parent acts as the child named (403 alike for another family's child and for a number naming
    // nobody; 400 when none is named); a student reads their own and is refused anyone else's (403,
    // before any lookup of the number). Staff never reach this (the route's roles).
    const viewer = await this.scope.actingFor(actor, q.student);
    if (viewer.role === 'admin' && q.student === undefined) throw badRequest({ student: [RESULT_MESSAGES.admissionNumberRequired] });
    const found = await this.scope.studentFor(viewer, q.student, {
      purpose: 'records',
      otherwise: 'refuse',
      unknown: (n) => notFound(RESULT_MESSAGES.studentNotFound(n)),
    });
    if (!found) throw badRequest({ student: [RESULT_MESSAGES.admissionNumberRequired] });

    const [head, totals, current, school] = await Promise.all([
      studentHead(this.db, found.id),
      releasedCardTotals(this.db, found.id),
      q.session_id === undefined ? this.calendar.currentTerm() : Promise.resolve(null),
      this.settings.get(),
    ]);
    if (!head) throw notFound(RESULT_MESSAGES.studentNotFound(found.admission_number));
    const gated = viewer.role === 'student' || viewer.role === 'parent';

    // The history: each released card's ranking from its classmates' totals, by the card's own rule
    // (the average over the subjects taken, competition ranks, the class average the mean of the
    // averages, summed in the card's order).
    const cards = new Map<string, { session_id: number; session: string; term: Term; arm: string; rows: { id: number; raw: number }[] }>();
    for (const t of totals) {
      const key = `${t.session_id}|${t.term}|${t.student_class}`;
      let card = cards.get(key);
      if (!card) {
        card = { session_id: Number(t.session_id), session: t.session, term: t.term as Term, arm: t.student_class, rows: [] };
        cards.set(key, card);
      }
      card.rows.push({ id: Number(t.student_id), raw: averageOver(Number(t.total), Number(t.n)) });
    }
    const points: DashboardTermPoint[] = [];
    for (const c of cards.values()) {
      // The card's order (student id): its class average sums the averages in that order.
      c.rows.sort((a, b) => a.id - b.id);
      const at = c.rows.findIndex((r) => r.id === found.id);
      if (at < 0) continue;
      const ranks = competitionRanks(c.rows.map((r) => r.raw));
      points.push({
        session_id: c.session_id,
        session: c.session,
        term: c.term,
        arm: c.arm,
        average: round2(c.rows[at]!.raw),
        position: ranks[at]!,
        out_of: c.rows.length,
        class_average: round2(c.rows.reduce((a, r) => a + r.raw, 0) / c.rows.length),
      });
    }
    points.sort((a, b) => a.session.localeCompare(b.session) || a.session_id - b.session_id || termIndex(a.term) - termIndex(b.term));

    // The fee gate: a withheld card is named, its figures never sent. Nothing to ask when it is off.
    const open = new Set<string>();
    const withheld: StudentDashboard['withheld'] = [];
    const history: DashboardTermPoint[] = [];
    for (const p of points) {
      const closed =
        gated &&
        school.results_fee_gate &&
        (
          await this.gate.answer({
            student: { id: found.id, student_class: p.arm },
            session: { id: p.session_id, name: p.session },
            term: p.term,
            role: 'student',
          })
        ).gated;
      if (closed) withheld.push({ session_id: p.session_id, session: p.session, term: p.term });
      else {
        open.add(`${p.session_id}|${p.term}`);
        history.push(p);
      }
    }

    // The term shown: the one asked for, else today's (school calendar); a graduated student's last
    // session is the one their class history closed with them in it (decision 038): its last card.
    const graduated = head.status === 'graduated';
    const lastSeen = points.at(-1);
    let sessionId: number | null;
    let term: Term | null;
    if (q.session_id !== undefined) {
      sessionId = q.session_id;
      term = q.term ?? '1st';
    } else if (graduated) {
      sessionId = lastSeen?.session_id ?? null;
      term = lastSeen?.term ?? null;
    } else {
      sessionId = current?.session_id ?? null;
      term = q.term ?? current?.term ?? null;
    }
    const session = sessionId === null ? null : await this.sessions.byId(sessionId);
    if (sessionId !== null && !session) throw badRequest({ session_id: [RESULT_MESSAGES.sessionNotFound] });

    const student = { admission_number: head.admission_number, name: personName(head), arm: head.student_class, status: head.status };
    const [subjects, attendance, fees] = await Promise.all([
      session && term ? this.subjects(found.id, session.id, term, open, withheld) : Promise.resolve(noSubjects),
      session && term && !graduated ? this.attendanceOf(viewer, head.admission_number, session.id, term) : Promise.resolve(null),
      session ? this.feesOf(viewer, head.admission_number, session.id) : Promise.resolve(null),
    ]);
    return {
      student,
      session_id: session?.id ?? null,
      session: session?.name ?? null,
      term,
      history,
      withheld,
      subjects,
      attendance,
      fees,
    };
  }

  /** This term's subjects against the arm's average: only from a released card the viewer may see. */
  private async subjects(
    studentId: number,
    sessionId: number,
    term: Term,
    open: ReadonlySet<string>,
    withheld: StudentDashboard['withheld'],
  ): Promise<StudentDashboard['subjects']> {
    const rows = await termScores(this.db, studentId, sessionId, term);
    const own = rows.filter((r) => r.student_id === studentId);
    if (!own.length) return noSubjects;
    const arm = own[0]!.student_class;
    if (!rows.some((r) => Number(r.released) === 1)) return { state: 'not_released', arm, rows: [] };
    if (withheld.some((w) => w.session_id === sessionId && w.term === term) || !open.has(`${sessionId}|${term}`)) {
      return { state: 'withheld', arm, rows: [] };
    }
    // The card's subject statistics: the domain's ranking over the same rows, in the same order.
    const stats = rankClass(rows.map((r) => ({ student_id: r.student_id, subject: r.subject, score: Number(r.score) }))).subjects;
    return {
      state: 'released',
      arm,
      rows: own
        .map((r) => ({ subject: r.subject, score: Number(r.score), class_average: stats[r.subject]!.average }))
        .sort((a, b) => a.subject.localeCompare(b.subject)),
    };
  }

  /** The attendance summary's own counts (the student's screen), as present / late / absent and a share. */
  private async attendanceOf(
    viewer: Actor,
    admissionNumber: string,
    sessionId: number,
    term: Term,
  ): Promise<StudentDashboard['attendance']> {
    const a = await this.attendance.student(viewer, { admission_number: admissionNumber, session_id: sessionId, term });
    return {
      present: a.counts.present + (a.carried?.present ?? 0),
      late: a.counts.late,
      absent: a.absent,
      percent: attendancePercent(a.present, a.absent),
    };
  }

  /** The statement's own balance for the session (arrears brought forward included). */
  private async feesOf(viewer: Actor, admissionNumber: string, sessionId: number): Promise<StudentDashboard['fees']> {
    const s = await this.statements.statement(
      { id: viewer.id, role: viewer.role, capable: viewer.capable ?? viewer.role === 'admin' },
      { admission_number: admissionNumber, session_id: sessionId },
    );
    return { session_id: s.session_id, session: s.session, balance: s.balance, brought_forward: s.brought_forward, as_of: s.as_of };
  }
}

const noSubjects: StudentDashboard['subjects'] = { state: 'no_results', arm: null, rows: [] };

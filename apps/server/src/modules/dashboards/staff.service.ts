import { averageOver, round2 } from '@portal/domain';
import {
  type DashboardTermQuery,
  type StaffDashboard,
  type StaffFormClass,
  type StaffSubjectProgress,
} from '@portal/domain/dashboard-staff';
import type { AuthUser } from '../../http/auth';
import type { AttendanceService } from '../attendance/attendance.service';
import type { CalendarService } from '../calendar/calendar.service';
import type { SessionsService } from '../calendar/sessions.service';
import type { ReportApprovalsService } from '../results/report-approvals.service';
import type { SettingsService } from '../settings/settings.service';
import type { AssignmentsService } from '../teaching/assignments.service';
import type { TeachingService } from '../teaching/teaching.service';
import type { StaffDashboardRepository } from './staff.repository';
import { dashboardTerm } from './staff-term';

/**
 * The staff dashboard (issue 36.3): the signed-in teacher's own arm-subjects with their score entry
 * progress and class average, and, for a form teacher, each of their arms' register today,
 * absentees with their streaks, and the ratings and comments the report cards still lack. Only the
 * caller's own assignments are read (`myClasses` by the signed-in account), so a teacher never sees
 * another's arms. A fixed number of statements: the roster and scores of the teacher's arms, the
 * school's absentees today, the arms' approvals.
 */
export class StaffDashboardService {
  constructor(
    private readonly repo: StaffDashboardRepository,
    private readonly assignments: Pick<AssignmentsService, 'myClasses'>,
    private readonly teaching: Pick<TeachingService, 'subjectsOf'>,
    private readonly attendance: Pick<AttendanceService, 'absent'>,
    private readonly approvals: Pick<ReportApprovalsService, 'list'>,
    private readonly settings: Pick<SettingsService, 'reportSettings'>,
    private readonly calendar: Pick<CalendarService, 'currentTerm' | 'terms'>,
    private readonly sessions: Pick<SessionsService, 'byId' | 'byName'>,
  ) {}

  async get(actor: AuthUser, q: DashboardTermQuery): Promise<StaffDashboard> {
    const at = await dashboardTerm(this.calendar, this.sessions, q);
    const empty: StaffDashboard = {
      session_id: at.session_id,
      session: at.session,
      term: at.term,
      today: at.today,
      subjects: [],
      form_classes: [],
    };
    if (at.session_id === null) return empty;
    const mine = await this.assignments.myClasses(actor, at.session_id);
    const [subjects, forms] = await Promise.all([
      at.term ? this.progress(at.session_id, at.term, mine.subjects) : Promise.resolve([]),
      at.term ? this.formClasses(actor, at.session_id, at.term, mine.form_classes) : Promise.resolve([]),
    ]);
    return { ...empty, subjects, form_classes: forms };
  }

  /**
   * Each arm-subject's entry as its score sheet counts it, from one grouped read of the scores: the
   * sheet lists the arm's students and anyone with a score in it; `expected` are those taking the
   * subject (from the arm's roster and the subject plan) and those from outside the roster holding a
   * score, `entered` those holding one, the average the sheet's (`round2(sum / count)`). A new score
   * is only ever written for a student taking the subject (`ScoreWriter`), so a roster student with
   * a score is one of the takers; one whose choice changed after the score counts in `entered` only.
   */
  private async progress(
    sessionId: number,
    term: string,
    pairs: readonly { class_name: string; subject: string }[],
  ): Promise<StaffSubjectProgress[]> {
    if (!pairs.length) return [];
    const arms = [...new Set(pairs.map((p) => p.class_name))];
    const [roster, counts] = await Promise.all([
      this.repo.roster(sessionId, arms),
      this.repo.scoreCounts(sessionId, term, arms, [...new Set(pairs.map((p) => p.subject))]),
    ]);
    const takes = await this.teaching.subjectsOf(roster.map((r) => ({ id: Number(r.id), student_class: r.student_class })));
    const takers = new Map<string, number>();
    for (const r of roster)
      for (const subject of takes.get(Number(r.id)) ?? [])
        takers.set(`${r.student_class}|${subject}`, (takers.get(`${r.student_class}|${subject}`) ?? 0) + 1);
    const countOf = new Map(counts.map((c) => [`${c.student_class}|${c.subject}`, c]));
    return pairs.map((p) => {
      const c = countOf.get(`${p.class_name}|${p.subject}`);
      const entered = Number(c?.entered ?? 0);
      const outsiders = entered - Number(c?.in_roster ?? 0);
      return {
        student_class: p.class_name,
        subject: p.subject,
        entered,
        expected: Math.max(entered, (takers.get(`${p.class_name}|${p.subject}`) ?? 0) + outsiders),
        average: entered ? round2(averageOver(Number(c?.total ?? 0), entered)) : null,
      };
    });
  }

  /** The form teacher's arms: today's register and absentees (the absent-today report), and the approvals' counts. */
  private async formClasses(
    actor: AuthUser,
    sessionId: number,
    term: string,
    forms: readonly { class_name: string; students: number }[],
  ): Promise<StaffFormClass[]> {
    if (!forms.length) return [];
    const [today, approvals, settings] = await Promise.all([
      this.attendance.absent({}),
      this.approvals.list(actor, { session_id: sessionId, term }),
      this.settings.reportSettings(sessionId),
    ]);
    const notMarked = new Set(today.arms_not_marked);
    return forms.map((f) => {
      const a = approvals.find((x) => x.student_class === f.class_name);
      const cards = a?.students ?? 0;
      return {
        student_class: f.class_name,
        students: f.students,
        school_day: today.day.school_day,
        register_done: today.day.school_day && !notMarked.has(f.class_name),
        absentees: today.absentees.filter((x) => x.student_class === f.class_name).map(({ student_class: _arm, ...x }) => x),
        cards,
        card_status: a?.status ?? 'draft',
        ratings_missing: Math.max(0, cards - (a?.rated ?? 0)),
        form_comments_missing: Math.max(0, cards - (a?.form_comments ?? 0)),
        comments_required: settings.require_comments,
      };
    });
  }
}

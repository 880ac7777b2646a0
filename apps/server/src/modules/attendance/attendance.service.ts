import {
  ABSENCE_STREAK_ALERT,
  absenceStreaks,
  addDays,
  ATTENDANCE_MESSAGES,
  ATTENDANCE_STATUSES,
  cardDays,
  countMarks,
  datesBetween,
  dayInfo,
  longestStreak,
  personName,
  RESULT_MESSAGES,
  schoolDaysOfTerm,
  termOfDate,
  timesOpened,
  ZERO_COUNTS,
  type AbsentToday,
  type AttendanceStatus,
  type MarkCounts,
  type MonthGrid,
  type Period,
  type SchoolCalendar,
  type StudentAttendance,
  type Term,
  type TermTotals,
  type CurrentTerm,
  byRegisterOrder,
} from '@portal/domain';
import { badRequest, forbidden, notFound } from '../../http/errors';
import type { Around, CalendarService } from '../calendar/calendar.service';
import type { TeachingService } from '../teaching/teaching.service';
import type { AccessScope } from '../access/scope.service';
import type { AttendanceRepository, DatedMark } from './attendance.repository';
import { cmp, marksByStudent, periodOrder, type Actor } from './marks';

export type { Actor } from './marks';
export type { Clock } from '../calendar/school-time.service';

/**
 * The register's views and totals: an arm's month, a student's term, today's absentees, the term
 * totals and the report card's attendance (the entry other modules use: `cardAttendance`). The
 * days and "times opened" are the calendar's; the register itself is `RegisterService`.
 */
export class AttendanceService {
  constructor(
    private readonly repo: AttendanceRepository,
    private readonly calendar: CalendarService,
    private readonly teaching: TeachingService,
    private readonly scope: AccessScope,
  ) {}

  private around(from: string | null, to: string | null): Promise<Around> {
    return this.calendar.around(from, to);
  }

  private session(id: number) {
    return this.calendar.session(id);
  }

  private currentSessionId(): Promise<number | null> {
    return this.calendar.currentSessionId();
  }

  // ---------- views ----------

  /** 403 unless the admin or the arm's form teacher in the session (the access scope's `attendance`). */
  private assertViewer(actor: Actor, sessionId: number | null, cls: string): Promise<void> {
    return this.scope.assertArm(actor, cls, 'attendance', sessionId);
  }

  async month(actor: Actor, q: { student_class: string; month: string }): Promise<MonthGrid> {
    const from = `${q.month}-01`;
    const to = addDays(addDays(from, 32).slice(0, 7) + '-01', -1);
    const lookback = addDays(from, -42);
    const [around] = await Promise.all([this.around(lookback, to), this.teaching.assertClass(q.student_class)]);
    const { cal } = around;
    const inMonth = cal.terms.find((t) => t.starts_on <= to && from <= t.ends_on);
    const sessionId = inMonth ? inMonth.session_id : await this.currentSessionId();
    await this.assertViewer(actor, sessionId, q.student_class);

    const [rows, active] = await Promise.all([
      this.repo.armMarks(q.student_class, lookback, to),
      this.repo.registerStudents(q.student_class, sessionId, null),
    ]);
    const registersOn = new Map<string, Set<string>>();
    const marks: DatedMark[] = [];
    for (const r of rows) {
      registersOn.set(r.date, (registersOn.get(r.date) ?? new Set()).add(r.period));
      if (r.student_id !== null && r.status !== null)
        marks.push({ student_id: Number(r.student_id), date: r.date, period: r.period, status: r.status });
    }
    // Students marked this month though no longer in the arm stay on its grid.
    const ids = new Set(active.map((s) => s.id));
    const others = [...new Set(marks.filter((m) => m.date >= from && !ids.has(m.student_id)).map((m) => m.student_id))];
    const students = [...active, ...(others.length ? await this.repo.studentsByIds(others) : [])].sort(byRegisterOrder);

    const monthDates = datesBetween(from, to);
    const infos = monthDates.map((d) => dayInfo(cal, d));
    const streakDays = datesBetween(lookback, to).filter((d) => dayInfo(cal, d).school_day);
    const firstInMonth = streakDays.findIndex((d) => d >= from);
    const byStudent = marksByStudent(marks);
    const periodsOfDay = (d: string) => [...(registersOn.get(d) ?? [])].sort((a, b) => periodOrder(a) - periodOrder(b));
    const perDayPeriod = new Map<string, AttendanceStatus>();
    for (const m of marks) perDayPeriod.set(`${m.student_id}/${m.date}/${m.period}`, m.status as AttendanceStatus);

    return {
      student_class: q.student_class,
      month: q.month,
      periods_per_day: cal.settings.periods_per_day,
      days: monthDates.map((date, i) => {
        const info = infos[i]!;
        return {
          date,
          school_day: info.school_day,
          note: info.school_day ? null : info.message,
          registers: registersOn.get(date)?.size ?? 0,
        };
      }),
      rows: students.map((s) => {
        const own: Record<string, (AttendanceStatus | null)[]> = {};
        const statuses: AttendanceStatus[] = [];
        for (const date of monthDates) {
          const periods = periodsOfDay(date);
          if (!periods.length) continue;
          own[date] = periods.map((p) => perDayPeriod.get(`${s.id}/${date}/${p}`) ?? null);
          for (const st of own[date]) if (st) statuses.push(st);
        }
        const streaks = absenceStreaks(streakDays, byStudent.get(s.id) ?? new Map());
        const longest = firstInMonth < 0 ? 0 : longestStreak(streaks.slice(firstInMonth));
        return {
          admission_number: s.admission_number,
          name: personName(s),
          marks: own,
          counts: countMarks(statuses),
          longest_streak: longest,
          flagged: longest >= ABSENCE_STREAK_ALERT,
        };
      }),
    };
  }

  async student(actor: Actor, q: { admission_number?: string; session_id?: number; term?: Term }): Promise<StudentAttendance> {
    // The session the summary is of: the one named, else the current term's (the one rule every
    // term-based screen opens on), else the current session. Found once, when first asked.
    let opening = null as CurrentTerm | null;
    let found: Promise<number> | undefined;
    const sessionOf = () =>
      (found ??= (async () => {
        opening = q.session_id === undefined && q.term === undefined ? await this.calendar.currentTerm() : null;
        const id = q.session_id ?? opening?.session_id ?? (await this.currentSessionId());
        if (id === null) throw badRequest({ session_id: [RESULT_MESSAGES.sessionNotFound] });
        return id;
      })());
    // A student reads their own (the number sent is ignored); staff their form arms' students.
    const student = await this.scope.studentFor(actor, q.admission_number, {
      purpose: 'attendance',
      otherwise: 'own',
      unknown: (n) => notFound(RESULT_MESSAGES.studentNotFound(n)),
      sessionId: sessionOf,
    });
    if (!student) throw badRequest({ admission_number: [RESULT_MESSAGES.admissionNumberRequired] });
    const sessionId = await sessionOf();
    const [session, around] = await Promise.all([this.session(sessionId), this.around(null, null)]);

    const own = around.cal.terms.filter((t) => t.session_id === sessionId);
    const term: Term =
      q.term ??
      opening?.term ??
      own.find((t) => t.starts_on <= around.today && around.today <= t.ends_on)?.term ??
      own.filter((t) => t.starts_on <= around.today).sort((a, b) => cmp(b.starts_on, a.starts_on))[0]?.term ??
      '1st';
    const dates = own.find((t) => t.term === term);
    // The term's own events (the calendar read above is around today).
    const cal: SchoolCalendar = dates
      ? { ...around.cal, events: await this.calendar.events({ from: dates.starts_on, to: dates.ends_on }) }
      : around.cal;
    const [marks, carriedRows] = await Promise.all([
      this.repo.studentTermMarks(student.id, sessionId, term),
      this.repo.carried(sessionId, term, [student.id]),
    ]);
    const counts = countMarks(marks.map((m) => m.status as AttendanceStatus));
    const carried = carriedRows[0] ? { present: carriedRows[0].days_present, absent: carriedRows[0].days_absent } : null;
    const days = dates ? schoolDaysOfTerm(cal, dates, around.today) : [];
    const streaks = absenceStreaks(days, marksByStudent(marks).get(student.id) ?? new Map());
    const current = streaks.at(-1) ?? 0;
    return {
      admission_number: student.admission_number,
      name: personName(student),
      student_class: student.student_class,
      session_id: session.id,
      session_name: session.name,
      term,
      times_opened: dates ? timesOpened(cal, dates, around.today) : null,
      counts,
      carried,
      ...cardDays(counts, carried),
      days: marks
        .filter((m) => m.status !== 'present')
        .sort((a, b) => cmp(b.date, a.date) || periodOrder(b.period) - periodOrder(a.period))
        .map((m) => ({ date: m.date, period: m.period as Period, status: m.status as AttendanceStatus })),
      current_streak: current,
      flagged: current >= ABSENCE_STREAK_ALERT,
    };
  }

  async absent(q: { date?: string }): Promise<AbsentToday> {
    const tz = await this.calendar.schoolToday();
    const date = q.date ?? tz.today;
    const [around, rows, arms] = await Promise.all([this.around(date, date), this.repo.absentees(date), this.repo.armsMarked(date)]);
    const day = dayInfo(around.cal, date);
    const term = termOfDate(around.cal, date);
    const days = term ? schoolDaysOfTerm(around.cal, term, date) : [date];
    const ids = [...new Set(rows.map((r) => Number(r.id)))];
    const marks = marksByStudent(await this.repo.marksOfStudents(ids, days[0] ?? date, date));
    const streakOf = new Map(ids.map((id) => [id, absenceStreaks(days, marks.get(id) ?? new Map()).at(-1) ?? 0]));
    const absentees = [...rows]
      .sort((a, b) => cmp(a.student_class, b.student_class) || periodOrder(a.period) - periodOrder(b.period) || byRegisterOrder(a, b))
      .map((r) => {
        const streak = streakOf.get(Number(r.id)) ?? 0;
        return {
          admission_number: r.admission_number,
          name: personName(r),
          student_class: r.student_class,
          period: r.period as Period,
          status: r.status as AttendanceStatus,
          streak,
          flagged: streak >= ABSENCE_STREAK_ALERT,
        };
      });
    return {
      date,
      day,
      absentees,
      arms_not_marked: arms.withStudents.filter((a) => !arms.marked.has(a)),
      arms_marked: arms.marked.size,
    };
  }

  async totals(actor: Actor, q: { session_id: number; term: Term; student_class?: string }): Promise<TermTotals> {
    if (actor.role !== 'admin') {
      if (!q.student_class) throw forbidden(ATTENDANCE_MESSAGES.notStudentOfYours);
      await this.assertViewer(actor, q.session_id, q.student_class);
    }
    await Promise.all([this.session(q.session_id), q.student_class ? this.teaching.assertClass(q.student_class) : null]);
    const [students, counts, carried, opened] = await Promise.all([
      this.repo.totalsStudents(q.session_id, q.term, q.student_class),
      this.repo.termCounts(q.session_id, q.term, { cls: q.student_class }),
      this.repo.carried(q.session_id, q.term, null),
      this.calendar.timesOpened(q.session_id, q.term),
    ]);
    const countsOf = new Map<number, MarkCounts>();
    for (const c of counts) {
      const m = countsOf.get(c.student_id) ?? { ...ZERO_COUNTS };
      if ((ATTENDANCE_STATUSES as readonly string[]).includes(c.status)) m[c.status as AttendanceStatus] += c.n;
      countsOf.set(c.student_id, m);
    }
    const carriedOf = new Map(carried.map((c) => [c.student_id, { present: c.days_present, absent: c.days_absent }]));
    return {
      session_id: q.session_id,
      term: q.term,
      times_opened: opened,
      rows: students
        .sort((a, b) => cmp(a.student_class, b.student_class) || byRegisterOrder(a, b))
        .map((s) => {
          const c = countsOf.get(s.id) ?? { ...ZERO_COUNTS };
          const car = carriedOf.get(s.id) ?? null;
          return {
            admission_number: s.admission_number,
            name: personName(s),
            student_class: s.student_class,
            counts: c,
            carried: car,
            ...cardDays(c, car),
          };
        }),
    };
  }

  /**
   * The report card's attendance from the register: times opened counted from the calendar (null
   * without term dates) and each student's present/absent (register + carried; a student with
   * neither is not in the map). Two statements for any number of students (five with term dates).
   */
  async cardAttendance(
    sessionId: number,
    term: string,
    studentIds: readonly number[],
  ): Promise<{ counted_opened: number | null; byStudent: Map<number, { present: number; absent: number }> }> {
    const [terms, rows] = await Promise.all([this.calendar.terms(), this.repo.cardCounts(sessionId, term, studentIds)]);
    const opened = await this.calendar.timesOpened(sessionId, term, terms);
    const countsOf = new Map<number, MarkCounts>();
    const carriedOf = new Map<number, { present: number; absent: number }>();
    for (const r of rows) {
      if (r.status === '+present' || r.status === '+absent') {
        const c = carriedOf.get(r.student_id) ?? { present: 0, absent: 0 };
        c[r.status === '+present' ? 'present' : 'absent'] = r.n;
        carriedOf.set(r.student_id, c);
      } else if ((ATTENDANCE_STATUSES as readonly string[]).includes(r.status)) {
        const m = countsOf.get(r.student_id) ?? { ...ZERO_COUNTS };
        m[r.status as AttendanceStatus] += r.n;
        countsOf.set(r.student_id, m);
      }
    }
    const byStudent = new Map<number, { present: number; absent: number }>();
    for (const id of new Set([...countsOf.keys(), ...carriedOf.keys()]))
      byStudent.set(id, cardDays(countsOf.get(id) ?? ZERO_COUNTS, carriedOf.get(id) ?? null));
    return { counted_opened: opened, byStudent };
  }
}

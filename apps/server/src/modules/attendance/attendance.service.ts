import {
  SESSION_CLOSED_CODE,
  TEACHING_MESSAGES,
  ABSENCE_STREAK_ALERT,
  absenceStreaks,
  addDays,
  ATTENDANCE_CODES,
  ATTENDANCE_MESSAGES,
  ATTENDANCE_STATUSES,
  cardDays,
  countMarks,
  currentTermOfCalendar,
  datesBetween,
  dayInfo,
  DEFAULT_SCHOOL_SETTINGS,
  longestStreak,
  MAX_TERM_DAYS,
  personName,
  RESULT_MESSAGES,
  schoolDaysOfTerm,
  TERM_VALUES,
  termLabel,
  termOfDate,
  timesOpened,
  todayIn,
  unmarkedDays,
  ZERO_COUNTS,
  type AbsentToday,
  type AttendanceSettings,
  type AttendanceSettingsInput,
  type AttendanceStatus,
  type CalendarEvent,
  type CalendarEventInput,
  type CalendarEventKind,
  type CurrentTerm,
  type DayInfo,
  type MarkCounts,
  type MonthGrid,
  type Period,
  type Register,
  type RegisterQuery,
  type RegisterSave,
  type Role,
  type SchoolCalendar,
  type SchoolCalendarView,
  type StudentAttendance,
  type Term,
  type TermDates,
  type TermDatesInput,
  type TermTotals,
  byRegisterOrder,
} from '@portal/domain';
import { writeAudit } from '../../db/audit';
import { isUniqueViolation } from '../../db/errors';
import { badRequest, forbidden, HttpError, notFound } from '../../http/errors';
import type { SessionsService } from '../calendar/sessions.service';
import type { SettingsService } from '../settings/settings.service';
import type { TeachingService } from '../teaching/teaching.service';
import type { AccessScope } from '../access/scope.service';
import type { AttendanceRepository, DatedMark, RegisterRecord, StudentRow } from './attendance.repository';

export interface Actor {
  id: number;
  role: Role;
}

/** The clock, injectable so tests fix "today"; production uses Date.now. */
export type Clock = () => number;

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const periodOrder = (p: string) => (p === 'afternoon' ? 1 : 0);

const changedConflict = () => new HttpError(409, { detail: ATTENDANCE_MESSAGES.changedByOther, code: ATTENDANCE_CODES.changed });
const closedConflict = (date: string) =>
  new HttpError(409, { detail: ATTENDANCE_MESSAGES.correctionClosed(date), code: ATTENDANCE_CODES.closed });

/** Each student's statuses by date, for the streak rule. */
function marksByStudent(marks: readonly DatedMark[]): Map<number, Map<string, AttendanceStatus[]>> {
  const out = new Map<number, Map<string, AttendanceStatus[]>>();
  for (const m of marks) {
    let days = out.get(m.student_id);
    if (!days) out.set(m.student_id, (days = new Map()));
    days.set(m.date, [...(days.get(m.date) ?? []), m.status as AttendanceStatus]);
  }
  return out;
}

const toEvent = (e: { id: number; name: string; kind: string; starts_on: string; ends_on: string }): CalendarEvent => ({
  id: Number(e.id),
  name: e.name,
  kind: e.kind as CalendarEventKind,
  starts_on: e.starts_on,
  ends_on: e.ends_on,
});

/** The calendar around some dates, and the school's today. */
interface Around {
  cal: SchoolCalendar;
  today: string;
  timeZone: string;
}

/** Who may see or mark an arm's register, and the rows of a register. */
interface RegisterContext extends Around {
  q: RegisterQuery;
  day: DayInfo;
  sessionId: number | null;
  formTeacher: { user_id: number; name: string } | null;
  /** A teacher on a day of a session that is not the current one: read only. */
  sessionClosed: boolean;
}

/**
 * The attendance register: the school calendar, the form teacher's daily register, the
 * views over it and the term totals the report card reads. Rules come from the domain
 * (`dayInfo`, `absenceStreaks`, `cardDays`); every write is one transaction with its audit row.
 */
export class AttendanceService {
  constructor(
    private readonly repo: AttendanceRepository,
    private readonly settings: SettingsService,
    private readonly sessions: SessionsService,
    private readonly teaching: TeachingService,
    private readonly scope: AccessScope,
    private readonly now: Clock = Date.now,
  ) {}

  // ---------- the calendar ----------

  /** The first day of each dated term of a session (the bursar's statement dates its charges by them). */
  async termStarts(sessionId: number): Promise<Partial<Record<Term, string>>> {
    const out: Partial<Record<Term, string>> = {};
    for (const t of await this.repo.termsOfSession(sessionId)) out[t.term as Term] = t.starts_on;
    return out;
  }

  /**
   * The session and term every term-based screen opens on: the calendar's term holding
   * the school's today, else the nearest, among the marked-current session's terms when it has dates
   * (`currentTermOfCalendar`); without term dates, the current session and no term.
   */
  async currentTerm(): Promise<CurrentTerm> {
    const [terms, tz, sessions] = await Promise.all([this.repo.terms(), this.todayAndZone(), this.sessions.list()]);
    const marked = sessions.find((s) => s.is_current) ?? sessions[0];
    const found = currentTermOfCalendar(
      terms.map((t) => ({ session_id: Number(t.session_id), term: t.term as Term, starts_on: t.starts_on, ends_on: t.ends_on })),
      tz.today,
      marked?.id ?? null,
    );
    if (found) {
      const { term } = found;
      return {
        session_id: term.session_id,
        session_name: sessions.find((s) => s.id === term.session_id)?.name ?? null,
        term: term.term,
        starts_on: term.starts_on,
        ends_on: term.ends_on,
        today: tz.today,
        basis: found.basis,
      };
    }
    return {
      session_id: marked?.id ?? null,
      session_name: marked?.name ?? null,
      term: null,
      starts_on: null,
      ends_on: null,
      today: tz.today,
      basis: 'no_calendar',
    };
  }

  /** The school's today and time zone (the bursar's payment dates are checked against it). */
  schoolToday(): Promise<{ today: string; timeZone: string }> {
    return this.todayAndZone();
  }

  /** The school's today in its time zone. */
  private async todayAndZone(): Promise<{ today: string; timeZone: string }> {
    const school = await this.settings.get();
    const timeZone = school.time_zone || DEFAULT_SCHOOL_SETTINGS.time_zone;
    return { today: todayIn(timeZone, new Date(this.now())), timeZone };
  }

  /**
   * Settings, every term's dates (a small table) and the events overlapping [from, to] widened by a
   * term's length (so any term holding a date in it sees all its events).
   */
  private async around(from: string | null, to: string | null): Promise<Around> {
    const [settings, terms, tz] = await Promise.all([this.settings.attendanceSettings(), this.repo.terms(), this.todayAndZone()]);
    const lo = addDays(from ?? tz.today, -MAX_TERM_DAYS);
    const hi = addDays(to ?? tz.today, MAX_TERM_DAYS);
    const events = await this.repo.events({ from: lo, to: hi });
    return {
      cal: { settings, terms: terms.map((t) => ({ ...t, term: t.term as Term })), events: events.map(toEvent) },
      ...tz,
    };
  }

  private async session(id: number) {
    const s = await this.sessions.byId(id);
    if (!s) throw badRequest({ session_id: [RESULT_MESSAGES.sessionNotFound] });
    return s;
  }

  private async currentSessionId(): Promise<number | null> {
    return (await this.sessions.currentOrLatest())?.id ?? null;
  }

  async calendar(sessionId: number): Promise<SchoolCalendarView> {
    const [session, settings, allTerms, counts, tz] = await Promise.all([
      this.session(sessionId),
      this.settings.attendanceSettings(),
      this.repo.terms(),
      this.repo.registerCounts(sessionId),
      this.todayAndZone(),
    ]);
    const own = allTerms.filter((t) => Number(t.session_id) === sessionId);
    const from = own.reduce<string | null>((m, t) => (m === null || t.starts_on < m ? t.starts_on : m), null);
    const to = own.reduce<string | null>((m, t) => (m === null || t.ends_on > m ? t.ends_on : m), null);
    const events = (await this.repo.events(from && to ? { from, to } : null)).map(toEvent);
    const cal: SchoolCalendar = { settings, terms: allTerms.map((t) => ({ ...t, term: t.term as Term })), events };
    return {
      session_id: session.id,
      session_name: session.name,
      settings,
      terms: TERM_VALUES.map((term) => {
        const t = own.find((x) => x.term === term);
        const dates: TermDates | null = t ? { session_id: sessionId, term, starts_on: t.starts_on, ends_on: t.ends_on } : null;
        return {
          session_id: sessionId,
          term,
          starts_on: t?.starts_on ?? null,
          ends_on: t?.ends_on ?? null,
          school_days: dates ? schoolDaysOfTerm(cal, dates).length : null,
          registers: counts.get(term) ?? 0,
        };
      }),
      events,
      today: tz.today,
    };
  }

  async putSettings(actor: Actor, input: AttendanceSettingsInput): Promise<AttendanceSettings> {
    const { cal, today } = await this.around(null, null);
    const term = termOfDate(cal, today);
    // Read before the transaction: SQLite has one connection, held by the transaction.
    const stored = await this.settings.attendanceSettings();
    return this.repo.transaction(async (trx) => {
      if (input.periods_per_day !== stored.periods_per_day && term) {
        const used = await this.repo.registerCounts(term.session_id, trx);
        if (used.get(term.term)) throw badRequest({ periods_per_day: [ATTENDANCE_MESSAGES.periodsLocked] });
      }
      return this.settings.putAttendance(trx, actor.id, {
        periods_per_day: input.periods_per_day,
        saturday_classes: input.saturday_classes,
      });
    });
  }

  async putTerm(actor: Actor, input: TermDatesInput): Promise<TermDates> {
    const [, sessions] = await Promise.all([this.session(input.session_id), this.sessions.list()]);
    const nameOf = new Map(sessions.map((s) => [s.id, s.name]));
    const label = (t: { session_id: number; term: string }) => `${termLabel(t.term)} of ${nameOf.get(Number(t.session_id)) ?? ''}`;
    return this.repo.transaction(async (trx) => {
      const terms = await this.repo.terms(trx);
      const others = terms.filter((t) => !(Number(t.session_id) === input.session_id && t.term === input.term));
      const overlap = others.find((t) => t.starts_on <= input.ends_on && input.starts_on <= t.ends_on);
      if (overlap) throw badRequest({ starts_on: [ATTENDANCE_MESSAGES.termOverlaps(label(overlap))] });
      const idx = TERM_VALUES.indexOf(input.term);
      for (const t of others.filter((x) => Number(x.session_id) === input.session_id)) {
        const j = TERM_VALUES.indexOf(t.term as Term);
        if (j < idx && t.starts_on >= input.starts_on) throw badRequest({ starts_on: [ATTENDANCE_MESSAGES.termOrder(label(t))] });
        // A later term set before this one: this one must end before it.
        if (j > idx && t.starts_on <= input.starts_on) throw badRequest({ ends_on: [ATTENDANCE_MESSAGES.termOrderBefore(label(t))] });
      }
      const outside = await this.repo.registerDatesOutside(input.session_id, input.term, input.starts_on, input.ends_on, trx);
      if (outside.length) {
        const field = outside[0]! < input.starts_on ? 'starts_on' : 'ends_on';
        throw badRequest({ [field]: [ATTENDANCE_MESSAGES.termMarksOutside(outside[0]!, outside.length)] });
      }
      const before = terms.find((t) => Number(t.session_id) === input.session_id && t.term === input.term);
      await this.repo.putTerm(trx, input, actor.id);
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: before ? 'update' : 'create',
        entity: 'school_term',
        entityId: `${input.session_id}/${input.term}`,
        before: before ? { starts_on: before.starts_on, ends_on: before.ends_on } : null,
        after: { starts_on: input.starts_on, ends_on: input.ends_on },
      });
      return { session_id: input.session_id, term: input.term, starts_on: input.starts_on, ends_on: input.ends_on };
    });
  }

  async addEvent(actor: Actor, input: CalendarEventInput): Promise<CalendarEvent> {
    const { cal } = await this.around(input.starts_on, input.ends_on);
    return this.repo.transaction(async (trx) => {
      if (input.kind !== 'school_day') {
        // A day kept a school day by an extra school day event keeps its registers counted.
        const dates = await this.repo.registerDatesBetween(input.starts_on, input.ends_on, trx);
        const dropped = dates.filter((d) => !cal.events.some((e) => e.kind === 'school_day' && e.starts_on <= d && d <= e.ends_on));
        if (dropped.length) throw badRequest({ starts_on: [ATTENDANCE_MESSAGES.eventMarksInside(dropped[0]!, input.name)] });
      }
      const id = await this.repo.insertEvent(trx, input, actor.id);
      const event: CalendarEvent = { id, ...input };
      await writeAudit(trx, { actorUserId: actor.id, action: 'create', entity: 'calendar_event', entityId: id, after: event });
      return event;
    });
  }

  async deleteEvent(actor: Actor, id: number): Promise<void> {
    const stored = await this.repo.event(id);
    if (!stored) throw notFound(ATTENDANCE_MESSAGES.eventNotFound);
    const event = toEvent(stored);
    const around = await this.around(event.starts_on, event.ends_on);
    await this.repo.transaction(async (trx) => {
      if (event.kind === 'school_day') {
        const dates = await this.repo.registerDatesBetween(event.starts_on, event.ends_on, trx);
        const without: SchoolCalendar = { ...around.cal, events: around.cal.events.filter((e) => e.id !== id) };
        const lost = dates.find((d) => !dayInfo(without, d).school_day);
        if (lost) throw badRequest({ non_field_errors: [ATTENDANCE_MESSAGES.eventMarksOnRemove(lost)] });
      }
      await this.repo.deleteEvent(trx, id);
      await writeAudit(trx, { actorUserId: actor.id, action: 'delete', entity: 'calendar_event', entityId: id, before: event });
    });
  }

  // ---------- the register ----------

  /** The arm, the day, and who may see it: 403 for staff who are not the arm's form teacher in the date's session. */
  private async registerContext(actor: Actor, q: RegisterQuery): Promise<RegisterContext> {
    const [around] = await Promise.all([this.around(q.date, q.date), this.teaching.assertClass(q.student_class)]);
    const day = dayInfo(around.cal, q.date);
    const sessionId = day.session_id ?? (await this.currentSessionId());
    const formTeacher = sessionId === null ? null : await this.teaching.formTeacherOf(sessionId, q.student_class);
    if (actor.role !== 'admin' && formTeacher?.user_id !== actor.id) throw forbidden(ATTENDANCE_MESSAGES.formTeacherOnly(q.student_class));
    // Today's register is always the teacher's (today is in the session the school lives in, even
    // before the admin marks it current); another day of a session that is not current is not (30.8).
    const sessionClosed =
      actor.role !== 'admin' &&
      q.date !== around.today &&
      day.session_id !== null &&
      day.session_id !== undefined &&
      day.session_id !== (await this.currentSessionId());
    return { ...around, q, day, sessionId, formTeacher, sessionClosed };
  }

  /** The date in the school's time zone of a stored timestamp. */
  private dayOf(ctx: Around, iso: string): string {
    return todayIn(ctx.timeZone, new Date(iso));
  }

  /** Why the register cannot be saved as asked, as the field error (400) or conflict (409) it becomes. */
  private refusal(actor: Actor, ctx: RegisterContext, saved: RegisterRecord | undefined): HttpError | null {
    const { q, day } = ctx;
    if (!day.school_day) return badRequest({ date: [day.message] });
    if (q.date > ctx.today) return badRequest({ date: [ATTENDANCE_MESSAGES.futureDate] });
    if (q.period === 'afternoon' && ctx.cal.settings.periods_per_day === 1)
      return badRequest({ period: [ATTENDANCE_MESSAGES.periodNotMarked] });
    if (ctx.sessionClosed) return forbidden(TEACHING_MESSAGES.sessionClosed, SESSION_CLOSED_CODE);
    if (actor.role !== 'admin' && saved && this.dayOf(ctx, saved.marked_at) !== ctx.today) return closedConflict(q.date);
    return null;
  }

  /** Absent school days in a row before the date (same term), for each student: one query for the arm. */
  private async streaksBefore(ctx: RegisterContext, students: readonly StudentRow[]): Promise<Map<number, number>> {
    const term = termOfDate(ctx.cal, ctx.q.date);
    const out = new Map<number, number>();
    if (!term) return out;
    const days = schoolDaysOfTerm(ctx.cal, term, addDays(ctx.q.date, -1));
    if (!days.length) return out;
    const marks = marksByStudent(
      await this.repo.marksOfStudents(
        students.map((s) => s.id),
        days[0]!,
        days.at(-1)!,
      ),
    );
    for (const s of students) out.set(s.id, absenceStreaks(days, marks.get(s.id) ?? new Map()).at(-1) ?? 0);
    return out;
  }

  /** The school days of the date's term before today that the arm's register missed. */
  private async unmarkedDaysOf(ctx: RegisterContext): Promise<string[]> {
    const term = termOfDate(ctx.cal, ctx.q.date);
    if (!term) return [];
    const days = schoolDaysOfTerm(ctx.cal, term, addDays(ctx.today, -1));
    if (!days.length) return [];
    const saved = await this.repo.armRegisterDates(ctx.q.student_class, days[0]!, days.at(-1)!);
    return unmarkedDays(days, saved, ctx.cal.settings.periods_per_day, ctx.today);
  }

  /** The register as the page shows it; `known` = the students and marks a save just wrote (not read again). */
  private async presentRegister(
    actor: Actor,
    ctx: RegisterContext,
    saved: RegisterRecord | undefined,
    known?: { students: StudentRow[]; marks: Map<number, AttendanceStatus> },
  ): Promise<Register> {
    const [students, statusOf] = known
      ? [[...known.students], known.marks]
      : await Promise.all([
          this.repo.registerStudents(ctx.q.student_class, saved ? Number(saved.id) : null),
          saved
            ? this.repo.marks(Number(saved.id)).then((ms) => new Map(ms.map((m) => [Number(m.student_id), m.status as AttendanceStatus])))
            : Promise.resolve(new Map<number, AttendanceStatus>()),
        ]);
    students.sort(byRegisterOrder);
    const [streaks, unmarked] = await Promise.all([this.streaksBefore(ctx, students), this.unmarkedDaysOf(ctx)]);
    const refusal = this.refusal(actor, ctx, saved);
    const refusalText = refusal ? String(refusal.body.detail ?? Object.values(refusal.body).flat()[0]) : null;
    return {
      student_class: ctx.q.student_class,
      date: ctx.q.date,
      period: ctx.q.period,
      periods_per_day: ctx.cal.settings.periods_per_day,
      day: ctx.day,
      today: ctx.today,
      saved: saved
        ? {
            version: Number(saved.version),
            marked_by: saved.marked_by_name,
            marked_at: saved.marked_at,
            updated_by: saved.updated_by_name,
            updated_at: saved.updated_at,
          }
        : null,
      may_edit: refusal === null,
      refusal: refusalText,
      form_teacher: ctx.formTeacher?.name ?? null,
      rows: students.map((s) => ({
        admission_number: s.admission_number,
        name: personName(s),
        status: statusOf.get(s.id) ?? null,
        absent_before: streaks.get(s.id) ?? 0,
      })),
      unmarked_days: unmarked,
    };
  }

  async register(actor: Actor, q: RegisterQuery): Promise<Register> {
    const ctx = await this.registerContext(actor, q);
    return this.presentRegister(actor, ctx, await this.repo.register(q.student_class, q.date, q.period));
  }

  async saveRegister(actor: Actor, body: RegisterSave): Promise<Register> {
    const q: RegisterQuery = { student_class: body.student_class, date: body.date, period: body.period };
    const ctx = await this.registerContext(actor, q);
    // Refused before anything is read when the day itself is wrong (not a school day, future, afternoon).
    const dayRefusal = this.refusal(actor, ctx, undefined);
    if (dayRefusal) throw dayRefusal;
    if (!ctx.day.school_day) throw badRequest({ date: [ctx.day.message] });
    const { session_id: sessionId, term } = ctx.day;

    // The register's times come from the service's clock: "first saved today" is read from them.
    const at = new Date(this.now()).toISOString();
    let saved: { students: StudentRow[]; marks: Map<number, AttendanceStatus> };
    try {
      // Everything that depends on the stored register is read once, inside the transaction.
      saved = await this.repo.transaction(async (trx) => {
        const current = await this.repo.register(q.student_class, q.date, q.period, trx);
        const refusal = this.refusal(actor, ctx, current);
        if (refusal) throw refusal;
        const students = await this.repo.registerStudents(q.student_class, current ? Number(current.id) : null, trx);
        const marks = this.checkMarks(body, students);
        if ((current ? Number(current.version) : 0) !== body.version) throw changedConflict();
        let registerId: number;
        let before = new Map<number, string>();
        if (!current) {
          registerId = await this.repo.insertRegister(trx, { ...q, session_id: sessionId, term }, actor.id, at);
        } else {
          registerId = Number(current.id);
          if (!(await this.repo.bumpRegister(trx, registerId, body.version, actor.id, at))) throw changedConflict();
          before = new Map((await this.repo.marks(registerId, trx)).map((m) => [Number(m.student_id), m.status]));
        }
        const changed = marks.filter((m) => before.get(m.student.id) !== m.status);
        await this.repo.upsertMarks(
          trx,
          registerId,
          changed.map((m) => ({ student_id: m.student.id, status: m.status })),
        );
        const correcting = current !== undefined && this.dayOf(ctx, current.marked_at) !== ctx.today;
        await writeAudit(trx, {
          actorUserId: actor.id,
          action: !current ? 'create' : correcting ? 'correct' : 'update',
          entity: 'attendance_register',
          entityId: `${q.student_class}/${q.date}/${q.period}`,
          before: current ? Object.fromEntries(changed.map((m) => [m.student.admission_number, before.get(m.student.id) ?? null])) : null,
          after: Object.fromEntries(changed.map((m) => [m.student.admission_number, m.status])),
        });
        return { students, marks: new Map(marks.map((m) => [m.student.id, m.status])) };
      });
    } catch (err) {
      // Two first saves racing: the loser meets the unique constraint.
      if (isUniqueViolation(err)) throw changedConflict();
      throw err;
    }
    // The answer is what was just written: only the register row (who, when, version) is read again.
    return this.presentRegister(actor, ctx, await this.repo.register(q.student_class, q.date, q.period), saved);
  }

  /** The marks of a save, checked to be exactly the register's students (400 with each problem otherwise). */
  private checkMarks(body: RegisterSave, students: readonly StudentRow[]): { student: StudentRow; status: AttendanceStatus }[] {
    const byAdmission = new Map(students.map((s) => [s.admission_number.toUpperCase(), s]));
    const seen = new Set<number>();
    const errors: Record<string, string[]> = {};
    const marks: { student: StudentRow; status: AttendanceStatus }[] = [];
    body.marks.forEach((m, i) => {
      const s = byAdmission.get(m.admission_number.toUpperCase());
      if (!s) errors[`marks.${i}.admission_number`] = [ATTENDANCE_MESSAGES.markStudentMissing(m.admission_number)];
      else if (seen.has(s.id)) errors[`marks.${i}.admission_number`] = [ATTENDANCE_MESSAGES.markDuplicate(m.admission_number)];
      else {
        seen.add(s.id);
        marks.push({ student: s, status: m.status });
      }
    });
    if (!Object.keys(errors).length && seen.size < students.length)
      errors.marks = [ATTENDANCE_MESSAGES.everyStudent(students.length - seen.size)];
    if (Object.keys(errors).length) throw badRequest(errors);
    return marks;
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
      this.repo.registerStudents(q.student_class, null),
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
        opening = q.session_id === undefined && q.term === undefined ? await this.currentTerm() : null;
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
      ? { ...around.cal, events: (await this.repo.events({ from: dates.starts_on, to: dates.ends_on })).map(toEvent) }
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
    const tz = await this.todayAndZone();
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
      this.countedOpened(q.session_id, q.term),
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

  /** Times school opened in a term up to today (null without term dates). */
  private async countedOpened(
    sessionId: number,
    term: string,
    known?: Awaited<ReturnType<AttendanceRepository['terms']>>,
  ): Promise<number | null> {
    const terms = known ?? (await this.repo.terms());
    const dates = terms.find((t) => Number(t.session_id) === sessionId && t.term === term);
    if (!dates) return null;
    const [settings, tz, events] = await Promise.all([
      this.settings.attendanceSettings(),
      this.todayAndZone(),
      this.repo.events({ from: dates.starts_on, to: dates.ends_on }),
    ]);
    const cal: SchoolCalendar = { settings, terms: terms.map((t) => ({ ...t, term: t.term as Term })), events: events.map(toEvent) };
    return timesOpened(cal, { session_id: sessionId, term: term as Term, starts_on: dates.starts_on, ends_on: dates.ends_on }, tz.today);
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
    const [terms, rows] = await Promise.all([this.repo.terms(), this.repo.cardCounts(sessionId, term, studentIds)]);
    const opened = await this.countedOpened(sessionId, term, terms);
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

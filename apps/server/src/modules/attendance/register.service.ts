import {
  SESSION_CLOSED_CODE,
  TEACHING_MESSAGES,
  absenceStreaks,
  addDays,
  ATTENDANCE_CODES,
  ATTENDANCE_MESSAGES,
  dayInfo,
  personName,
  schoolDaysOfTerm,
  termOfDate,
  unmarkedDays,
  type AttendanceStatus,
  type DayInfo,
  type Register,
  type RegisterQuery,
  type RegisterSave,
  byRegisterOrder,
} from '@portal/domain';
import { writeAudit } from '../../db/audit';
import type { Trx } from '../../db/index';
import { isUniqueViolation } from '../../db/errors';
import { badRequest, forbidden, HttpError } from '../../http/errors';
import type { Around, CalendarService } from '../calendar/calendar.service';
import type { TeachingService } from '../teaching/teaching.service';
import type { AttendanceRepository, RegisterRecord, StudentRow } from './attendance.repository';
import { marksByStudent, type Actor } from './marks';
import { recordAbsenceNotices } from './absence-notice';
import type { Clock } from '../calendar/school-time.service';

const changedConflict = () => new HttpError(409, { detail: ATTENDANCE_MESSAGES.changedByOther, code: ATTENDANCE_CODES.changed });
const closedConflict = (date: string) =>
  new HttpError(409, { detail: ATTENDANCE_MESSAGES.correctionClosed(date), code: ATTENDANCE_CODES.closed });

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
 * The form teacher's daily register: who may see and mark it, the refusals, the save (one
 * transaction with its audit row). The days come from the calendar (`dayInfo`, the school's today).
 */
export class RegisterService {
  constructor(
    private readonly repo: AttendanceRepository,
    private readonly calendar: CalendarService,
    private readonly teaching: TeachingService,
    private readonly now: Clock = Date.now,
  ) {}

  private around(from: string | null, to: string | null): Promise<Around> {
    return this.calendar.around(from, to);
  }

  private currentSessionId(): Promise<number | null> {
    return this.calendar.currentSessionId();
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
    return this.calendar.time.dayOf(ctx.timeZone, iso);
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
          this.repo.registerStudents(ctx.q.student_class, ctx.sessionId, saved ? Number(saved.id) : null),
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
    // Today's register tells parents of absences (decision record 037): the days before today are
    // not changed by this save, so their streaks are read before its transaction.
    const today = q.date === ctx.today;
    const streaks = today
      ? await this.streaksBefore(ctx, await this.repo.registerStudents(q.student_class, ctx.sessionId, null))
      : new Map<number, number>();
    let saved: { students: StudentRow[]; marks: Map<number, AttendanceStatus> } | null;
    try {
      // Everything that depends on the stored register is read once, inside the transaction.
      saved = await this.repo.transaction(async (trx) => {
        const current = await this.repo.register(q.student_class, q.date, q.period, trx);
        const refusal = this.refusal(actor, ctx, current);
        // A replay (the same marks sent again: an answer lost offline) is answered, even once closed.
        if (refusal && !(current && refusal.statusCode === 409 && (await this.storedReplay(body, ctx, current, trx)))) throw refusal;
        const students = await this.repo.registerStudents(q.student_class, ctx.sessionId, current ? Number(current.id) : null, trx);
        const marks = this.checkMarks(body, students);
        // The stored marks, read once: the replay's question and the audit's "before".
        const storedMarks = current ? await this.repo.marks(Number(current.id), trx) : [];
        if (current && (await this.storedReplay(body, ctx, current, trx, { students, marks: storedMarks }))) return null;
        if ((current ? Number(current.version) : 0) !== body.version) throw changedConflict();
        let registerId: number;
        let before = new Map<number, string>();
        if (!current) {
          registerId = await this.repo.insertRegister(trx, { ...q, session_id: sessionId, term }, actor.id, at);
        } else {
          registerId = Number(current.id);
          if (!(await this.repo.bumpRegister(trx, registerId, body.version, actor.id, at))) {
            // Another save got in first (PostgreSQL): the same marks are a replay of it, others a conflict.
            if (await this.storedReplay(body, ctx, current, trx)) return null;
            throw changedConflict();
          }
          before = new Map(storedMarks.map((m) => [Number(m.student_id), m.status]));
        }
        const changed = marks.filter((m) => before.get(m.student.id) !== m.status);
        await this.repo.upsertMarks(
          trx,
          registerId,
          changed.map((m) => ({ student_id: m.student.id, status: m.status })),
        );
        if (today)
          await recordAbsenceNotices(trx, {
            date: q.date,
            student_class: q.student_class,
            absent: marks
              .filter((m) => m.status === 'absent')
              .map((m) => ({ student_id: m.student.id, absent_before: streaks.get(m.student.id) ?? 0 })),
          });
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
      // Two first saves racing: the loser meets the unique constraint (a conflict, unless it sent what the winner stored).
      if (!isUniqueViolation(err)) throw err;
      const stored = await this.repo.register(q.student_class, q.date, q.period);
      if (!stored || !(await this.storedReplay(body, ctx, stored))) throw changedConflict();
      saved = null;
    }
    const stored = await this.repo.register(q.student_class, q.date, q.period);
    // A replay writes nothing and answers the register as stored; a save answers what it just wrote
    // (only the register row, who, when, version, is read again).
    return this.presentRegister(actor, ctx, stored, saved ?? undefined);
  }

  /**
   * Whether the save asks for exactly the marks stored (every student, the same status): then it is a
   * replay (the same save sent again after its answer was lost, or by a second tab), whatever version
   * it was made on, and nothing would change: it is answered 200 with the register as stored, never
   * a 409 and never written twice (docs/decisions/044). `read`: the register's students and marks, when already read.
   */
  private async storedReplay(
    body: RegisterSave,
    ctx: RegisterContext,
    stored: RegisterRecord,
    conn?: Trx,
    read?: { students: readonly StudentRow[]; marks: readonly { student_id: number | string; status: string }[] },
  ): Promise<boolean> {
    const marks = read?.marks ?? (await this.repo.marks(Number(stored.id), conn));
    if (marks.length !== body.marks.length) return false;
    const list = read?.students ?? (await this.repo.registerStudents(body.student_class, ctx.sessionId, Number(stored.id), conn));
    const admission = new Map(list.map((s) => [s.id, s.admission_number.toUpperCase()]));
    const storedBy = new Map(marks.map((m) => [admission.get(Number(m.student_id)), m.status]));
    const sent = new Map(body.marks.map((m) => [m.admission_number.toUpperCase(), m.status]));
    if (sent.size !== storedBy.size) return false;
    for (const [adm, status] of sent) if (storedBy.get(adm) !== status) return false;
    return true;
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
}

// The save procedure the report sheets share: the arm's context (session, form teacher, settings,
// roster), who may see and write it, the request's students, and one versioned, audited transaction.
import {
  ASSESSMENT_MESSAGES,
  REPORT_MESSAGES,
  RESULT_MESSAGES,
  sheetRights,
  sheetWriteRefusal,
  effectiveTimesOpened,
  type CardStatus,
  byRegisterOrder,
} from '@portal/domain';
import type { Trx } from '../../db/index';
import { writeAuditMany, type AuditEntry } from '../../db/audit';
import { badRequest, HttpError } from '../../http/errors';
import type { SettingsService } from '../settings/settings.service';
import type { TeachingService } from '../teaching/teaching.service';
import type { AttendanceService } from '../attendance/attendance.service';
import type { ReportCardsRepository } from './report-cards.repository';
import type { CardEntriesRepository, EntryRow } from './card-entries.repository';
import type { ScoreSheetRepository, SheetStudentRow } from './score-sheet.repository';
import type { SessionRows } from '../calendar/sessions.service';
import type { Actor } from './results.service';
import { blankEntry, audited, RowChanged, changedError, type SheetQuery, type Context, type Planned } from './sheet-rows';

/**
 * What every report sheet of an arm reads and writes through. Who may do what is `sheetWriteRefusal`
 * in the domain; a save is one transaction of a fixed number of statements, all or nothing, each row
 * version-checked and audited.
 */
export class ArmSheetAccess {
  constructor(
    private readonly entries: CardEntriesRepository,
    private readonly roster: ScoreSheetRepository,
    private readonly sessions: SessionRows,
    private readonly teaching: TeachingService,
    private readonly settings: SettingsService,
    private readonly cards: ReportCardsRepository,
    private readonly attendance: Pick<AttendanceService, 'cardAttendance'>,
  ) {}

  /** The term's effective times opened (typed, else counted) and the register's totals of the students. */
  async attendanceOf(q: SheetQuery, studentIds: number[]) {
    const [term, register] = await Promise.all([
      this.sessions.cardTerm(q.session_id, q.term),
      this.attendance.cardAttendance(q.session_id, q.term, studentIds),
    ]);
    const typed = term?.times_opened === null || term?.times_opened === undefined ? null : Number(term.times_opened);
    return { opened: effectiveTimesOpened(typed, register.counted_opened), register: register.byStudent };
  }

  /** The session (400 when there is none). */
  async session(id: number) {
    const s = await this.sessions.getWithOpen(id);
    if (!s) throw badRequest({ session_id: [RESULT_MESSAGES.sessionNotFound] });
    // `open`: the session teachers write in (the current one, or the newest when none is marked; 30.8).
    return { id: s.id, name: s.name, current: s.is_current === 1, open: s.open };
  }

  /**
   * The arm's session, form teacher, settings and roster (the score sheet's students of the arm
   * for the session and term, in register order); 403 for anyone but the form teacher and the admin.
   */
  async context(actor: Actor, q: SheetQuery): Promise<Context> {
    const [session, , formTeacher, settings] = await Promise.all([
      this.session(q.session_id),
      this.teaching.assertClass(q.student_class),
      this.teaching.formTeacherOf(q.session_id, q.student_class),
      this.settings.reportSettings(q.session_id),
    ]);
    const isFormTeacher = formTeacher !== null && formTeacher.user_id === actor.id;
    if (!sheetRights(actor.role, isFormTeacher, 'draft').may_view)
      throw new HttpError(403, { detail: REPORT_MESSAGES.formTeacherOnly(q.student_class) });
    const students = await this.roster.sheetStudents({
      sessionId: session.id,
      term: q.term,
      arm: q.student_class,
      current: session.current,
    });
    return { session, formTeacher, isFormTeacher, settings, students: [...students].sort(byRegisterOrder) };
  }

  /** What a sheet shows of its arm: the status, the actor's rights on it and the form teacher. */
  access(actor: Actor, ctx: Context, status: CardStatus) {
    const rights = sheetRights(actor.role, ctx.isFormTeacher, status, ctx.session.open);
    return {
      status,
      may_edit_form: rights.may_edit_form,
      may_edit_principal: rights.may_edit_principal,
      form_teacher: ctx.formTeacher?.name ?? null,
    };
  }

  /** The arm's status and the stored entries of its roster by student id, as a sheet shows them. */
  async shown(ctx: Context, q: SheetQuery): Promise<{ status: CardStatus; byId: Map<number, EntryRow> }> {
    const [status, stored] = await Promise.all([
      this.cards.armStatus(q.session_id, q.term, q.student_class),
      this.entries.entries(
        ctx.students.map((s) => s.id),
        q.session_id,
        q.term,
      ),
    ]);
    return { status, byId: new Map(stored.map((e) => [e.student_id, e])) };
  }

  /** 403/409 when `actor` may not write `part` of the arm's sheet in its `status`. */
  refuse(actor: Actor, ctx: Context, status: CardStatus, cls: string, part: 'form' | 'principal'): void {
    const refusal = sheetWriteRefusal(actor.role, ctx.isFormTeacher, status, cls, part, ctx.session.open);
    if (refusal)
      throw new HttpError(refusal.status, refusal.code ? { detail: refusal.detail, code: refusal.code } : { detail: refusal.detail });
  }

  /** The request's students in the arm's roster (400 for a duplicate or a student not in it). */
  studentsOf(ctx: Context, q: SheetQuery, rows: readonly { admission_number: string }[]): SheetStudentRow[] {
    const byAdmission = new Map(ctx.students.map((s) => [s.admission_number.toUpperCase(), s]));
    const seen = new Set<string>();
    const errors: Record<string, string[]> = {};
    const out = rows.map((r, i) => {
      const key = r.admission_number.toUpperCase();
      if (seen.has(key)) errors[`rows.${i}.admission_number`] = [ASSESSMENT_MESSAGES.csvDuplicateStudent(r.admission_number)];
      seen.add(key);
      const s = byAdmission.get(key);
      if (!s) errors[`rows.${i}.admission_number`] ??= [REPORT_MESSAGES.notInClass(r.admission_number, q.student_class)];
      return s!;
    });
    if (Object.keys(errors).length) throw badRequest(errors);
    return out;
  }

  /**
   * The start of a save inside its transaction: the arm's status read under it, 403/409 when `actor`
   * may not write `part`, then the stored entries of the students, each checked against the request's
   * version (`versions` null: read under lock, the versions written against are those stored now).
   * A version newer than the stored row's is a 409 at once; an older one is `stale` (the row's plan
   * then says whether it is a replay or a conflict: `settleStale`).
   */
  async openSave(
    trx: Trx,
    actor: Actor,
    ctx: Context,
    q: SheetQuery,
    part: 'form' | 'principal',
    students: readonly SheetStudentRow[],
    versions: readonly number[] | null,
  ): Promise<{ status: CardStatus; stored: EntryRow[]; stale: boolean[] }> {
    const status = await this.cards.armStatus(q.session_id, q.term, q.student_class, trx);
    this.refuse(actor, ctx, status, q.student_class, part);
    const rows = await this.entries.entries(
      students.map((s) => s.id),
      q.session_id,
      q.term,
      trx,
      true,
    );
    const byId = new Map(rows.map((e) => [e.student_id, { ...e, version: Number(e.version) }]));
    const stale: boolean[] = [];
    const stored = students.map((s, i) => {
      const e = byId.get(s.id) ?? blankEntry(s, q.student_class);
      const sent = versions?.[i];
      if (sent !== undefined && sent > e.version) throw new RowChanged(s);
      stale.push(sent !== undefined && sent < e.version);
      return e;
    });
    return { status, stored, stale };
  }

  /**
   * The rows of a plan made on an older version than the stored row's (decision 044, the replay
   * rule): one whose save would change nothing of what the sheet writes is a replay of a save
   * already applied (its answer lost on the way): answered with the row as stored, nothing written,
   * no audit row. One that would change something was changed by someone else meanwhile: 409.
   */
  settleStale(plan: readonly Planned[], stale: readonly boolean[]): void {
    plan.forEach((p, i) => {
      if (stale[i] && p.changed) throw new RowChanged(p.student);
    });
  }

  /**
   * Writes the changed rows of a plan in the caller's transaction (one upsert per 200 rows, one audit
   * insert); a row someone else wrote since it was read is a RowChanged.
   */
  async write(trx: Trx, actor: Actor, q: SheetQuery, plan: readonly Planned[]): Promise<Map<number, number>> {
    const changed = plan.filter((p) => p.changed);
    if (!changed.length) return new Map();
    const done = await this.entries.upsertIfVersion(
      trx,
      q.session_id,
      q.term,
      changed.map((p) => p.next),
      actor.id,
    );
    const audit: AuditEntry[] = [];
    for (const p of changed) {
      if (!done.has(p.student.id)) throw new RowChanged(p.student);
      audit.push({
        actorUserId: actor.id,
        action: p.stored.version ? 'update' : 'create',
        entity: 'report_card_entry',
        entityId: `${q.session_id}/${q.term}/${p.student.admission_number}`,
        before: p.stored.version ? audited(p.stored) : null,
        after: audited(p.next),
      });
    }
    await writeAuditMany(trx, audit);
    return done;
  }

  /** Runs a save's transaction, answering a row changed meanwhile with the 409 after the rollback. */
  async inTransaction<T>(fn: (trx: Trx) => Promise<T>): Promise<T> {
    try {
      return await this.entries.transaction(fn);
    } catch (err) {
      if (err instanceof RowChanged) throw changedError(err.student);
      throw err;
    }
  }
}

// One file (about 550 lines): one service class, the ratings and comments sheets of an arm and the
// term's dates, sharing one save procedure (context, access, plan, one versioned transaction, audit);
// its row helpers are in sheet-rows.ts. Splitting the class changes its construction (the composition root's).
import {
  ASSESSMENT_MESSAGES,
  personName,
  promotionDecision,
  rankClass,
  REPORT_MESSAGES,
  RESULT_MESSAGES,
  sheetRights,
  sheetWriteRefusal,
  suggestComment,
  effectiveTimesOpened,
  unmarkedTimes,
  TERM_VALUES,
  type CommentKind,
  type CommentSheet,
  type CommentSheetRow,
  type CommentSheetSave,
  type CommentSheetSaved,
  type CardStatus,
  type PromotionDecision,
  type RatingSheet,
  type RatingSheetSave,
  type RatingSheetSaved,
  type ReportSettings,
  type ReportTerm,
  type ReportTermInput,
  type Term,
  byRegisterOrder,
} from '@portal/domain';
import type { Trx } from '../../db/index';
import { writeAudit, writeAuditMany, type AuditEntry } from '../../db/audit';
import { badRequest, HttpError } from '../../http/errors';
import type { SettingsService } from '../settings/settings.service';
import type { TeachingService } from '../teaching/teaching.service';
import type { AttendanceService } from '../attendance/attendance.service';
import type { ReportCardsRepository } from './report-cards.repository';
import type { CardEntriesRepository, EntryRow, EntryWrite } from './card-entries.repository';
import { annualFigures, scoresByTerm } from './card-building';
import type { ResultsRepository } from './results.repository';
import type { ScoreSheetRepository, SheetStudentRow } from './score-sheet.repository';
import type { SessionRows } from '../calendar/sessions.service';
import type { Actor } from './results.service';
import {
  parseRatings,
  traitIds,
  shownRatings,
  sortedJson,
  blankEntry,
  audited,
  RowChanged,
  changedError,
  type SheetQuery,
  type Context,
  type Planned,
} from './sheet-rows';

/**
 * The form teacher's and principal's sheets of an arm's report cards (ratings; comments, attendance
 * and promotion), and the term's dates. Who may do what is `sheetWriteRefusal` in the domain; a
 * save is one transaction of a fixed number of statements, all or nothing, each row
 * version-checked and audited.
 */
export class ReportSheetsService {
  constructor(
    private readonly entries: CardEntriesRepository,
    private readonly roster: ScoreSheetRepository,
    private readonly results: ResultsRepository,
    private readonly sessions: SessionRows,
    private readonly teaching: TeachingService,
    private readonly settings: SettingsService,
    private readonly cards: ReportCardsRepository,
    private readonly attendance: Pick<AttendanceService, 'cardAttendance'>,
  ) {}

  /** The term's effective times opened (typed, else counted) and the register's totals of the students. */
  private async attendanceOf(q: SheetQuery, studentIds: number[]) {
    const [term, register] = await Promise.all([
      this.sessions.cardTerm(q.session_id, q.term),
      this.attendance.cardAttendance(q.session_id, q.term, studentIds),
    ]);
    const typed = term?.times_opened === null || term?.times_opened === undefined ? null : Number(term.times_opened);
    return { opened: effectiveTimesOpened(typed, register.counted_opened), register: register.byStudent };
  }

  private async session(id: number) {
    const s = await this.sessions.getWithOpen(id);
    if (!s) throw badRequest({ session_id: [RESULT_MESSAGES.sessionNotFound] });
    // `open`: the session teachers write in (the current one, or the newest when none is marked; 30.8).
    return { id: s.id, name: s.name, current: s.is_current === 1, open: s.open };
  }

  // ---------- term dates ----------

  /** The three terms of a session, each with its dates (null until set). */
  /**
   * The term's times school opened as the card counts it (typed, else the calendar's count; null when
   * neither): the bound of every present + absent, typed on the sheet or carried in from paper.
   */
  async timesOpened(sessionId: number, term: Term): Promise<number | null> {
    return (await this.attendanceOf({ session_id: sessionId, term, student_class: '' }, [])).opened;
  }

  async terms(sessionId: number): Promise<ReportTerm[]> {
    const [, rows] = await Promise.all([this.session(sessionId), this.sessions.cardTerms(sessionId)]);
    return TERM_VALUES.map((term) => {
      const r = rows.find((x) => x.term === term);
      return {
        session_id: sessionId,
        term,
        next_term_begins: r?.next_term_begins ?? null,
        times_opened: r?.times_opened === null || r?.times_opened === undefined ? null : Number(r.times_opened),
      };
    });
  }

  async putTerm(actor: Actor, input: ReportTermInput): Promise<ReportTerm> {
    await this.session(input.session_id);
    await this.entries.transaction(async (trx) => {
      const before = await this.sessions.cardTerm(input.session_id, input.term, trx);
      await this.sessions.putCardTerm(trx, input, actor.id);
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: before ? 'update' : 'create',
        entity: 'report_term',
        entityId: `${input.session_id}/${input.term}`,
        before: before ? { next_term_begins: before.next_term_begins, times_opened: before.times_opened } : null,
        after: { next_term_begins: input.next_term_begins, times_opened: input.times_opened },
      });
    });
    return { ...input };
  }

  // ---------- the arm ----------

  /**
   * The arm's session, form teacher, settings and roster (the score sheet's students of the arm
   * for the session and term, in register order); 403 for anyone but the form teacher and the admin.
   */
  private async context(actor: Actor, q: SheetQuery): Promise<Context> {
    const [session, , formTeacher, settings] = await Promise.all([
      this.session(q.session_id),
      this.teaching.assertClass(q.student_class),
      this.teaching.formTeacherOf(q.session_id, q.student_class),
      this.settings.reportSettings(),
    ]);
    const isFormTeacher = formTeacher !== null && formTeacher.user_id === actor.id;
    if (!sheetRights(actor.role, isFormTeacher, 'draft').may_view)
      throw new HttpError(403, { detail: REPORT_MESSAGES.formTeacherOnly(q.student_class) });
    const students = await this.roster.sheetStudents({
      sessionId: session.id,
      term: q.term,
      studentClass: q.student_class,
      current: session.current,
    });
    return { session, formTeacher, isFormTeacher, settings, students: [...students].sort(byRegisterOrder) };
  }

  private access(actor: Actor, ctx: Context, status: CardStatus) {
    const rights = sheetRights(actor.role, ctx.isFormTeacher, status, ctx.session.open);
    return {
      status,
      may_edit_form: rights.may_edit_form,
      may_edit_principal: rights.may_edit_principal,
      form_teacher: ctx.formTeacher?.name ?? null,
    };
  }

  /** 403/409 when `actor` may not write `part` of the arm's sheet in its `status`. */
  private refuse(actor: Actor, ctx: Context, status: CardStatus, cls: string, part: 'form' | 'principal'): void {
    const refusal = sheetWriteRefusal(actor.role, ctx.isFormTeacher, status, cls, part, ctx.session.open);
    if (refusal)
      throw new HttpError(refusal.status, refusal.code ? { detail: refusal.detail, code: refusal.code } : { detail: refusal.detail });
  }

  /** The request's students in the arm's roster (400 for a duplicate or a student not in it). */
  private studentsOf(ctx: Context, q: SheetQuery, rows: readonly { admission_number: string }[]): SheetStudentRow[] {
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
   * Writes the changed rows of a plan in the caller's transaction (one upsert per 200 rows, one audit
   * insert); a row someone else wrote since it was read is a RowChanged.
   */
  private async write(trx: Trx, actor: Actor, q: SheetQuery, plan: readonly Planned[]): Promise<Map<number, number>> {
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
  private async inTransaction<T>(fn: (trx: Trx) => Promise<T>): Promise<T> {
    try {
      return await this.entries.transaction(fn);
    } catch (err) {
      if (err instanceof RowChanged) throw changedError(err.student);
      throw err;
    }
  }

  /** The stored entries of the students, by student id, each with its version checked against the request. */
  private async storedFor(
    trx: Trx,
    q: SheetQuery,
    students: readonly SheetStudentRow[],
    versions: readonly number[] | null,
  ): Promise<EntryRow[]> {
    const stored = await this.entries.entries(
      students.map((s) => s.id),
      q.session_id,
      q.term,
      trx,
      true,
    );
    const byId = new Map(stored.map((e) => [e.student_id, { ...e, version: Number(e.version) }]));
    return students.map((s, i) => {
      const e = byId.get(s.id) ?? blankEntry(s, q.student_class);
      if (versions && e.version !== versions[i]) throw new RowChanged(s);
      return e;
    });
  }

  // ---------- ratings ----------

  async ratingSheet(actor: Actor, q: SheetQuery): Promise<RatingSheet> {
    const ctx = await this.context(actor, q);
    const [status, stored] = await Promise.all([
      this.cards.armStatus(q.session_id, q.term, q.student_class),
      this.entries.entries(
        ctx.students.map((s) => s.id),
        q.session_id,
        q.term,
      ),
    ]);
    const ids = traitIds(ctx.settings);
    const byId = new Map(stored.map((e) => [e.student_id, e]));
    return {
      ...this.access(actor, ctx, status),
      session_id: q.session_id,
      term: q.term,
      student_class: q.student_class,
      traits: ctx.settings.traits,
      rating_labels: ctx.settings.rating_labels,
      rows: ctx.students.map((s) => {
        const e = byId.get(s.id);
        return {
          admission_number: s.admission_number,
          name: personName(s),
          ratings: shownRatings(parseRatings(e?.ratings), ids),
          version: e ? Number(e.version) : 0,
        };
      }),
    };
  }

  async saveRatings(actor: Actor, body: RatingSheetSave): Promise<RatingSheetSaved> {
    const ctx = await this.context(actor, body);
    const students = this.studentsOf(ctx, body, body.rows);
    const ids = traitIds(ctx.settings);
    const errors: Record<string, string[]> = {};
    body.rows.forEach((r, i) => {
      if (Object.keys(r.ratings).some((k) => !ids.has(k))) errors[`rows.${i}.ratings`] = [REPORT_MESSAGES.unknownTrait];
    });
    if (Object.keys(errors).length) throw badRequest(errors);
    const plan = await this.inTransaction(async (trx) => {
      this.refuse(actor, ctx, await this.cards.armStatus(body.session_id, body.term, body.student_class, trx), body.student_class, 'form');
      const stored = await this.storedFor(
        trx,
        body,
        students,
        body.rows.map((r) => r.version),
      );
      const planned: Planned[] = body.rows.map((r, i) => {
        const before = stored[i]!;
        // Ratings of traits not sent (removed ones among them) are kept.
        const ratings = parseRatings(before.ratings);
        for (const [k, v] of Object.entries(r.ratings)) {
          if (v === null) delete ratings[k];
          else ratings[k] = v;
        }
        const json = sortedJson(ratings);
        const next: EntryWrite = { ...before, student_class: body.student_class, ratings: json };
        return {
          student: students[i]!,
          stored: before,
          next,
          changed: !before.version || json !== sortedJson(parseRatings(before.ratings)),
        };
      });
      // An unchanged row with no entry yet stays without one.
      for (const p of planned) if (!p.stored.version && p.next.ratings === '{}') p.changed = false;
      const done = await this.write(trx, actor, body, planned);
      return planned.map((p) => ({ ...p, version: done.get(p.student.id) ?? p.stored.version }));
    });
    return {
      rows: plan.map((p) => ({
        admission_number: p.student.admission_number,
        version: p.version,
        ratings: shownRatings(parseRatings(p.next.ratings), ids),
      })),
    };
  }

  // ---------- comments, attendance, promotion ----------

  /**
   * The term average, position and (third term) promotion figures of the arm's students, from the
   * ranking the report card uses: one read of the term's scores, and in the third term one of the
   * session's, for the whole arm.
   */
  private async standings(q: SheetQuery, settings: ReportSettings) {
    const [scores, sessionRows] = await Promise.all([
      this.results.classScores(q.session_id, q.term, q.student_class),
      q.term === '3rd'
        ? this.results.cardRows(q.session_id, [...TERM_VALUES], { sessionClassTerm: { studentClass: q.student_class, term: q.term } })
        : Promise.resolve([]),
    ]);
    const ranking = rankClass(scores.map((r) => ({ ...r, score: Number(r.score) })));
    const perStudent = new Map<number, typeof sessionRows>();
    for (const r of sessionRows) {
      // The third term's rows of another arm are not this card's.
      if (r.term === q.term && r.student_class !== q.student_class) continue;
      perStudent.set(r.student_id, [...(perStudent.get(r.student_id) ?? []), r]);
    }
    return (studentId: number) => {
      const standing = ranking.byStudent.get(studentId);
      let promotion: { computed: PromotionDecision; annual_average: number | null } | null = null;
      if (q.term === '3rd') {
        const figures = annualFigures(scoresByTerm(perStudent.get(studentId) ?? []));
        promotion = {
          computed: promotionDecision(settings.promotion, {
            annual_average: figures.annual_average,
            subject_averages: figures.subject_averages,
          }),
          annual_average: figures.annual_average,
        };
      }
      return { average: standing?.average ?? null, position: standing?.position ?? null, promotion };
    };
  }

  private commentRow(
    s: SheetStudentRow,
    e: EntryRow | undefined,
    settings: ReportSettings,
    standing: ReturnType<Awaited<ReturnType<ReportSheetsService['standings']>>>,
    register: { present: number; absent: number } | null,
    opened: number | null,
  ): CommentSheetRow {
    const days_present = e?.days_present === null || e?.days_present === undefined ? null : Number(e.days_present);
    const days_absent = e?.days_absent === null || e?.days_absent === undefined ? null : Number(e.days_absent);
    return {
      admission_number: s.admission_number,
      name: personName(s),
      average: standing.average,
      position: standing.position,
      form_comment: e?.form_comment ?? '',
      principal_comment: e?.principal_comment ?? '',
      suggested_form: suggestComment(settings.comment_bank, 'form', standing.average),
      suggested_principal: suggestComment(settings.comment_bank, 'principal', standing.average),
      days_present,
      days_absent,
      register,
      // The form teacher's totals confirm the term; without them, what the register never marked.
      unmarked:
        days_present !== null || days_absent !== null ? null : unmarkedTimes(opened, register?.present ?? null, register?.absent ?? null),
      promotion: standing.promotion
        ? {
            computed: standing.promotion.computed,
            override: (e?.promotion_override as PromotionDecision | null | undefined) ?? null,
            reason: e?.override_reason ?? '',
            annual_average: standing.promotion.annual_average,
          }
        : null,
      version: e ? Number(e.version) : 0,
    };
  }

  async commentSheet(actor: Actor, q: SheetQuery): Promise<CommentSheet> {
    const ctx = await this.context(actor, q);
    const [status, stored, attendance, standingOf] = await Promise.all([
      this.cards.armStatus(q.session_id, q.term, q.student_class),
      this.entries.entries(
        ctx.students.map((s) => s.id),
        q.session_id,
        q.term,
      ),
      this.attendanceOf(
        q,
        ctx.students.map((s) => s.id),
      ),
      this.standings(q, ctx.settings),
    ]);
    const byId = new Map(stored.map((e) => [e.student_id, e]));
    return {
      ...this.access(actor, ctx, status),
      session_id: q.session_id,
      term: q.term,
      student_class: q.student_class,
      times_opened: attendance.opened,
      require_comments: ctx.settings.require_comments,
      rows: ctx.students.map((s) =>
        this.commentRow(s, byId.get(s.id), ctx.settings, standingOf(s.id), attendance.register.get(s.id) ?? null, attendance.opened),
      ),
    };
  }

  async saveComments(actor: Actor, body: CommentSheetSave): Promise<CommentSheetSaved> {
    const ctx = await this.context(actor, body);
    const students = this.studentsOf(ctx, body, body.rows);
    const [attendance, standingOf] = await Promise.all([
      this.attendanceOf(
        body,
        students.map((s) => s.id),
      ),
      this.standings(body, ctx.settings),
    ]);
    const opened = attendance.opened;
    const saved = await this.inTransaction(async (trx) => {
      const status = await this.cards.armStatus(body.session_id, body.term, body.student_class, trx);
      // Who may write (403, the lock's 409) before anything else; the principal's part once the changes are known.
      this.refuse(actor, ctx, status, body.student_class, 'form');
      const stored = await this.storedFor(
        trx,
        body,
        students,
        body.rows.map((r) => r.version),
      );
      let principal = false;
      const errors: Record<string, string[]> = {};
      const planned: Planned[] = body.rows.map((r, i) => {
        const before = stored[i]!;
        const next: EntryWrite = { ...before, student_class: body.student_class };
        if (r.form_comment !== undefined) next.form_comment = r.form_comment;
        if (r.days_present !== undefined) next.days_present = r.days_present;
        if (r.days_absent !== undefined) next.days_absent = r.days_absent;
        if (r.principal_comment !== undefined) next.principal_comment = r.principal_comment;
        if (r.promotion_override !== undefined) {
          next.promotion_override = r.promotion_override;
          // Clearing the override clears its reason.
          if (r.promotion_override === null) next.override_reason = '';
        }
        if (r.override_reason !== undefined && next.promotion_override !== null) next.override_reason = r.override_reason;
        const formChanged =
          next.form_comment !== before.form_comment || next.days_present !== before.days_present || next.days_absent !== before.days_absent;
        const principalChanged =
          next.principal_comment !== before.principal_comment ||
          next.promotion_override !== before.promotion_override ||
          next.override_reason !== before.override_reason;
        principal ||= principalChanged;

        if (r.promotion_override && body.term !== '3rd') errors[`rows.${i}.promotion_override`] = [REPORT_MESSAGES.promotionThirdTermOnly];
        else if (next.promotion_override && !next.override_reason)
          errors[`rows.${i}.override_reason`] = [REPORT_MESSAGES.overrideReasonRequired];
        const attendanceChanged = next.days_present !== before.days_present || next.days_absent !== before.days_absent;
        if (attendanceChanged && opened !== null && (next.days_present ?? 0) + (next.days_absent ?? 0) > opened)
          errors[`rows.${i}.days_present`] = [REPORT_MESSAGES.attendanceOverOpened(opened)];
        return { student: students[i]!, stored: before, next, changed: formChanged || principalChanged };
      });
      if (principal) this.refuse(actor, ctx, status, body.student_class, 'principal');
      if (Object.keys(errors).length) throw badRequest(errors);
      const done = await this.write(trx, actor, body, planned);
      return planned.map((p) => ({ ...p.next, version: done.get(p.student.id) ?? p.stored.version }));
    });
    return {
      rows: saved.map((e, i) =>
        this.commentRow(
          students[i]!,
          e,
          ctx.settings,
          standingOf(students[i]!.id),
          attendance.register.get(students[i]!.id) ?? null,
          attendance.opened,
        ),
      ),
    };
  }

  /**
   * The comment bank's suggestion for each student's term average, written as the form teacher's
   * (or principal's) comment of every student without one, or of every student with `overwrite`.
   */
  async applySuggestions(actor: Actor, body: SheetQuery & { kind: CommentKind; overwrite: boolean }): Promise<{ applied: number }> {
    const ctx = await this.context(actor, body);
    const standingOf = await this.standings(body, ctx.settings);
    const field = body.kind === 'form' ? 'form_comment' : 'principal_comment';
    const applied = await this.inTransaction(async (trx) => {
      const status = await this.cards.armStatus(body.session_id, body.term, body.student_class, trx);
      this.refuse(actor, ctx, status, body.student_class, body.kind);
      // Read under lock: the versions written against are those stored now.
      const stored = await this.storedFor(trx, body, ctx.students, null);
      const planned: Planned[] = ctx.students.map((s, i) => {
        const before = stored[i]!;
        const text = suggestComment(ctx.settings.comment_bank, body.kind, standingOf(s.id).average);
        const take = text !== '' && text !== before[field] && (body.overwrite || before[field] === '');
        const next: EntryWrite = take ? { ...before, student_class: body.student_class, [field]: text } : before;
        return { student: s, stored: before, next, changed: take };
      });
      await this.write(trx, actor, body, planned);
      return planned.filter((p) => p.changed).length;
    });
    return { applied };
  }
}

import {
  personName,
  REPORT_MESSAGES,
  suggestComment,
  type CommentKind,
  type CommentSheet,
  type CommentSheetSave,
  type CommentSheetSaved,
  type RatingSheet,
  type RatingSheetSave,
  type RatingSheetSaved,
} from '@portal/domain';
import { badRequest } from '../../http/errors';
import type { EntryRow, EntryWrite } from './card-entries.repository';
import type { ResultsRepository } from './results.repository';
import type { SheetStudentRow } from './score-sheet.repository';
import type { Actor } from './results.service';
import type { ArmSheetAccess } from './sheet-access';
import { commentRow, standings } from './comment-standings';
import { parseRatings, traitIds, shownRatings, sortedJson, type SheetQuery, type Context, type Planned } from './sheet-rows';

/**
 * The form teacher's and principal's sheets of an arm's report cards: ratings; comments, attendance
 * and promotion. Each reads and saves through the arm's shared procedure (`ArmSheetAccess`).
 */
export class ReportSheetsService {
  constructor(
    private readonly arms: ArmSheetAccess,
    private readonly results: ResultsRepository,
  ) {}

  // ---------- ratings ----------

  async ratingSheet(actor: Actor, q: SheetQuery): Promise<RatingSheet> {
    const ctx = await this.arms.context(actor, q);
    const { status, byId } = await this.arms.shown(ctx, q);
    const ids = traitIds(ctx.settings);
    return {
      ...this.arms.access(actor, ctx, status),
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
    const ctx = await this.arms.context(actor, body);
    const students = this.arms.studentsOf(ctx, body, body.rows);
    const ids = traitIds(ctx.settings);
    const errors: Record<string, string[]> = {};
    body.rows.forEach((r, i) => {
      if (Object.keys(r.ratings).some((k) => !ids.has(k))) errors[`rows.${i}.ratings`] = [REPORT_MESSAGES.unknownTrait];
    });
    if (Object.keys(errors).length) throw badRequest(errors);
    const plan = await this.arms.inTransaction(async (trx) => {
      const versions = body.rows.map((r) => r.version);
      const { stored, stale } = await this.arms.openSave(trx, actor, ctx, body, 'form', students, versions);
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
      // An older version: the same ratings are a replay (200, nothing written), others a 409.
      this.arms.settleStale(planned, stale);
      const done = await this.arms.write(trx, actor, body, planned);
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
   * The comments sheet's figures of the students (register totals, times opened, standings) and
   * the sheet's row of a student with its entry, read once for the whole arm.
   */
  private async commentFigures(ctx: Context, q: SheetQuery, students: readonly SheetStudentRow[]) {
    const [attendance, standingOf] = await Promise.all([
      this.arms.attendanceOf(
        q,
        students.map((s) => s.id),
      ),
      standings(this.results, q, ctx.settings),
    ]);
    const rowOf = (s: SheetStudentRow, e: EntryRow | undefined) =>
      commentRow(s, e, ctx.settings, standingOf(s.id), attendance.register.get(s.id) ?? null, attendance.opened);
    return { opened: attendance.opened, rowOf };
  }

  async commentSheet(actor: Actor, q: SheetQuery): Promise<CommentSheet> {
    const ctx = await this.arms.context(actor, q);
    const [{ status, byId }, figures] = await Promise.all([this.arms.shown(ctx, q), this.commentFigures(ctx, q, ctx.students)]);
    return {
      ...this.arms.access(actor, ctx, status),
      session_id: q.session_id,
      term: q.term,
      student_class: q.student_class,
      times_opened: figures.opened,
      require_comments: ctx.settings.require_comments,
      rows: ctx.students.map((s) => figures.rowOf(s, byId.get(s.id))),
    };
  }

  async saveComments(actor: Actor, body: CommentSheetSave): Promise<CommentSheetSaved> {
    const ctx = await this.arms.context(actor, body);
    const students = this.arms.studentsOf(ctx, body, body.rows);
    const { opened, rowOf } = await this.commentFigures(ctx, body, students);
    const saved = await this.arms.inTransaction(async (trx) => {
      // Who may write (403, the lock's 409) before anything else; the principal's part once the changes are known.
      const versions = body.rows.map((r) => r.version);
      const { status, stored, stale } = await this.arms.openSave(trx, actor, ctx, body, 'form', students, versions);
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
      // An older version: the same comments, attendance and decision are a replay (200, nothing written), others a 409.
      this.arms.settleStale(planned, stale);
      if (principal) this.arms.refuse(actor, ctx, status, body.student_class, 'principal');
      if (Object.keys(errors).length) throw badRequest(errors);
      const done = await this.arms.write(trx, actor, body, planned);
      return planned.map((p) => ({ ...p.next, version: done.get(p.student.id) ?? p.stored.version }));
    });
    return { rows: saved.map((e, i) => rowOf(students[i]!, e)) };
  }

  /**
   * The comment bank's suggestion for each student's term average, written as the form teacher's
   * (or principal's) comment of every student without one, or of every student with `overwrite`.
   */
  async applySuggestions(actor: Actor, body: SheetQuery & { kind: CommentKind; overwrite: boolean }): Promise<{ applied: number }> {
    const ctx = await this.arms.context(actor, body);
    const standingOf = await standings(this.results, body, ctx.settings);
    const field = body.kind === 'form' ? 'form_comment' : 'principal_comment';
    const applied = await this.arms.inTransaction(async (trx) => {
      // Read under lock: the versions written against are those stored now.
      const { stored } = await this.arms.openSave(trx, actor, ctx, body, body.kind, ctx.students, null);
      const planned: Planned[] = ctx.students.map((s, i) => {
        const before = stored[i]!;
        const text = suggestComment(ctx.settings.comment_bank, body.kind, standingOf(s.id).average);
        const take = text !== '' && text !== before[field] && (body.overwrite || before[field] === '');
        const next: EntryWrite = take ? { ...before, student_class: body.student_class, [field]: text } : before;
        return { student: s, stored: before, next, changed: take };
      });
      await this.arms.write(trx, actor, body, planned);
      return planned.filter((p) => p.changed).length;
    });
    return { applied };
  }
}

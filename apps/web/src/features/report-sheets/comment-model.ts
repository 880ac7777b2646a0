import { COMMENT_MAX, PROMOTION_DECISIONS, REPORT_MESSAGES, type PromotionDecision } from '@portal/domain/report-card-rules';
import { type CommentSheet, type CommentSheetRow } from '@portal/domain/report-cards';
import { type CommentSheetSave } from '@portal/domain/report-card-schemas';
import { parseDays, type Cells } from './sheet-model';

/** A comment row's cells: the text of each field the screen edits. */
export function commentCells(r: CommentSheetRow): Cells {
  return {
    form_comment: r.form_comment,
    principal_comment: r.principal_comment,
    days_present: r.days_present === null ? '' : String(r.days_present),
    days_absent: r.days_absent === null ? '' : String(r.days_absent),
    promotion_override: r.promotion?.override ?? '',
    override_reason: r.promotion?.reason ?? '',
  };
}

/** The problems of a row's cells, keyed by cell, in the server's words. */
export function commentProblems(cells: Cells, timesOpened: number | null): Cells {
  const out: Cells = {};
  for (const k of ['form_comment', 'principal_comment'])
    if ((cells[k] ?? '').trim().length > COMMENT_MAX) out[k] = REPORT_MESSAGES.commentTooLong;
  const present = parseDays(cells.days_present ?? '');
  const absent = parseDays(cells.days_absent ?? '');
  if (!present) out.days_present = REPORT_MESSAGES.attendanceRange;
  if (!absent) out.days_absent = REPORT_MESSAGES.attendanceRange;
  if (present && absent && timesOpened !== null && (present.value ?? 0) + (absent.value ?? 0) > timesOpened)
    out.days_absent = REPORT_MESSAGES.attendanceOverOpened(timesOpened);
  if (cells.promotion_override && !(cells.override_reason ?? '').trim()) out.override_reason = REPORT_MESSAGES.overrideReasonRequired;
  return out;
}

type SaveRow = CommentSheetSave['rows'][number];

/**
 * The fields of one row to send: only those changed and the caller may write (fields left out are
 * not changed, so a form teacher's save never touches the principal's comment). An override and its
 * reason go together.
 */
export function commentSaveRow(
  adm: string,
  row: { cells: Cells; base: Cells; version: number },
  access: Pick<CommentSheet, 'may_edit_form' | 'may_edit_principal'>,
): SaveRow {
  const out: SaveRow = { admission_number: adm, version: row.version };
  const changed = (k: string) => (row.cells[k] ?? '').trim() !== (row.base[k] ?? '').trim();
  if (access.may_edit_form) {
    if (changed('form_comment')) out.form_comment = row.cells.form_comment!.trim();
    if (changed('days_present')) out.days_present = parseDays(row.cells.days_present ?? '')?.value ?? null;
    if (changed('days_absent')) out.days_absent = parseDays(row.cells.days_absent ?? '')?.value ?? null;
  }
  if (access.may_edit_principal) {
    if (changed('principal_comment')) out.principal_comment = row.cells.principal_comment!.trim();
    if (changed('promotion_override') || changed('override_reason')) {
      const o = row.cells.promotion_override ?? '';
      out.promotion_override = (PROMOTION_DECISIONS as readonly string[]).includes(o) ? (o as PromotionDecision) : null;
      out.override_reason = out.promotion_override ? (row.cells.override_reason ?? '').trim() : '';
    }
  }
  return out;
}

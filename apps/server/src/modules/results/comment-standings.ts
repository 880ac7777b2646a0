// The figures of the comments sheet's rows: each student's term average, position and (third term)
// promotion from the ranking the report card uses, and a row as the sheet shows it.
import {
  personName,
  promotionDecision,
  rankClass,
  suggestComment,
  unmarkedTimes,
  TERM_VALUES,
  type CommentSheetRow,
  type PromotionDecision,
  type ReportSettings,
} from '@portal/domain';
import type { EntryRow } from './card-entries.repository';
import { annualFigures, scoresByTerm } from './card-building';
import type { ResultsRepository } from './results.repository';
import type { SheetStudentRow } from './score-sheet.repository';
import type { SheetQuery } from './sheet-rows';

/** A student's standing on the comments sheet. */
export interface Standing {
  average: number | null;
  position: number | null;
  promotion: { computed: PromotionDecision; annual_average: number | null } | null;
}

/**
 * The term average, position and (third term) promotion figures of the arm's students, from the
 * ranking the report card uses: one read of the term's scores, and in the third term one of the
 * session's, for the whole arm.
 */
export async function standings(
  results: ResultsRepository,
  q: SheetQuery,
  settings: ReportSettings,
): Promise<(studentId: number) => Standing> {
  const [scores, sessionRows] = await Promise.all([
    results.classScores(q.session_id, q.term, q.student_class),
    q.term === '3rd'
      ? results.cardRows(q.session_id, [...TERM_VALUES], { sessionClassTerm: { arm: q.student_class, term: q.term } })
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
    let promotion: Standing['promotion'] = null;
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

/** A student's row of the comments sheet: the entry (if any), the standing and the register's totals. */
export function commentRow(
  s: SheetStudentRow,
  e: EntryRow | undefined,
  settings: ReportSettings,
  standing: Standing,
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

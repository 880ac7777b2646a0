import { parseStoredComponents, type Result, type ResultAuditEntry, personName } from '@portal/domain';
import type { ResultRow, ResultsRepository } from './results.repository';

type AuditRow = Awaited<ReturnType<ResultsRepository['listAudit']>>[number];

/** How results look on the API: one place for the row, the subject order and the audit entry. */

/** Subject position in the school's catalogue, by name (teachingService.subjectOrder). */
export type SubjectOrder = ReadonlyMap<string, number>;

/** Compares subject names in catalogue order; a name not in the catalogue follows, by name. */
export function compareSubjects(order: SubjectOrder): (a: string, b: string) => number {
  return (a, b) => {
    const x = order.get(a) ?? Number.MAX_SAFE_INTEGER;
    const y = order.get(b) ?? Number.MAX_SAFE_INTEGER;
    return x - y || a.localeCompare(b);
  };
}

export function presentResult(r: ResultRow): Result {
  return {
    id: r.id,
    admission_number: r.admission_number,
    student_name: personName(r),
    session_id: r.session_id,
    term: r.term,
    student_class: r.student_class,
    subject: r.subject,
    score: r.score,
    components: parseStoredComponents(r.components),
    remarks: r.remarks,
    grade: r.grade,
    version: r.version,
    updated_at: r.updated_at,
  };
}

/** Rows of one student and term in catalogue order; other groupings keep the SQL order. */
export function sortResults(rows: Result[], order: SubjectOrder): Result[] {
  const bySubject = compareSubjects(order);
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => {
      const sameGroup = a.r.admission_number === b.r.admission_number && a.r.session_id === b.r.session_id && a.r.term === b.r.term;
      if (!sameGroup) return a.i - b.i;
      return bySubject(a.r.subject, b.r.subject);
    })
    .map((x) => x.r);
}

/** One result-audit row as the audit screen shows it: the actor named by staff id, admin or email. */
export function presentAuditEntry(r: AuditRow): ResultAuditEntry {
  return {
    id: r.id,
    action: r.action,
    admission_number: r.admission_number,
    student_name: r.first_name ? `${r.first_name} ${r.last_name ?? ''}`.trim() : '',
    session_id: r.session_id,
    session_name: r.session_name ?? '',
    term: r.term,
    student_class: r.student_class,
    subject: r.subject,
    old_score: r.old_score,
    new_score: r.new_score,
    old_components: parseStoredComponents(r.old_components),
    new_components: parseStoredComponents(r.new_components),
    old_remarks: r.old_remarks,
    new_remarks: r.new_remarks,
    old_grade: r.old_grade,
    new_grade: r.new_grade,
    actor: r.staff_id
      ? `${r.staff_first ?? ''} ${r.staff_last ?? ''} (${r.staff_id})`.trim()
      : r.admin_first
        ? `${r.admin_first} ${r.admin_last ?? ''} (admin)`.trim()
        : (r.actor_email ?? null),
    actor_role: r.actor_role ?? null,
    created_at: r.created_at,
    reason: r.reason ?? null,
  };
}

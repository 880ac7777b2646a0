import { RESULT_MESSAGES } from '@portal/domain';
import type { AuditInsert } from './results.repository';
import type { ResultAuditTable } from './results.tables';

/** What a result-audit row says about the result: who and which term and subject. */
export type AuditedResult = Pick<
  ResultAuditTable,
  'result_id' | 'student_id' | 'admission_number' | 'session_id' | 'term' | 'student_class' | 'subject'
>;

/** A result's marks before or after a change; null when it did not exist (create) or no longer does (delete). */
export type Marks = { score: number; components?: string | null; remarks: string; grade: string } | null;

/**
 * The one builder of `result_audit` rows for create, update and delete: old and new marks side by
 * side, the actor, and the reason (required when the term was already released, else null).
 * (A scale change regrades in one set-based INSERT … SELECT: grading.repository.ts `regradeRange`.)
 */
export function resultAuditRow(
  action: 'create' | 'update' | 'delete',
  result: AuditedResult,
  before: Marks,
  after: Marks,
  actorUserId: number,
  reason: string | null,
): AuditInsert {
  return {
    ...result,
    action,
    old_score: before?.score ?? null,
    new_score: after?.score ?? null,
    old_components: before?.components ?? null,
    new_components: after?.components ?? null,
    old_remarks: before?.remarks ?? null,
    new_remarks: after?.remarks ?? null,
    old_grade: before?.grade ?? null,
    new_grade: after?.grade ?? null,
    actor_user_id: actorUserId,
    reason,
  };
}

/**
 * The message asking for a reason when a score change must keep one, or null: the class is released
 * (the student saw the old score), or the session is not the current one (only the admin writes
 * there).
 */
export function reasonNeeded(released: boolean, currentSession: boolean): string | null {
  if (released) return RESULT_MESSAGES.reasonRequired;
  if (!currentSession) return RESULT_MESSAGES.reasonRequiredPastSession;
  return null;
}

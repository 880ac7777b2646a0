import { TEACHING_SCREEN_MESSAGES } from '@portal/domain/teaching-screens';
import { useSession } from '../../../lib/auth-store';
import { currentSubjectNames, useSubjects } from '../../../lib/school-lists';
import { useStudentSubjects } from '../api';

export interface SubjectAccess {
  /** Whether the student's subject list is known (rows can be shown). */
  ready: boolean;
  /** The student's subjects in catalogue order. */
  subjects: string[];
  /** Rows the signed-in user may not write: shown, read-only. */
  locked: (subject: string) => boolean;
  /** Why some or all rows are read-only, shown once above them; '' when none are. */
  note: string;
}

/**
 * The score rows of a student for a term: their own subjects, and which the signed-in user may
 * write. If the list cannot be loaded, the school's catalogue stands in (the server still refuses
 * what the user may not write).
 */
export function useSubjectAccess(admission: string | null, sessionId: string, term: string): SubjectAccess {
  const isAdmin = useSession()?.role === 'admin';
  const plan = useStudentSubjects(admission, sessionId, term);
  const catalogue = useSubjects();
  if (admission === null) return { ready: false, subjects: [], locked: () => false, note: '' };
  if (plan.isError) {
    const subjects = currentSubjectNames(catalogue.data);
    return { ready: catalogue.isSuccess, subjects, locked: () => false, note: '' };
  }
  if (!plan.data) return { ready: false, subjects: [], locked: () => false, note: '' };
  const { subjects, writable, refusal, student_class } = plan.data;
  const canWrite = new Set(writable);
  const locked = (s: string) => !isAdmin && !canWrite.has(s);
  const lockedOwn = subjects.filter(locked);
  const note = refusal ?? (lockedOwn.length ? TEACHING_SCREEN_MESSAGES.readOnlySubjects(lockedOwn.join(', '), student_class) : '');
  return { ready: true, subjects, locked, note };
}

/**
 * The results' response shapes (sessions, results, scales, publications, report card subjects,
 * broadsheets, history), and the ranking rules re-exported. Messages are in result-messages.ts,
 * the field rules and schemas in result-schemas.ts.
 */
import type { Level } from './constants';
import type { GradeBand } from './grading';
import type { AssessmentComponent, ComponentScores } from './assessment';

export * from './ranking';

// ---------- response shapes ----------

export interface AcademicSession {
  id: number;
  name: string;
  is_current: boolean;
}

/** A result as the API gives it, plus what the screens need (student name, version). */
export interface Result {
  id: number;
  admission_number: string;
  student_name: string;
  session_id: number;
  term: string;
  student_class: string;
  subject: string;
  /** The total of the components (or the one score of a single-component scheme). */
  score: number;
  /** Component scores by label; null for a result entered as one score. */
  components: ComponentScores | null;
  remarks: string;
  grade: string;
  version: number;
  updated_at: string;
}

export interface ResultStudent {
  admission_number: string;
  first_name: string;
  last_name: string;
  student_class: string;
  subjects: number;
}

export interface GradingScaleResponse {
  level: Level;
  bands: GradeBand[];
  is_default: boolean;
  updated_at: string | null;
  /** The session this scale grades (the current one unless asked otherwise); null with no session. */
  session_id?: number | null;
  session_name?: string | null;
}

/** What saving a scale would do to the current session's results. */
export interface GradingScalePreview {
  level: Level;
  session_id: number | null;
  session_name: string | null;
  /** Results whose grade would change. */
  changes: number;
  /** Of those, results on released (published) report cards. */
  released_changes: number;
}

export interface Publication {
  id: number;
  session_id: number;
  term: string;
  student_class: string;
  published_at: string;
  published_by: string | null;
}

export interface ResultTermStatus {
  session_id: number;
  session_name: string;
  term: string;
  student_class: string;
  subjects: number;
  released: boolean;
}

/**
 * One subject of a report card. The card lists every subject the student takes; one with no score
 * yet has a null score and position, an empty grade and remark, and null class figures when no one
 * in the class has a score in it.
 */
export interface ReportCardSubject {
  subject: string;
  score: number | null;
  /** Component scores by label (the card's `components`); null when entered as one score or not yet. */
  components: ComponentScores | null;
  /** Labels the student was absent from (shown "ABS", not a zero). */
  absent: string[];
  grade: string;
  remark: string;
  teacher_remarks: string;
  position: number | null;
  class_average: number | null;
  class_highest: number | null;
  class_lowest: number | null;
  /** Third term only: this subject's scores in each term of the session, and their average (null without any). */
  term_scores?: { '1st': number | null; '2nd': number | null; '3rd': number | null; average: number | null };
}

export interface BroadsheetRow {
  admission_number: string;
  name: string;
  /** null: no score, either not entered yet or (when listed in `not_taken`) a subject the student does not take. */
  scores: Record<string, number | null>;
  /** The class's subjects (columns) this student does not take. */
  not_taken: string[];
  /** Component scores by subject, for subjects entered by component. */
  components: Record<string, ComponentScores>;
  total: number;
  subjects_taken: number;
  average: number;
  position: number;
}

export interface BroadsheetClass {
  student_class: string;
  /** The class level's assessment scheme for the session. */
  components: AssessmentComponent[];
  subjects: string[];
  rows: BroadsheetRow[];
  subject_stats: Record<string, { average: number; highest: number; lowest: number; count: number }>;
  /** Each student's position in each subject (ties 1, 1, 3), by admission number then subject. */
  subject_positions: Record<string, Record<string, number>>;
  class_average: number;
  class_size: number;
}

export interface Broadsheet {
  session: { id: number; name: string };
  term: string;
  /** Every class's subjects together, in catalogue order (the whole-school sheet's columns). */
  subjects: string[];
  classes: BroadsheetClass[];
}

export interface ResultAuditEntry {
  id: number;
  action: 'create' | 'update' | 'delete' | 'regrade';
  admission_number: string;
  student_name: string;
  session_id: number;
  session_name: string;
  term: string;
  student_class: string;
  subject: string;
  old_score: number | null;
  new_score: number | null;
  /** Component scores before and after, for results entered by component; null otherwise. */
  old_components: ComponentScores | null;
  new_components: ComponentScores | null;
  old_remarks: string | null;
  new_remarks: string | null;
  old_grade: string | null;
  new_grade: string | null;
  actor: string | null;
  actor_role: string | null;
  created_at: string;
  /** Why a released result was changed, or why it was regraded; null otherwise. */
  reason: string | null;
}

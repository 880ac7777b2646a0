import type { Generated } from 'kysely';
import type { ResultAuditEntry } from '@portal/domain';

/** Tables of the results feature (migration 0003), added to the shared Database type. */
export interface GradingScalesTable {
  level: string;
  /** JSON array of GradeBand */
  bands: string;
  updated_by: number | null;
  updated_at: string;
}

/** A level's scale in one session (migration 0011): the scale that session's results are graded with. */
export interface SessionGradingScalesTable {
  session_id: number;
  level: string;
  /** JSON array of GradeBand */
  bands: string;
  updated_by: number | null;
  updated_at: string;
}

export interface ResultPublicationsTable {
  id: Generated<number>;
  session_id: number;
  term: string;
  student_class: string;
  published_by: number | null;
  published_at: string;
}

/** The columns a result's audit row shares with the API's audit entry: one definition of their types. */
type AuditedValues = Pick<
  ResultAuditEntry,
  'action' | 'admission_number' | 'session_id' | 'term' | 'student_class' | 'subject' | 'old_score' | 'new_score'
> &
  Pick<ResultAuditEntry, 'old_remarks' | 'new_remarks' | 'old_grade' | 'new_grade' | 'created_at'>;

export interface ResultAuditTable extends AuditedValues {
  id: Generated<number>;
  result_id: number;
  student_id: number;
  actor_user_id: number | null;
  /** Why a released result was changed (migration 0011); null otherwise. */
  reason?: string | null;
  /** JSON of ComponentScores before and after (migration 0015); null for one-score results. */
  old_components?: string | null;
  new_components?: string | null;
}

/** A level's assessment scheme in one session (migration 0015). No row: one component of 100. */
export interface AssessmentSchemesTable {
  session_id: number;
  level: string;
  /** JSON array of AssessmentComponent */
  components: string;
  precision: string;
  updated_by: number | null;
  updated_at: string;
}

declare module '../../db/schema' {
  interface Database {
    grading_scales: GradingScalesTable;
    session_grading_scales: SessionGradingScalesTable;
    result_publications: ResultPublicationsTable;
    result_audit: ResultAuditTable;
    assessment_schemes: AssessmentSchemesTable;
  }
}

import type { Generated } from 'kysely';

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

export interface ResultAuditTable {
  id: Generated<number>;
  result_id: number;
  action: 'create' | 'update' | 'delete' | 'regrade';
  student_id: number;
  admission_number: string;
  session_id: number;
  term: string;
  student_class: string;
  subject: string;
  old_score: number | null;
  new_score: number | null;
  old_remarks: string | null;
  new_remarks: string | null;
  old_grade: string | null;
  new_grade: string | null;
  actor_user_id: number | null;
  created_at: string;
  /** Why a released result was changed (migration 0011); null otherwise. */
  reason?: string | null;
}

declare module '../../db/schema' {
  interface Database {
    grading_scales: GradingScalesTable;
    session_grading_scales: SessionGradingScalesTable;
    result_publications: ResultPublicationsTable;
    result_audit: ResultAuditTable;
  }
}

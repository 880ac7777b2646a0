import type { Generated } from 'kysely';

/** Tables of the results feature (migration 0003), added to the shared Database type. */
export interface GradingScalesTable {
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
  action: 'create' | 'update' | 'delete';
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
}

declare module '../../db/schema' {
  interface Database {
    grading_scales: GradingScalesTable;
    result_publications: ResultPublicationsTable;
    result_audit: ResultAuditTable;
  }
}

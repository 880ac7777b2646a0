/** Tables of end-of-session promotion (migration 0036), added to the shared Database type. */
import type { Generated } from 'kysely';

export interface PromotionRunsTable {
  id: Generated<number>;
  from_session_id: number;
  to_session_id: number;
  arm: string | null;
  status: string;
  total: Generated<number>;
  summary: string;
  request: string;
  error: string | null;
  created_by: number | null;
  created_at: string;
  finished_at: string | null;
  undone_by: number | null;
  undone_at: string | null;
}

export interface PromotionMovesTable {
  id: Generated<number>;
  run_id: number | null;
  student_id: number;
  outcome: string;
  from_class: string;
  from_stream_id: number | null;
  from_status: string;
  to_class: string;
  to_stream_id: number | null;
  to_status: string;
  reason: string | null;
  created_by: number | null;
  created_at: string;
}

declare module '../../db/schema' {
  interface Database {
    promotion_runs: PromotionRunsTable;
    promotion_moves: PromotionMovesTable;
  }
}

import type { Generated } from 'kysely';

/** A term card opened regardless of fees (migration 0039, decision 042). */
export interface CardFeeReleasesTable {
  id: Generated<number>;
  student_id: number;
  session_id: number;
  term: string;
  reason: string;
  created_by: number | null;
  created_at: string;
}

declare module '../../db/schema' {
  interface Database {
    card_fee_releases: CardFeeReleasesTable;
  }
}

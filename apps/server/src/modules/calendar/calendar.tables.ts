/**
 * The calendar's table types added to the shared Database type. `academic_sessions` is in the base
 * schema; `report_terms` (migration 0016: each term's "next term begins" and days opened) is a term's
 * row. Results still writes those two fields from the card's sheet until the one term table lands.
 */

export interface ReportTermsTable {
  session_id: number;
  term: string;
  next_term_begins: string | null;
  times_opened: number | null;
  updated_by: number | null;
  updated_at: string;
}

declare module '../../db/schema' {
  interface Database {
    report_terms: ReportTermsTable;
  }
}

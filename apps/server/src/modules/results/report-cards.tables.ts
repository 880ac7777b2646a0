/** Tables of the full report card (migration 0016), added to the shared Database type. */
// A term's card fields (next term begins, times opened) are on the calendar's term row: see ../calendar/calendar.tables.
import '../calendar/calendar.tables';

export interface ReportCardEntriesTable {
  student_id: number;
  session_id: number;
  term: string;
  student_class: string;
  /** JSON object: trait id → rating 1..5. */
  ratings: string;
  form_comment: string;
  principal_comment: string;
  days_present: number | null;
  days_absent: number | null;
  promotion_override: string | null;
  override_reason: string;
  version: number;
  updated_by: number | null;
  updated_at: string;
}

export interface ReportCardStatusTable {
  session_id: number;
  term: string;
  student_class: string;
  /** 'draft' | 'submitted' | 'approved' (released = the class's row in result_publications). */
  status: string;
  submitted_by: number | null;
  submitted_at: string | null;
  approved_by: number | null;
  approved_at: string | null;
  returned_reason: string | null;
  returned_at: string | null;
  updated_at: string;
}

/** What a card or a sheet reads of an entry (everything the form teacher and principal wrote). */
export const ENTRY_FIELDS = [
  'student_id',
  'student_class',
  'ratings',
  'form_comment',
  'principal_comment',
  'days_present',
  'days_absent',
  'promotion_override',
  'override_reason',
] as const;

declare module '../../db/schema' {
  interface Database {
    report_card_entries: ReportCardEntriesTable;
    report_card_status: ReportCardStatusTable;
  }
}

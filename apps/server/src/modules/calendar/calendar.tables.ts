import type { Generated } from 'kysely';

/**
 * The calendar's table types (term dates and events: migration 0017) added to the shared Database type. `academic_sessions` is in the base
 * schema; `report_terms` (migration 0016: each term's "next term begins" and days opened) is a term's
 * row. Results still writes those two fields from the card's sheet until the one term table lands.
 */

export interface SchoolTermsTable {
  session_id: number;
  term: string;
  starts_on: string;
  ends_on: string;
  updated_by: number | null;
  updated_at: string;
}

export interface CalendarEventsTable {
  id: Generated<number>;
  name: string;
  /** 'holiday' | 'mid_term_break' | 'school_day' */
  kind: string;
  starts_on: string;
  ends_on: string;
  created_by: number | null;
  created_at: string;
}

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
    school_terms: SchoolTermsTable;
    calendar_events: CalendarEventsTable;
    report_terms: ReportTermsTable;
  }
}

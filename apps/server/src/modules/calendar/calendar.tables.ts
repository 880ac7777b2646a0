import type { Generated } from 'kysely';

/**
 * The calendar's table types (term rows and events: migration 0017) added to the shared Database type. `academic_sessions` is in the base
 * schema. A term's row holds its dates and the report card's two fields, "next term begins" and times
 * opened (moved from `report_terms` by migration 0031); results reads and writes those through the
 * calendar's `SessionRows` port.
 */

export interface SchoolTermsTable {
  session_id: number;
  term: string;
  /** Empty on a term whose card fields were typed before its dates: the calendar reads dated rows only. */
  starts_on: string | null;
  ends_on: string | null;
  next_term_begins: string | null;
  times_opened: number | null;
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

declare module '../../db/schema' {
  interface Database {
    school_terms: SchoolTermsTable;
    calendar_events: CalendarEventsTable;
  }
}

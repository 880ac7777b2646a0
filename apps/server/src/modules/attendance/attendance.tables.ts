/** Tables of the attendance register and school calendar (migration 0017), added to the shared Database type. */
import type { Generated } from 'kysely';

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

export interface AttendanceRegistersTable {
  id: Generated<number>;
  student_class: string;
  date: string;
  /** 'morning' | 'afternoon' */
  period: string;
  session_id: number;
  term: string;
  version: Generated<number>;
  marked_by: number | null;
  marked_at: string;
  updated_by: number | null;
  updated_at: string;
}

export interface AttendanceMarksTable {
  register_id: number;
  student_id: number;
  /** 'present' | 'late' | 'absent' | 'excused' */
  status: string;
}

export interface AttendanceCarriedTable {
  student_id: number;
  session_id: number;
  term: string;
  days_present: number;
  days_absent: number;
  updated_by: number | null;
  updated_at: string;
}

declare module '../../db/schema' {
  interface Database {
    school_terms: SchoolTermsTable;
    calendar_events: CalendarEventsTable;
    attendance_registers: AttendanceRegistersTable;
    attendance_marks: AttendanceMarksTable;
    attendance_carried: AttendanceCarriedTable;
  }
}

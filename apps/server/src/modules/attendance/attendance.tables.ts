/** Tables of the attendance register (migration 0017), added to the shared Database type; term dates and events: calendar. */
import type { Generated } from 'kysely';

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
    attendance_registers: AttendanceRegistersTable;
    attendance_marks: AttendanceMarksTable;
    attendance_carried: AttendanceCarriedTable;
  }
}

/**
 * The daily attendance register: the school calendar (term dates, holidays and breaks,
 * extra school days), the form teacher's register of an arm for a day, the views over it, and the
 * term's totals that fill the report card's attendance section. This file: the register, its views, the
 * carried-in totals and the screens' words; the marks, messages and totals rules are in
 * attendance-rules.ts, the calendar in attendance-calendar.ts.
 *
 * API (all under /api/attendance, "form teacher" = of the arm in the session of the date):
 *   GET    /calendar/?session_id=              staff, admin  → SchoolCalendarView (terms, events, settings, counts)
 *   PUT    /settings/                          admin         AttendanceSettingsInput → AttendanceSettings
 *   PUT    /terms/                             admin         TermDatesInput → TermDates
 *   POST   /events/                            admin         CalendarEventInput → CalendarEvent (201)
 *   DELETE /events/{id}/                       admin         → 204
 *   GET    /register/?student_class&date&period  form teacher, admin → Register
 *   PUT    /register/                          form teacher, admin  RegisterSave → Register
 *   GET    /month/?student_class&month         form teacher, admin → MonthGrid
 *   GET    /student/?admission_number&session_id&term   student (own; admission_number ignored),
 *                                              form teacher of the student's arm, admin → StudentAttendance
 *   GET    /absent/?date                       admin         → AbsentToday (default: today)
 *   GET    /totals/?session_id&term&student_class  admin (any arm or the whole school), form teacher (own arms) → TermTotals
 *   POST   /carried/import/                    admin         CarriedImport → CarriedImportPreview (dry run by default)
 * The report card's attendance section (`CardAttendance`) and the comment sheet read the totals.

 */
import { z } from 'zod';
import type { Term } from './constants';
import { sessionIdField, termField, classField, admissionNumberField } from './result-schemas';
import { isoDateField } from './report-card-schemas';
import {
  ATTENDANCE_STATUSES,
  type AttendanceStatus,
  PERIODS,
  type Period,
  type AttendanceSettings,
  ATTENDANCE_MESSAGES,
  type MarkCounts,
} from './attendance-rules';
import type { TermDates, CalendarEvent, DayInfo } from './attendance-calendar';

// ---------- the register ----------

export const MAX_REGISTER_ROWS = 200;
export const periodField = z.enum(PERIODS).default('morning');

export const registerQuerySchema = z.object({ student_class: classField, date: isoDateField, period: periodField });
export type RegisterQuery = z.infer<typeof registerQuerySchema>;

export const registerSaveSchema = z.object({
  student_class: classField,
  date: isoDateField,
  period: periodField,
  /** Every student of the arm, each with a status. */
  marks: z
    .array(z.object({ admission_number: admissionNumberField, status: z.enum(ATTENDANCE_STATUSES) }))
    .min(1)
    .max(MAX_REGISTER_ROWS),
  /** The register's version read (0: not saved yet). */
  version: z.number().int().min(0),
});
export type RegisterSave = z.infer<typeof registerSaveSchema>;

export interface RegisterRow {
  admission_number: string;
  name: string;
  /** null: not marked yet. */
  status: AttendanceStatus | null;
  /** Absent school days in a row up to the day before this register (highlighted from ABSENCE_STREAK_ALERT). */
  absent_before: number;
}
export interface Register {
  student_class: string;
  date: string;
  period: Period;
  periods_per_day: 1 | 2;
  day: DayInfo;
  /** The school's today (its time zone). */
  today: string;
  /** null: not marked yet. */
  saved: null | { version: number; marked_by: string | null; marked_at: string; updated_by: string | null; updated_at: string };
  /** The actor may save (or correct) it now. */
  may_edit: boolean;
  /** Why not, when they may not. */
  refusal: string | null;
  form_teacher: string | null;
  rows: RegisterRow[];
  /** The term's school days before today whose register (any of the day's) was never saved, oldest first. */
  unmarked_days: string[];
}

// ---------- views ----------

export const monthQuerySchema = z.object({
  student_class: classField,
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Choose a month (YYYY-MM).'),
});
export interface MonthDay {
  date: string;
  school_day: boolean;
  /** Why not a school day (weekend, a holiday's name, outside the term), or null. */
  note: string | null;
  /** Registers saved for the arm that day (0, 1 or 2). */
  registers: number;
}
export interface MonthRow {
  admission_number: string;
  name: string;
  /** Date → statuses of the day's registers in period order ('' for a register without this student). */
  marks: Record<string, (AttendanceStatus | null)[]>;
  counts: MarkCounts;
  /** The longest run of absent school days in the month (counting from before it). */
  longest_streak: number;
  flagged: boolean;
}
export interface MonthGrid {
  student_class: string;
  month: string;
  periods_per_day: 1 | 2;
  days: MonthDay[];
  rows: MonthRow[];
}

export const studentAttendanceQuerySchema = z.object({
  admission_number: admissionNumberField.optional(),
  session_id: sessionIdField.optional(),
  term: termField.optional(),
});
export interface StudentAttendance {
  admission_number: string;
  name: string;
  student_class: string;
  session_id: number;
  session_name: string;
  term: Term;
  /** Times school opened so far this term (null: no term dates). */
  times_opened: number | null;
  counts: MarkCounts;
  carried: { present: number; absent: number } | null;
  /** Present and absent as the card counts them (register + carried). */
  present: number;
  absent: number;
  /** Days of the term with a mark other than present, newest first. */
  days: { date: string; period: Period; status: AttendanceStatus }[];
  current_streak: number;
  flagged: boolean;
}

export const absentQuerySchema = z.object({ date: isoDateField.optional() });
export interface AbsentToday {
  date: string;
  day: DayInfo;
  absentees: {
    admission_number: string;
    name: string;
    student_class: string;
    period: Period;
    status: AttendanceStatus;
    /** Absent school days in a row up to and including this date. */
    streak: number;
    flagged: boolean;
  }[];
  /** Arms with students that have no register yet for the date (first period). */
  arms_not_marked: string[];
  arms_marked: number;
}

export const totalsQuerySchema = z.object({ session_id: sessionIdField, term: termField, student_class: classField.optional() });
export interface TermTotalsRow {
  admission_number: string;
  name: string;
  student_class: string;
  counts: MarkCounts;
  carried: { present: number; absent: number } | null;
  present: number;
  absent: number;
}
export interface TermTotals {
  session_id: number;
  term: Term;
  times_opened: number | null;
  rows: TermTotalsRow[];
}

export interface SchoolCalendarView {
  session_id: number;
  session_name: string;
  settings: AttendanceSettings;
  terms: (Omit<TermDates, 'starts_on' | 'ends_on'> & {
    starts_on: string | null;
    ends_on: string | null;
    /** School days in the whole term (null: no dates). */
    school_days: number | null;
    /** Registers saved in the term. */
    registers: number;
  })[];
  /** Events inside the session's terms (and any undated ones near them), by date. */
  events: CalendarEvent[];
  today: string;
}

// ---------- carried-in totals (CSV) ----------

export const CARRIED_MAX_ROWS = 5000;
export const carriedImportSchema = z.object({
  session_id: sessionIdField,
  term: termField,
  csv: z.string().max(1_000_000, ATTENDANCE_MESSAGES.csvTooBig),
  dry_run: z.boolean().default(true),
});
export type CarriedImport = z.infer<typeof carriedImportSchema>;
export interface CarriedImportPreview {
  rows: {
    line: number;
    admission_number: string;
    name: string;
    days_present: number;
    days_absent: number;
    change: 'new' | 'update' | 'same';
  }[];
  errors: { line: number; column: string | null; message: string }[];
  applied: boolean;
}

// ---------- screens ----------

export const ATTENDANCE_SCREENS = {
  register: {
    to: '/attendance',
    title: 'Attendance Register',
    label: 'Attendance Register',
    description: 'Mark your form class present, late or absent',
  },
  month: {
    to: '/attendance/month',
    title: 'Attendance by Month',
    label: 'Attendance by Month',
    description: "An arm's month of registers",
  },
  absent: { to: '/attendance/absent', title: 'Absent Today', label: 'Absent Today', description: 'Who is absent across the school' },
  calendar: {
    to: '/school-calendar',
    title: 'School Calendar',
    label: 'School Calendar',
    description: 'Term dates, holidays and registers a day',
  },
  mine: { to: '/my-attendance', title: 'My Attendance', label: 'My Attendance', description: 'Your attendance this term' },
  student: {
    to: '/attendance/student',
    title: 'Student Attendance',
    label: 'Student Attendance',
    description: "A student's attendance for a term",
  },
} as const;

export const ATTENDANCE_LABELS = {
  markAllPresent: 'Mark all present',
  save: 'Save register',
  saved: (when: string, who: string | null) => `Saved ${when}${who ? ` by ${who}` : ''}.`,
  notMarked: 'Not marked yet.',
  unmarked: (n: number) => `${n} not marked`,
  summary: (c: MarkCounts) => `${c.present} present · ${c.late} late · ${c.absent} absent · ${c.excused} with permission`,
  streak: (n: number) => `Absent ${n} school days in a row`,
  noAbsentees: 'Nobody is marked absent.',
  allMarked: 'Every arm has marked its register.',
  timesOpened: 'Times school opened',
  present: 'Times present',
  absent: 'Times absent',
  carried: 'Carried in from paper',
  fromRegister: 'From the register',
  fromFormTeacher: 'Entered by the form teacher',
  timesNotMarked: 'Not marked',
  /** The card's and the comment sheet's note under the totals. */
  notMarkedNote: (n: number, opened: number) =>
    `${n} of the ${opened} times school opened ${n === 1 ? 'was' : 'were'} not marked in the register.`,
  unmarkedDaysTitle: (n: number) => `Days not marked yet (${n})`,
  termAllMarked: 'Every school day of the term so far is marked.',
} as const;

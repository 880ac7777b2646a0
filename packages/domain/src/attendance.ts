// One file (about 590 lines): the register, its calendar, totals and views. The web imports its names
// through the '@portal/domain/attendance' subpath, so moving a name out needs the web's imports
// changed first (its calendar part belongs in calendar.ts).
/**
 * The daily attendance register: the school calendar (term dates, holidays and breaks,
 * extra school days), the form teacher's register of an arm for a day, the views over it, and the
 * term's totals that fill the report card's attendance section. Types, messages, schemas and pure
 * rules, shared by the server and the web client.
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
 *
 * Counting: a school day is a weekday (and a Saturday when the school has Saturday classes) inside a
 * term's dates, not in a holiday or break, or any day inside an extra "school day" event. Times school
 * opened = school days from the term's start to the earlier of its end and today, times the number of
 * registers a day (1, or 2 when the school marks morning and afternoon). Present = present + late;
 * absent = absent + absent with permission; each register of a day counts once. Totals carried in
 * from paper (CSV import) add to the register's.
 */
import { z } from 'zod';
import type { Term } from './constants';
import { textField } from './text';
import { sessionIdField, termField, classField, admissionNumberField } from './results';
import { isoDateField } from './report-card-schemas';

// ---------- statuses ----------

export const ATTENDANCE_STATUSES = ['present', 'late', 'absent', 'excused'] as const;
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number];
export const ATTENDANCE_STATUS_LABELS: Record<AttendanceStatus, string> = {
  present: 'Present',
  late: 'Late',
  absent: 'Absent',
  excused: 'Absent with permission',
};
/** One letter per status for the month grid and the register's buttons. */
export const ATTENDANCE_STATUS_LETTERS: Record<AttendanceStatus, string> = {
  present: 'P',
  late: 'L',
  absent: 'A',
  excused: 'E',
};
/** Late counts as present on the card; absent with permission counts as absent. */
export const COUNTS_AS_PRESENT: Record<AttendanceStatus, boolean> = { present: true, late: true, absent: false, excused: false };

// ---------- registers a day ----------

export const PERIODS = ['morning', 'afternoon'] as const;
export type Period = (typeof PERIODS)[number];
export const PERIOD_LABELS: Record<Period, string> = { morning: 'Morning', afternoon: 'Afternoon' };

// ---------- settings ----------

export interface AttendanceSettings {
  /** 1: one register a day (morning); 2: morning and afternoon, each counting as a time school opened. */
  periods_per_day: 1 | 2;
  /** Every Saturday inside a term is a school day. */
  saturday_classes: boolean;
}
export const DEFAULT_ATTENDANCE_SETTINGS: AttendanceSettings = { periods_per_day: 1, saturday_classes: false };
export const attendanceSettingsSchema = z.object({
  periods_per_day: z.union([z.literal(1), z.literal(2)], { error: 'Registers a day is 1 or 2.' }),
  saturday_classes: z.boolean(),
});
export type AttendanceSettingsInput = z.infer<typeof attendanceSettingsSchema>;

/** The periods of a day under the settings: ['morning'] or ['morning', 'afternoon']. */
export function periodsOf(settings: Pick<AttendanceSettings, 'periods_per_day'>): Period[] {
  return settings.periods_per_day === 2 ? [...PERIODS] : ['morning'];
}

// ---------- messages ----------

/** Longest term, in days from start to end inclusive. */
export const MAX_TERM_DAYS = 140;
/** Longest calendar event, in days. */
export const MAX_EVENT_DAYS = 100;

export const ATTENDANCE_MESSAGES = {
  // calendar
  termEndBeforeStart: 'The term cannot end before it starts.',
  termTooLong: `A term is at most ${MAX_TERM_DAYS} days long.`,
  termOverlaps: (other: string) => `These dates overlap the ${other}.`,
  termInOtherSession: (session: string, from: string, to: string) =>
    `Terms of different sessions never overlap: the ${session} session runs from ${from} to ${to}.`,
  termOrder: (other: string) => `The terms of a session follow each other: this one must come after the ${other}.`,
  termOrderBefore: (other: string) => `The terms of a session follow each other: this one must come before the ${other}.`,
  termMarksOutside: (date: string, n: number) =>
    `Registers were already marked on ${date}${n > 1 ? ` and ${n - 1} other day${n > 2 ? 's' : ''}` : ''}, outside these dates: move those registers first or keep the dates.`,
  eventEndBeforeStart: 'The last day cannot be before the first day.',
  eventTooLong: `A holiday or break is at most ${MAX_EVENT_DAYS} days long.`,
  eventNameRequired: 'Give the holiday or break a name.',
  eventMarksInside: (date: string, name: string) =>
    `Registers were already marked on ${date}, so it cannot become "${name}": it would drop days already counted.`,
  eventMarksOnRemove: (date: string) =>
    `Registers were already marked on ${date}, an extra school day of this event: it cannot be removed.`,
  eventNotFound: 'No such calendar event.',
  periodsLocked: 'Registers have already been marked this term: registers a day can change only before a term has any.',
  // the register
  dateRequired: 'Choose a date.',
  futureDate: 'You cannot mark a register for a day that has not come yet.',
  weekend: (date: string, day: string) => `${date} is a ${day}: not a school day.`,
  holiday: (date: string, name: string) => `${date} is ${name}: not a school day.`,
  outsideTerm: (date: string) => `${date} is not inside any term's dates: no register on that day.`,
  noCalendar: 'The term dates are not set yet: the admin sets them on the School calendar screen.',
  formTeacherOnly: (cls: string) => `Only the form teacher of ${cls} (or the admin) can mark its register.`,
  viewFormTeacherOnly: (cls: string) => `Only the form teacher of ${cls} (or the admin) can see its attendance.`,
  correctionClosed: (date: string) => `The register of ${date} was saved on an earlier day: only the admin can correct it now.`,
  changedByOther: 'Someone else saved this register while you were marking it. Reload it to see their marks, then mark again.',
  periodNotMarked: 'The school marks one register a day: there is no afternoon register.',
  markStudentMissing: (n: string) => `${n} is not in this class.`,
  markDuplicate: (n: string) => `${n} is marked twice.`,
  everyStudent: (n: number) => `Mark every student: ${n} ${n === 1 ? 'is' : 'are'} not marked yet.`,
  notStudentOfYours: 'You can only see the attendance of students in your form class.',
  // carried totals
  csvEmpty: 'The file is empty.',
  csvTooBig: 'The file is too large (at most 1 MB, 5,000 rows).',
  csvHeader: 'The first row must be the header: admission_number, days_present, days_absent.',
  csvUnreadable: 'The file could not be read as CSV: check its quotes and separators.',
  csvUnknownStudent: (n: string) => `${n} is not a student of the school.`,
  csvDuplicate: (n: string) => `${n} appears more than once.`,
  csvDays: 'Days present and absent are whole numbers from 0 to 200.',
  csvHasErrors: (n: number) => `Fix the ${n} error${n === 1 ? '' : 's'} in the file and upload it again; nothing was saved.`,
  csvApplied: (n: number) => `${n} student${n === 1 ? '' : 's'}' carried-in totals saved.`,
} as const;

/** Codes on 409s the client acts on. */
export const ATTENDANCE_CODES = { changed: 'register_changed', closed: 'register_closed' } as const;

// ---------- dates (UTC calendar arithmetic on YYYY-MM-DD) ----------

const DAY_MS = 86_400_000;
const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

export function dayNumber(iso: string): number {
  return Math.round(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
}
export function isoOfDay(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}
export function addDays(iso: string, days: number): string {
  return isoOfDay(dayNumber(iso) + days);
}
/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(iso: string): number {
  return new Date(`${iso}T00:00:00Z`).getUTCDay();
}
export function weekdayName(iso: string): string {
  return WEEKDAY_NAMES[weekdayOf(iso)]!;
}
/** Every date from `from` to `to` inclusive (empty when `to` is before `from`). */
export function datesBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = dayNumber(from), end = dayNumber(to); d <= end; d++) out.push(isoOfDay(d));
  return out;
}
/** Today in the school's time zone: one function, in `calendar.ts` (re-exported for the register's pages). */
export { todayIn } from './calendar';

// ---------- the calendar ----------

export const CALENDAR_EVENT_KINDS = ['holiday', 'mid_term_break', 'school_day'] as const;
export type CalendarEventKind = (typeof CALENDAR_EVENT_KINDS)[number];
export const CALENDAR_EVENT_KIND_LABELS: Record<CalendarEventKind, string> = {
  holiday: 'Holiday',
  mid_term_break: 'Mid-term break',
  school_day: 'Extra school day',
};

export interface TermDates {
  session_id: number;
  term: Term;
  starts_on: string;
  ends_on: string;
}
export interface CalendarEvent {
  id: number;
  name: string;
  kind: CalendarEventKind;
  starts_on: string;
  ends_on: string;
}
/** What the pure rules need to know of the calendar. `terms` may hold several sessions' terms. */
export interface SchoolCalendar {
  settings: AttendanceSettings;
  terms: readonly (TermDates & { session_name?: string })[];
  events: readonly CalendarEvent[];
}

/** Both dates real: only then are they compared (a bad date has its own message). */
const realDates = (v: { starts_on: string; ends_on: string }) =>
  isoDateField.safeParse(v.starts_on).success && isoDateField.safeParse(v.ends_on).success;

export const termDatesSchema = z
  .object({ session_id: sessionIdField, term: termField, starts_on: isoDateField, ends_on: isoDateField })
  .superRefine((v, ctx) => {
    if (!realDates(v)) return;
    if (v.ends_on < v.starts_on) ctx.addIssue({ code: 'custom', path: ['ends_on'], message: ATTENDANCE_MESSAGES.termEndBeforeStart });
    else if (dayNumber(v.ends_on) - dayNumber(v.starts_on) + 1 > MAX_TERM_DAYS)
      ctx.addIssue({ code: 'custom', path: ['ends_on'], message: ATTENDANCE_MESSAGES.termTooLong });
  });
export type TermDatesInput = z.infer<typeof termDatesSchema>;

export const calendarEventSchema = z
  .object({
    name: textField('Name', { required: ATTENDANCE_MESSAGES.eventNameRequired })
      .trim()
      .min(1, ATTENDANCE_MESSAGES.eventNameRequired)
      .max(80),
    kind: z.enum(CALENDAR_EVENT_KINDS),
    starts_on: isoDateField,
    ends_on: isoDateField,
  })
  .superRefine((v, ctx) => {
    if (!realDates(v)) return;
    if (v.ends_on < v.starts_on) ctx.addIssue({ code: 'custom', path: ['ends_on'], message: ATTENDANCE_MESSAGES.eventEndBeforeStart });
    else if (dayNumber(v.ends_on) - dayNumber(v.starts_on) + 1 > MAX_EVENT_DAYS)
      ctx.addIssue({ code: 'custom', path: ['ends_on'], message: ATTENDANCE_MESSAGES.eventTooLong });
  });
export type CalendarEventInput = z.infer<typeof calendarEventSchema>;
export const calendarQuerySchema = z.object({ session_id: sessionIdField });

/** What a date is: a school day of a term, or not, with the message to show. */
export type DayInfo =
  | { school_day: true; session_id: number; term: Term }
  | { school_day: false; reason: 'weekend' | 'holiday' | 'outside_term'; message: string; session_id: number | null; term: Term | null };

/** The term whose dates hold `date`, if any. */
export function termOfDate(cal: Pick<SchoolCalendar, 'terms'>, date: string): TermDates | undefined {
  return cal.terms.find((t) => t.starts_on <= date && date <= t.ends_on);
}

/** Is `date` a school day? Extra school days win over holidays; holidays over the weekday rule. */
export function dayInfo(cal: SchoolCalendar, date: string): DayInfo {
  const term = termOfDate(cal, date);
  if (!term)
    return { school_day: false, reason: 'outside_term', message: ATTENDANCE_MESSAGES.outsideTerm(date), session_id: null, term: null };
  const at = { session_id: term.session_id, term: term.term };
  const covering = cal.events.filter((e) => e.starts_on <= date && date <= e.ends_on);
  if (covering.some((e) => e.kind === 'school_day')) return { school_day: true, ...at };
  const off = covering.find((e) => e.kind !== 'school_day');
  if (off) return { school_day: false, reason: 'holiday', message: ATTENDANCE_MESSAGES.holiday(date, off.name), ...at };
  const wd = weekdayOf(date);
  if (wd === 0 || (wd === 6 && !cal.settings.saturday_classes))
    return { school_day: false, reason: 'weekend', message: ATTENDANCE_MESSAGES.weekend(date, weekdayName(date)), ...at };
  return { school_day: true, ...at };
}

/** The school days of a term from its start to the earlier of its end and `upTo` (inclusive). */
export function schoolDaysOfTerm(cal: SchoolCalendar, term: TermDates, upTo?: string): string[] {
  const last = upTo !== undefined && upTo < term.ends_on ? upTo : term.ends_on;
  return datesBetween(term.starts_on, last).filter((d) => {
    const info = dayInfo(cal, d);
    return info.school_day && info.session_id === term.session_id && info.term === term.term;
  });
}

/** Times school opened in a term up to `upTo`: its school days times the registers a day. */
export function timesOpened(cal: SchoolCalendar, term: TermDates, upTo?: string): number {
  return schoolDaysOfTerm(cal, term, upTo).length * cal.settings.periods_per_day;
}

/**
 * The term's "times school opened" for the card: what the admin typed on the report card settings
 * (an override, kept from before the register) when set, else the calendar's count, else null.
 */
export function effectiveTimesOpened(typed: number | null, counted: number | null): number | null {
  return typed ?? counted;
}

// ---------- totals and streaks ----------

export interface MarkCounts {
  present: number;
  late: number;
  absent: number;
  excused: number;
}
export const ZERO_COUNTS: MarkCounts = { present: 0, late: 0, absent: 0, excused: 0 };

export function countMarks(statuses: Iterable<AttendanceStatus>): MarkCounts {
  const c = { ...ZERO_COUNTS };
  for (const s of statuses) c[s]++;
  return c;
}

/**
 * Times school opened that neither the register nor a carried-in total accounts for:
 * "opened 48, present 4, absent 0" leaves 44 never marked, which must not read as presence. Null
 * when times opened is not known.
 */
export function unmarkedTimes(opened: number | null, present: number | null, absent: number | null): number | null {
  if (opened === null) return null;
  return Math.max(0, opened - (present ?? 0) - (absent ?? 0));
}

/** The school days before `today` (of those given) with fewer registers saved than the day has periods. */
export function unmarkedDays(days: readonly string[], saved: readonly { date: string }[], periodsPerDay: number, today: string): string[] {
  const n = new Map<string, number>();
  for (const r of saved) n.set(r.date, (n.get(r.date) ?? 0) + 1);
  return days.filter((d) => d < today && (n.get(d) ?? 0) < periodsPerDay);
}

/** The card's present and absent from the register's counts and any carried-in totals. */
export function cardDays(counts: MarkCounts, carried: { present: number; absent: number } | null): { present: number; absent: number } {
  return {
    present: counts.present + counts.late + (carried?.present ?? 0),
    absent: counts.absent + counts.excused + (carried?.absent ?? 0),
  };
}

/** A day is an absent day when every register of it that was marked says absent (with permission or not). */
export function absentDay(statuses: readonly AttendanceStatus[]): boolean {
  return statuses.length > 0 && statuses.every((s) => !COUNTS_AS_PRESENT[s]);
}

/** Highlighted: absent this many school days in a row or more. */
export const ABSENCE_STREAK_ALERT = 3;

/**
 * Consecutive absent school days ending at each school day: `days` are the school days in order,
 * `marks` the student's statuses by date (a day without a mark breaks nothing and adds nothing;
 * only a day marked present or late ends a streak). Returns the streak ending on each day.
 */
export function absenceStreaks(days: readonly string[], marks: ReadonlyMap<string, readonly AttendanceStatus[]>): number[] {
  const out: number[] = [];
  let run = 0;
  for (const d of days) {
    const m = marks.get(d);
    if (m && m.length) run = absentDay(m) ? run + 1 : 0;
    out.push(run);
  }
  return out;
}

export function longestStreak(streaks: readonly number[]): number {
  return streaks.reduce((a, b) => Math.max(a, b), 0);
}

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

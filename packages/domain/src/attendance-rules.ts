/**
 * Attendance marks: the statuses, the registers of a day, the settings, the messages, the date
 * arithmetic, and the term's totals and absence streaks (constants and pure rules). The calendar is
 * in attendance-calendar.ts; the register, its views and screens in attendance.ts.
 *
 * Counting: a school day is a weekday (and a Saturday when the school has Saturday classes) inside a
 * term's dates, not in a holiday or break, or any day inside an extra "school day" event. Times school
 * opened = school days from the term's start to the earlier of its end and today, times the number of
 * registers a day (1, or 2 when the school marks morning and afternoon). Present = present + late;
 * absent = absent + absent with permission; each register of a day counts once. Totals carried in
 * from paper (CSV import) add to the register's.
 */
import { z } from 'zod';
import { valuesOf } from './choices';

// ---------- statuses ----------

export const ATTENDANCE_STATUS_LABELS = { present: 'Present', late: 'Late', absent: 'Absent', excused: 'Absent with permission' };
export type AttendanceStatus = keyof typeof ATTENDANCE_STATUS_LABELS;
export const ATTENDANCE_STATUSES = valuesOf(ATTENDANCE_STATUS_LABELS);
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

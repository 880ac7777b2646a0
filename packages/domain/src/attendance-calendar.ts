/**
 * The school calendar: term dates, holidays, breaks and extra school days, their schemas, and the
 * day rules over them (`dayInfo`, the school days of a term, times school opened).
 */
import { z } from 'zod';
import { valuesOf } from './choices';
import type { Term } from './constants';
import { textField } from './text';
import { sessionIdField, termField } from './result-schemas';
import { isoDateField } from './report-card-schemas';
import {
  type AttendanceSettings,
  MAX_TERM_DAYS,
  MAX_EVENT_DAYS,
  ATTENDANCE_MESSAGES,
  dayNumber,
  weekdayOf,
  weekdayName,
  datesBetween,
} from './attendance-rules';

// ---------- the calendar ----------

export const CALENDAR_EVENT_KIND_LABELS = { holiday: 'Holiday', mid_term_break: 'Mid-term break', school_day: 'Extra school day' };
export type CalendarEventKind = keyof typeof CALENDAR_EVENT_KIND_LABELS;
export const CALENDAR_EVENT_KINDS = valuesOf(CALENDAR_EVENT_KIND_LABELS);

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

/**
 * The range rule of term dates and events: the end not before the start, and at most `maxDays` days,
 * both counted. Checked only when both dates are real (a bad date has its own message).
 */
const dateRange =
  (maxDays: number, endBeforeStart: string, tooLong: string) => (v: { starts_on: string; ends_on: string }, ctx: z.RefinementCtx) => {
    if (!isoDateField.safeParse(v.starts_on).success || !isoDateField.safeParse(v.ends_on).success) return;
    if (v.ends_on < v.starts_on) ctx.addIssue({ code: 'custom', path: ['ends_on'], message: endBeforeStart });
    else if (dayNumber(v.ends_on) - dayNumber(v.starts_on) + 1 > maxDays)
      ctx.addIssue({ code: 'custom', path: ['ends_on'], message: tooLong });
  };

export const termDatesSchema = z
  .object({ session_id: sessionIdField, term: termField, starts_on: isoDateField, ends_on: isoDateField })
  .superRefine(dateRange(MAX_TERM_DAYS, ATTENDANCE_MESSAGES.termEndBeforeStart, ATTENDANCE_MESSAGES.termTooLong));
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
  .superRefine(dateRange(MAX_EVENT_DAYS, ATTENDANCE_MESSAGES.eventEndBeforeStart, ATTENDANCE_MESSAGES.eventTooLong));
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

import {
  DEFAULT_TIME_ZONE,
  formatDate as formatDateIn,
  formatDateTime as formatDateTimeIn,
  formatPaidWhen as formatPaidWhenIn,
} from '@portal/domain/datetime';
import { schoolDayOf, todayIn, yearIn } from '@portal/domain/calendar';

/**
 * Dates and times on every screen: the shared formatter of packages/domain (the server's PDFs use
 * it too) in the school's time zone, not the browser's. The zone comes from the school settings
 * (set when they load; Africa/Lagos until then).
 */
let schoolTimeZone = DEFAULT_TIME_ZONE;

export function setSchoolTimeZone(timeZone: string | undefined): void {
  schoolTimeZone = timeZone || DEFAULT_TIME_ZONE;
}

/** The school's today (YYYY-MM-DD) in its time zone, not the browser's (a date input's `max`). */
export function schoolToday(now: Date = new Date()): string {
  return todayIn(schoolTimeZone, now);
}

/** The school's day (YYYY-MM-DD) of a stored instant, in its time zone (`timeZone`: a document's own). */
export function schoolDay(instant: string, timeZone: string | undefined = schoolTimeZone): string {
  return schoolDayOf(instant, timeZone || schoolTimeZone);
}

/** The school's calendar year now, in its time zone. */
export function schoolYear(now: Date = new Date()): number {
  return yearIn(schoolTimeZone, now);
}

export function formatDateTime(value: string | null | undefined, timeZone = schoolTimeZone): string {
  return formatDateTimeIn(value, timeZone);
}

export function formatDate(value: string | null | undefined, timeZone = schoolTimeZone): string {
  return formatDateIn(value, timeZone);
}

/** When a payment was made: an offline payment's day (no made-up time), an online one's moment. */
export function formatPaidWhen(
  p: { paid_on?: string | null; paid_at: string | null; created_at?: string },
  timeZone = schoolTimeZone,
): string {
  return formatPaidWhenIn(p, timeZone);
}

/**
 * The school's time: "today", the year and the bounds of a day in the school's time zone (a school
 * setting, `time_zone`). Pure: the caller hands in the instant (the server its injected clock), so
 * nothing here reads the host's clock or its `TZ`. Zod-free, so any page may import it.
 * Calendar days are `YYYY-MM-DD` strings, already the school's day: never read them through a
 * `Date` at UTC midnight (west of UTC that instant is the day before).
 */

const dayFormatters = new Map<string, Intl.DateTimeFormat>();
const clockFormatters = new Map<string, Intl.DateTimeFormat>();

function dayFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = dayFormatters.get(timeZone);
  if (!f) {
    // en-CA formats as YYYY-MM-DD.
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormatters.set(timeZone, f);
  }
  return f;
}

/** Today's date in a time zone (the school's), as YYYY-MM-DD. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return dayFormatter(timeZone).format(now);
}

/** The school's day (YYYY-MM-DD) of a stored instant (an ISO timestamp), in its time zone. */
export function schoolDayOf(instant: string, timeZone: string): string {
  return todayIn(timeZone, new Date(instant));
}

/** The calendar year in a time zone (the school's) at `now`: {YYYY} of admission numbers. */
export function yearIn(timeZone: string, now: Date = new Date()): number {
  return Number(todayIn(timeZone, now).slice(0, 4));
}

/** True for a calendar day written `YYYY-MM-DD` (a stored date, no time). */
export function isCalendarDay(value: unknown): value is string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
}

/** How far the zone's wall clock is ahead of UTC at the instant `t` (ms). */
function offsetAt(timeZone: string, t: number): number {
  let f = clockFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    clockFormatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(t)).map((x) => [x.type, Number(x.value)]));
  const wall = Date.UTC(p.year!, p.month! - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(t / 1000) * 1000;
}

/**
 * The instant (ISO-8601, UTC) the school's wall clock reads `hour`:00 on its day `day` (YYYY-MM-DD):
 * the one place a school day becomes an instant.
 */
function wallClockIn(day: string, hour: number, timeZone: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d, hour);
  // Twice: the offset at the guess may differ from the offset at the answer across a clock change.
  let t = wall - offsetAt(timeZone, wall);
  t = wall - offsetAt(timeZone, t);
  return new Date(t).toISOString();
}

/** The instant (ISO-8601, UTC) the school's day `day` (YYYY-MM-DD) begins in its time zone. */
export function dayStartIn(day: string, timeZone: string): string {
  return wallClockIn(day, 0, timeZone);
}

/**
 * Noon of the school's day `day` (YYYY-MM-DD) in its time zone, as an ISO instant: the made-up time
 * of an offline payment, which the bursar records by its day only (noon keeps it inside that day).
 */
export function noonIn(day: string, timeZone: string): string {
  return wallClockIn(day, 12, timeZone);
}

/** [start, end) of the school's day `day` as UTC instants: the rows stamped during that day. */
export function dayBoundsIn(day: string, timeZone: string): { from: string; to: string } {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  return { from: dayStartIn(day, timeZone), to: dayStartIn(next, timeZone) };
}

/**
 * One date and time format for every screen, print and PDF, in the school's time zone (the
 * web receipt showed the browser's clock, the PDF Lagos time). Zod-free, so any page
 * may import it.
 */

import { isCalendarDay } from './calendar';

export const DEFAULT_TIME_ZONE = 'Africa/Lagos';

/** True when the runtime knows the IANA time zone name (e.g. `Africa/Lagos`). */
export function isValidTimeZone(timeZone: string): boolean {
  if (!timeZone) return false;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: 'date' | 'datetime', timeZone: string): Intl.DateTimeFormat {
  const zone = isValidTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
  const key = `${kind}|${zone}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      ...(kind === 'datetime' ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' as const } : {}),
    });
    formatters.set(key, f);
  }
  return f;
}

function parse(value: string | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * `value` written by `show` from its parts in the school's time zone; an unreadable string as it
 * is, and `—` when there is no date.
 */
function formatIn(
  kind: 'date' | 'datetime',
  value: string | Date | null | undefined,
  timeZone: string,
  show: (parts: Record<string, string>) => string,
): string {
  const d = parse(value);
  if (!d) return typeof value === 'string' && value ? value : '—';
  return show(
    Object.fromEntries(
      formatter(kind, timeZone)
        .formatToParts(d)
        .map((p) => [p.type, p.value]),
    ),
  );
}

/** `23 Nov 2026, 09:34` in the school's time zone; `—` when there is no date. */
export function formatDateTime(value: string | Date | null | undefined, timeZone: string = DEFAULT_TIME_ZONE): string {
  return formatIn('datetime', value, timeZone, (p) => `${p.day} ${p.month} ${p.year}, ${p.hour}:${p.minute}`);
}

/**
 * `23 Nov 2026` in the school's time zone; `—` when there is no date. A stored day (`YYYY-MM-DD`,
 * already the school's) is written as it is, never read as UTC midnight (a day early west of UTC).
 */
export function formatDate(value: string | Date | null | undefined, timeZone: string = DEFAULT_TIME_ZONE): string {
  if (isCalendarDay(value)) return formatDay(value);
  return formatIn('date', value, timeZone, (p) => `${p.day} ${p.month} ${p.year}`);
}

/** A calendar day (`YYYY-MM-DD`, already the school's day) as every date is written: `20 Nov 2026`. */
export function formatDay(day: string | null | undefined): string {
  if (!isCalendarDay(day)) return formatDate(day);
  return formatIn('date', `${day}T12:00:00Z`, 'UTC', (p) => `${p.day} ${p.month} ${p.year}`);
}

/**
 * When a payment was made, one way on every screen and PDF: an offline payment's day
 * as the bursar recorded it, with no time (none was recorded: noon is only how it is stored), an
 * online payment's moment in the school's time zone.
 */
export function formatPaidWhen(
  p: { paid_on?: string | null; paid_at: string | null; created_at?: string },
  timeZone: string = DEFAULT_TIME_ZONE,
): string {
  return p.paid_on ? formatDay(p.paid_on) : formatDateTime(p.paid_at ?? p.created_at, timeZone);
}

/** The home page greeting: the person's first name, or none (the first admin's placeholder "School" is no name). */
export function welcomeMessage(firstName: string | null | undefined): string {
  const name = (firstName ?? '').trim();
  return name && name !== 'School' ? `Welcome, ${name}!` : 'Welcome!';
}

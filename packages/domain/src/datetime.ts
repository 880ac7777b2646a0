/**
 * One date and time format for every screen, print and PDF, in the school's time zone (the
 * web receipt showed the browser's clock, the PDF Lagos time). Zod-free, so any page
 * may import it.
 */

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

/** `23 Nov 2026, 09:34` in the school's time zone; `—` when there is no date. */
export function formatDateTime(value: string | Date | null | undefined, timeZone: string = DEFAULT_TIME_ZONE): string {
  const d = parse(value);
  if (!d) return typeof value === 'string' && value ? value : '—';
  const parts = Object.fromEntries(
    formatter('datetime', timeZone)
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.day} ${parts.month} ${parts.year}, ${parts.hour}:${parts.minute}`;
}

/** `23 Nov 2026` in the school's time zone; `—` when there is no date. */
export function formatDate(value: string | Date | null | undefined, timeZone: string = DEFAULT_TIME_ZONE): string {
  const d = parse(value);
  if (!d) return typeof value === 'string' && value ? value : '—';
  const parts = Object.fromEntries(
    formatter('date', timeZone)
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.day} ${parts.month} ${parts.year}`;
}

/** The home page greeting: the person's first name, or none (the first admin's placeholder "School" is no name). */
export function welcomeMessage(firstName: string | null | undefined): string {
  const name = (firstName ?? '').trim();
  return name && name !== 'School' ? `Welcome, ${name}!` : 'Welcome!';
}

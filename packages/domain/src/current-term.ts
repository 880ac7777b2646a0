/**
 * The current session and term: every term-based screen opens on it, computed once by
 * the server (`GET /api/current-term/`) from the school calendar and the school's today.
 */
import type { Term } from './constants';

/** A term's dates as the calendar holds them (any session). */
export interface CalendarTerm {
  session_id: number;
  term: Term;
  starts_on: string;
  ends_on: string;
}

/**
 * Why this term: today falls in it, or between terms the nearest one (the term that just ended or
 * the one about to begin), or the calendar has no dates (the current session, no term).
 */
export type CurrentTermBasis = 'in_term' | 'term_ended' | 'term_ahead' | 'no_calendar';

/** GET /api/current-term/: the session and term every term-based screen opens on. */
export interface CurrentTerm {
  session_id: number | null;
  session_name: string | null;
  term: Term | null;
  starts_on: string | null;
  ends_on: string | null;
  /** The school's today in its time zone. */
  today: string;
  basis: CurrentTermBasis;
}

const day = (iso: string) => Math.round(Date.UTC(+iso.slice(0, 4), +iso.slice(5, 7) - 1, +iso.slice(8, 10)) / 86_400_000);

/**
 * The term a screen opens on: the one whose dates contain `today`; between terms (or before the
 * first, after the last) the nearest by days, the one that ended winning a tie (its results and
 * cards are still being finished); null when no term has dates. With `sessionId` (the session the
 * school marked current) and any of its terms dated, only its terms are looked at: the school moves
 * into a new session by marking it current (rosters, promotion), not by the calendar's dates alone.
 */
export function currentTermOfCalendar<T extends CalendarTerm>(
  all: readonly T[],
  today: string,
  sessionId?: number | null,
): { term: T; basis: Exclude<CurrentTermBasis, 'no_calendar'> } | null {
  const own = all.filter((t) => t.session_id === sessionId);
  const terms = own.length ? own : all;
  const holding = terms.find((t) => t.starts_on <= today && today <= t.ends_on);
  if (holding) return { term: holding, basis: 'in_term' };
  let ended: T | undefined;
  let ahead: T | undefined;
  for (const t of terms) {
    if (t.ends_on < today && (!ended || t.ends_on > ended.ends_on)) ended = t;
    if (t.starts_on > today && (!ahead || t.starts_on < ahead.starts_on)) ahead = t;
  }
  if (ended && (!ahead || day(today) - day(ended.ends_on) <= day(ahead.starts_on) - day(today)))
    return { term: ended, basis: 'term_ended' };
  return ahead ? { term: ahead, basis: 'term_ahead' } : null;
}

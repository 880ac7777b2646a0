import {
  addDays,
  currentTermOfCalendar,
  MAX_TERM_DAYS,
  RESULT_MESSAGES,
  timesOpened,
  type AcademicSession,
  type CalendarEvent,
  type CalendarEventKind,
  type CurrentTerm,
  type SchoolCalendar,
  type Term,
  type TermDates,
} from '@portal/domain';
import { badRequest } from '../../http/errors';
import type { SettingsService } from '../settings/settings.service';
import type { CalendarRepository } from './calendar.repository';
import type { SchoolTime } from './school-time.service';
import type { SessionsService } from './sessions.service';

export type { Clock } from './school-time.service';

export const toEvent = (e: { id: number; name: string; kind: string; starts_on: string; ends_on: string }): CalendarEvent => ({
  id: Number(e.id),
  name: e.name,
  kind: e.kind as CalendarEventKind,
  starts_on: e.starts_on,
  ends_on: e.ends_on,
});

/** Every term's dates as stored (a few rows a year). */
export type TermRow = Awaited<ReturnType<CalendarRepository['terms']>>[number];

const termDates = (t: TermRow): TermDates => ({
  session_id: Number(t.session_id),
  term: t.term as Term,
  starts_on: t.starts_on,
  ends_on: t.ends_on,
});

/** The calendar around some dates, and the school's today. */
export interface Around {
  cal: SchoolCalendar;
  today: string;
  timeZone: string;
}

/**
 * The school calendar as other modules read it: "today" in the school's time zone, sessions and
 * their terms' dates, the events, the current term and the times school opened. Attendance (the
 * register), the bursar and the report cards ask it; its edits are `CalendarEditService`.
 */
export class CalendarService {
  constructor(
    private readonly repo: CalendarRepository,
    private readonly settings: SettingsService,
    readonly sessions: SessionsService,
    readonly time: SchoolTime,
  ) {}

  /** The school's today and time zone (the one "today"; the bursar's payment dates are checked against it). */
  schoolToday(): Promise<{ today: string; timeZone: string }> {
    return this.time.today();
  }

  /** Every term's dates (`conn`: inside the caller's transaction). */
  terms(conn?: Parameters<CalendarRepository['terms']>[0]): Promise<TermRow[]> {
    return this.repo.terms(conn);
  }

  /** Events overlapping [from, to] (null: every event). */
  async events(range: { from: string; to: string } | null): Promise<CalendarEvent[]> {
    return (await this.repo.events(range)).map(toEvent);
  }

  /** The first day of each dated term of a session (the bursar's statement dates its charges by them). */
  async termStarts(sessionId: number): Promise<Partial<Record<Term, string>>> {
    const out: Partial<Record<Term, string>> = {};
    for (const t of await this.repo.termsOfSession(sessionId)) out[t.term as Term] = t.starts_on;
    return out;
  }

  /** A session by id: 400 on `session_id` when there is none. */
  async session(id: number): Promise<AcademicSession> {
    const s = await this.sessions.byId(id);
    if (!s) throw badRequest({ session_id: [RESULT_MESSAGES.sessionNotFound] });
    return s;
  }

  /** The current session's id, or the newest's when none is marked current. */
  async currentSessionId(): Promise<number | null> {
    return (await this.sessions.currentOrLatest())?.id ?? null;
  }

  /**
   * The session and term every term-based screen opens on: the calendar's term holding
   * the school's today, else the nearest, among the marked-current session's terms when it has dates
   * (`currentTermOfCalendar`); without term dates, the current session and no term.
   */
  async currentTerm(): Promise<CurrentTerm> {
    const [terms, tz, sessions] = await Promise.all([this.repo.terms(), this.time.today(), this.sessions.list()]);
    const marked = sessions.find((s) => s.is_current) ?? sessions[0];
    const found = currentTermOfCalendar(terms.map(termDates), tz.today, marked?.id ?? null);
    if (found) {
      const { term } = found;
      return {
        session_id: term.session_id,
        session_name: sessions.find((s) => s.id === term.session_id)?.name ?? null,
        term: term.term,
        starts_on: term.starts_on,
        ends_on: term.ends_on,
        today: tz.today,
        basis: found.basis,
      };
    }
    return {
      session_id: marked?.id ?? null,
      session_name: marked?.name ?? null,
      term: null,
      starts_on: null,
      ends_on: null,
      today: tz.today,
      basis: 'no_calendar',
    };
  }

  /**
   * Settings, every term's dates (a small table) and the events overlapping [from, to] widened by a
   * term's length (so any term holding a date in it sees all its events).
   */
  async around(from: string | null, to: string | null): Promise<Around> {
    const [settings, terms, tz] = await Promise.all([this.settings.attendanceSettings(), this.repo.terms(), this.time.today()]);
    const lo = addDays(from ?? tz.today, -MAX_TERM_DAYS);
    const hi = addDays(to ?? tz.today, MAX_TERM_DAYS);
    const events = await this.repo.events({ from: lo, to: hi });
    return {
      cal: { settings, terms: terms.map((t) => ({ ...t, term: t.term as Term })), events: events.map(toEvent) },
      ...tz,
    };
  }

  /** Times school opened in a term up to today (null without term dates). */
  async timesOpened(sessionId: number, term: string, known?: readonly TermRow[]): Promise<number | null> {
    const terms = known ?? (await this.repo.terms());
    const dates = terms.find((t) => Number(t.session_id) === sessionId && t.term === term);
    if (!dates) return null;
    const [settings, tz, events] = await Promise.all([
      this.settings.attendanceSettings(),
      this.time.today(),
      this.repo.events({ from: dates.starts_on, to: dates.ends_on }),
    ]);
    const cal: SchoolCalendar = { settings, terms: terms.map((t) => ({ ...t, term: t.term as Term })), events: events.map(toEvent) };
    return timesOpened(cal, termDates(dates), tz.today);
  }
}

import { RESULT_MESSAGES, type Term } from '@portal/domain';
import { type DashboardTermQuery } from '@portal/domain/dashboard-staff';
import { badRequest } from '../../http/errors';
import type { CalendarService } from '../calendar/calendar.service';
import type { SessionsService } from '../calendar/sessions.service';

/** The session and term a dashboard shows, with the term's dates and the school's today. */
export interface DashboardTerm {
  session_id: number | null;
  session: string | null;
  term: Term | null;
  starts_on: string | null;
  ends_on: string | null;
  today: string;
}

/**
 * `?session=&term=` or, for what is not given, today's term of the school calendar (the same
 * answer as `GET /api/current-term/`). An unknown session is a 400.
 */
export async function dashboardTerm(
  calendar: Pick<CalendarService, 'currentTerm' | 'terms'>,
  sessions: Pick<SessionsService, 'byId' | 'byName'>,
  q: DashboardTermQuery,
): Promise<DashboardTerm> {
  const current = await calendar.currentTerm();
  if (q.session === undefined && q.session_id === undefined && q.term === undefined) {
    return {
      session_id: current.session_id,
      session: current.session_name,
      term: current.term,
      starts_on: current.starts_on,
      ends_on: current.ends_on,
      today: current.today,
    };
  }
  const named = q.session_id !== undefined ? String(q.session_id) : q.session;
  const [session, terms] = await Promise.all([
    named === undefined
      ? current.session_id === null
        ? undefined
        : sessions.byId(current.session_id)
      : /^\d+$/.test(named)
        ? sessions.byId(Number(named))
        : sessions.byName(named),
    calendar.terms(),
  ]);
  if (!session) throw badRequest({ session: [RESULT_MESSAGES.sessionNotFound] });
  const term = q.term ?? (session.id === current.session_id ? current.term : null);
  const row = terms.find((t) => Number(t.session_id) === session.id && t.term === term);
  return {
    session_id: session.id,
    session: session.name,
    term,
    starts_on: row?.starts_on || null,
    ends_on: row?.ends_on || null,
    today: current.today,
  };
}

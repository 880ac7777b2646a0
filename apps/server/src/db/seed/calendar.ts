import type { CalendarEventKind, TermDates } from '@portal/domain';

/**
 * A Nigerian school year's calendar for a session named `y/y+1`: three terms, a mid-term break in
 * each, and the public holidays that fall inside them. The demo school and the bench school use it.
 */
export function schoolYearCalendar(
  sessionId: number,
  startYear: number,
): { terms: TermDates[]; events: { name: string; kind: CalendarEventKind; starts_on: string; ends_on: string }[] } {
  const y = startYear;
  const z = y + 1;
  return {
    terms: [
      { session_id: sessionId, term: '1st', starts_on: `${y}-09-15`, ends_on: `${y}-12-19` },
      { session_id: sessionId, term: '2nd', starts_on: `${z}-01-12`, ends_on: `${z}-04-02` },
      { session_id: sessionId, term: '3rd', starts_on: `${z}-04-27`, ends_on: `${z}-07-24` },
    ],
    events: [
      { name: 'Independence Day', kind: 'holiday', starts_on: `${y}-10-01`, ends_on: `${y}-10-01` },
      { name: 'Mid-term break', kind: 'mid_term_break', starts_on: `${y}-10-27`, ends_on: `${y}-10-31` },
      { name: 'Mid-term break', kind: 'mid_term_break', starts_on: `${z}-02-16`, ends_on: `${z}-02-20` },
      { name: "Workers' Day", kind: 'holiday', starts_on: `${z}-05-01`, ends_on: `${z}-05-01` },
      { name: 'Mid-term break', kind: 'mid_term_break', starts_on: `${z}-06-01`, ends_on: `${z}-06-05` },
      { name: 'Democracy Day', kind: 'holiday', starts_on: `${z}-06-12`, ends_on: `${z}-06-12` },
    ],
  };
}

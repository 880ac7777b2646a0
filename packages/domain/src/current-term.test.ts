import { describe, expect, it } from 'vitest';
import { currentTermOfCalendar, type CalendarTerm } from './current-term';

const year = (id: number, y: number): CalendarTerm[] => [
  { session_id: id, term: '1st', starts_on: `${y}-09-15`, ends_on: `${y}-12-19` },
  { session_id: id, term: '2nd', starts_on: `${y + 1}-01-12`, ends_on: `${y + 1}-04-02` },
  { session_id: id, term: '3rd', starts_on: `${y + 1}-04-27`, ends_on: `${y + 1}-07-24` },
];
const terms = [...year(1, 2025), ...year(2, 2026)];
const at = (today: string) => {
  const c = currentTermOfCalendar(terms, today);
  return c && [c.term.session_id, c.term.term, c.basis];
};

describe('the current term', () => {
  it('is the term whose dates contain today', () => {
    expect(at('2026-11-28')).toEqual([2, '1st', 'in_term']);
    expect(at('2025-09-15')).toEqual([1, '1st', 'in_term']);
    expect(at('2026-07-24')).toEqual([1, '3rd', 'in_term']);
  });
  it('between terms is the nearest: the one just ended, then the one about to begin', () => {
    expect(at('2025-12-22')).toEqual([1, '1st', 'term_ended']);
    expect(at('2026-01-10')).toEqual([1, '2nd', 'term_ahead']);
    // The long vacation: July's 3rd term until the middle, then the next session's 1st.
    expect(at('2026-08-01')).toEqual([1, '3rd', 'term_ended']);
    expect(at('2026-09-01')).toEqual([2, '1st', 'term_ahead']);
    // A tie goes to the term that ended.
    expect(at('2025-12-31')).toEqual([1, '1st', 'term_ended']);
  });
  it("looks only at the marked-current session's terms when it has dates", () => {
    // 2025/2026 still marked current in November 2026: its last term, not 2026/2027's first.
    expect(currentTermOfCalendar(terms, '2026-11-28', 1)).toMatchObject({ term: { session_id: 1, term: '3rd' }, basis: 'term_ended' });
    expect(currentTermOfCalendar(terms, '2026-11-28', 2)).toMatchObject({ term: { session_id: 2, term: '1st' }, basis: 'in_term' });
    // A current session with no dates yet: the whole calendar.
    expect(currentTermOfCalendar(terms, '2026-11-28', 3)).toMatchObject({ term: { session_id: 2, term: '1st' }, basis: 'in_term' });
  });
  it('before the first and after the last term, the nearest one; none without dates', () => {
    expect(at('2025-01-01')).toEqual([1, '1st', 'term_ahead']);
    expect(at('2030-01-01')).toEqual([2, '3rd', 'term_ended']);
    expect(currentTermOfCalendar([], '2026-11-28')).toBeNull();
  });
});

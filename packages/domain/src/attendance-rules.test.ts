import { describe, expect, it } from 'vitest';
import { absenceStreaks, absentDay } from './attendance-rules';
import { schoolDaysOfTerm, timesOpened, type SchoolCalendar } from './attendance-calendar';

/** Two weeks from Monday 8 September 2025: a holiday on Wednesday the 10th, Saturday the 13th an extra school day. */
const term = { session_id: 1, term: '1st' as const, starts_on: '2025-09-08', ends_on: '2025-09-21' };
const cal = (saturday_classes: boolean, periods_per_day: 1 | 2): SchoolCalendar => ({
  settings: { periods_per_day, saturday_classes },
  terms: [term],
  events: [
    { id: 1, name: 'Founders day', kind: 'holiday', starts_on: '2025-09-10', ends_on: '2025-09-10' },
    { id: 2, name: 'Make-up day', kind: 'school_day', starts_on: '2025-09-13', ends_on: '2025-09-13' },
  ],
});

describe('times school opened: literal counts', () => {
  it('counts the school days of the term times the registers a day', () => {
    expect(schoolDaysOfTerm(cal(false, 1), term)).toEqual([
      '2025-09-08',
      '2025-09-09',
      '2025-09-11',
      '2025-09-12',
      '2025-09-13',
      '2025-09-15',
      '2025-09-16',
      '2025-09-17',
      '2025-09-18',
      '2025-09-19',
    ]);
    expect(timesOpened(cal(false, 1), term)).toBe(10);
    expect(timesOpened(cal(false, 2), term)).toBe(20);
    // With Saturday classes, Saturday the 20th counts too.
    expect(timesOpened(cal(true, 2), term)).toBe(22);
  });

  it('stops at upTo, inclusive, and never runs past the term', () => {
    expect(timesOpened(cal(false, 2), term, '2025-09-12')).toBe(8);
    expect(timesOpened(cal(false, 1), term, '2025-09-08')).toBe(1);
    expect(timesOpened(cal(false, 1), term, '2025-12-31')).toBe(10);
  });
});

describe('absent days: every marked register of the day says absent', () => {
  it('a day absent in one register and present in the other is not an absent day', () => {
    expect(absentDay(['absent', 'present'])).toBe(false);
    expect(absentDay(['present', 'absent'])).toBe(false);
    expect(absentDay(['absent', 'late'])).toBe(false);
    expect(absentDay(['absent', 'excused'])).toBe(true);
    expect(absentDay(['absent'])).toBe(true);
    expect(absentDay([])).toBe(false);
  });

  it('so it ends a streak rather than growing it', () => {
    const days = ['2025-09-08', '2025-09-09', '2025-09-11', '2025-09-12'];
    const marks = new Map([
      ['2025-09-08', ['absent', 'absent'] as const],
      ['2025-09-09', ['absent', 'present'] as const],
      ['2025-09-11', ['excused', 'absent'] as const],
      ['2025-09-12', ['absent', 'absent'] as const],
    ]);
    expect(absenceStreaks(days, marks)).toEqual([1, 0, 1, 2]);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, schoolDay, schoolToday, schoolYear, setSchoolTimeZone } from './datetime';

afterEach(() => setSchoolTimeZone(undefined));

/** Screens write the school's days in the school's zone (its setting), not the browser's nor UTC's. */
describe("the web's dates in the school's zone", () => {
  const eve = new Date('2026-01-01T02:00:00Z'); // 21:00 on 31 December in New York
  it.each([
    ['Africa/Lagos', '2026-01-01', 2026],
    ['America/New_York', '2025-12-31', 2025],
    ['Pacific/Kiritimati', '2026-01-01', 2026],
  ])('%s: today, the year, a stored day and the day of a timestamp', (zone, today, year) => {
    setSchoolTimeZone(zone);
    expect(schoolToday(eve)).toBe(today);
    expect(schoolYear(eve)).toBe(year);
    expect(schoolDay(eve.toISOString())).toBe(today);
    // A stored day (ledger, register, statement) is that day in every zone, never a day early.
    expect(formatDate('2026-11-20')).toBe('20 Nov 2026');
  });
});

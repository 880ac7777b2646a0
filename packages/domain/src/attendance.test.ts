import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  absenceStreaks,
  addDays,
  ATTENDANCE_STATUSES,
  cardDays,
  COUNTS_AS_PRESENT,
  countMarks,
  datesBetween,
  type AttendanceStatus,
} from './attendance-rules';
import { timesOpened, type CalendarEvent, type SchoolCalendar } from './attendance-calendar';

const status = fc.constantFrom(...ATTENDANCE_STATUSES);
const day = fc.integer({ min: 0, max: 120 }).map((n) => addDays('2025-09-01', n));
const event = fc
  .record({
    from: day,
    len: fc.integer({ min: 0, max: 10 }),
    kind: fc.constantFrom<CalendarEvent['kind']>('holiday', 'mid_term_break', 'school_day'),
  })
  .map(({ from, len, kind }) => ({ name: kind, kind, starts_on: from, ends_on: addDays(from, len) }));
const calendar: fc.Arbitrary<SchoolCalendar> = fc
  .record({
    start: fc.integer({ min: 0, max: 30 }),
    len: fc.integer({ min: 1, max: 90 }),
    periods: fc.constantFrom(1 as const, 2 as const),
    saturdays: fc.boolean(),
    events: fc.array(event, { maxLength: 6 }),
  })
  .map(({ start, len, periods, saturdays, events }) => ({
    settings: { periods_per_day: periods, saturday_classes: saturdays },
    terms: [{ session_id: 1, term: '1st' as const, starts_on: addDays('2025-09-01', start), ends_on: addDays('2025-09-01', start + len) }],
    events: events.map((e, i) => ({ ...e, id: i + 1 })),
  }));

describe('attendance rules (properties)', () => {
  it('times opened is the count of school days, times the registers a day', () => {
    // Counted here from the rule's words, not with dayInfo: an extra school day wins over a holiday,
    // a holiday over the weekday; Sunday is never a school day, Saturday only with Saturday classes.
    const schoolDay = (cal: SchoolCalendar, d: string) => {
      const covering = cal.events.filter((e) => e.starts_on <= d && d <= e.ends_on);
      if (covering.some((e) => e.kind === 'school_day')) return true;
      if (covering.length) return false;
      const wd = new Date(`${d}T12:00:00Z`).getUTCDay();
      return wd !== 0 && (wd !== 6 || cal.settings.saturday_classes);
    };
    fc.assert(
      fc.property(calendar, fc.option(day, { nil: undefined }), (cal, upTo) => {
        const term = cal.terms[0]!;
        const last = upTo !== undefined && upTo < term.ends_on ? upTo : term.ends_on;
        const counted = datesBetween(term.starts_on, last).filter((d) => schoolDay(cal, d)).length;
        expect(timesOpened(cal, term, upTo)).toBe(counted * cal.settings.periods_per_day);
      }),
    );
  });

  it('a streak grows on absent days, resets on a present day, and unmarked days neither add nor reset', () => {
    fc.assert(
      fc.property(fc.array(fc.option(status, { nil: null }), { maxLength: 40 }), (seq) => {
        const days = seq.map((_, i) => addDays('2025-09-15', i));
        const marks = new Map<string, AttendanceStatus[]>();
        seq.forEach((s, i) => s && marks.set(days[i]!, [s]));
        const streaks = absenceStreaks(days, marks);
        let expected = 0;
        seq.forEach((s, i) => {
          if (s) expected = COUNTS_AS_PRESENT[s] ? 0 : expected + 1;
          expect(streaks[i]).toBe(expected);
        });
      }),
    );
  });

  it('the card sums present + late (+ carried) and absent + excused (+ carried)', () => {
    const carried = fc.option(fc.record({ present: fc.nat(200), absent: fc.nat(200) }), { nil: null });
    fc.assert(
      fc.property(fc.array(status, { maxLength: 200 }), carried, (statuses, car) => {
        const c = countMarks(statuses);
        const days = cardDays(c, car);
        expect(days.present + days.absent).toBe(statuses.length + (car ? car.present + car.absent : 0));
        expect(days.present).toBe(statuses.filter((s) => COUNTS_AS_PRESENT[s]).length + (car?.present ?? 0));
      }),
    );
  });
});

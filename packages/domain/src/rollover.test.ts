import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, dayNumber, weekdayOf } from './attendance-rules';
import { percentToBasisPoints } from './discounts';
import {
  aYearOn,
  FEE_ROUNDING_KOBO,
  increasedFeeKobo,
  movedEvent,
  nextSessionName,
  proposedTerms,
  rolloverSchema,
  sameDateYearsOn,
} from './rollover';

describe('the fee increase, rounded to ₦50 in integer math', () => {
  it('a few by hand', () => {
    expect(increasedFeeKobo(4_512_300, 1000)).toBe(4_965_000); // ₦45,123 + 10% = ₦49,635.30 → ₦49,650
    expect(increasedFeeKobo(5_002_500, 1000)).toBe(5_505_000); // ₦55,027.50 → ₦55,050
    expect(increasedFeeKobo(4_997_500, 0)).toBe(4_997_500); // no increase: untouched, not rounded
    expect(increasedFeeKobo(2_500, 1)).toBe(5_000); // ₦25.0025 → ₦50 (a half or more rounds up)
    expect(increasedFeeKobo(2_400, 1)).toBe(0);
    expect(increasedFeeKobo(1_000_000, 750)).toBe(1_075_000); // 7.5%
    expect(increasedFeeKobo(999_999_999_900, 10_000)).toBe(2_000_000_000_000); // ₦19,999,999,998 → ₦20,000,000,000
  });

  it('property: a multiple of ₦50, within ₦25 of the exact raised amount, never below the fee for an increase', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), fc.integer({ min: 1, max: 10_000 }), (kobo, bp) => {
        const out = increasedFeeKobo(kobo, bp);
        expect(Number.isSafeInteger(out)).toBe(true);
        expect(out % FEE_ROUNDING_KOBO).toBe(0);
        // |out - kobo*(1+bp/10000)| <= 2500 kobo, compared exactly in BigInt (times 10000).
        const exact = BigInt(kobo) * BigInt(10_000 + bp);
        const diff = BigInt(out) * 10_000n - exact;
        expect(diff <= 2_500n * 10_000n && diff > -2_500n * 10_000n).toBe(true);
        // Rounding never takes a fee of at least ₦25 below what it was.
        if (kobo >= 2_500) expect(out).toBeGreaterThanOrEqual(kobo - 2_500);
      }),
    );
  });

  it('property: monotone in the amount and in the percent', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e9 }),
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 0, max: 100 }),
        (a, d, bp, dbp) => {
          expect(increasedFeeKobo(a + d, bp)).toBeGreaterThanOrEqual(increasedFeeKobo(a, bp));
          expect(increasedFeeKobo(a, Math.min(bp + dbp, 10_000))).toBeGreaterThanOrEqual(increasedFeeKobo(a, bp));
        },
      ),
    );
  });

  it('percent to basis points: two decimals exactly', () => {
    expect(percentToBasisPoints(7.5)).toBe(750);
    expect(percentToBasisPoints(0.07)).toBe(7);
    expect(percentToBasisPoints(12.34)).toBe(1234);
  });
});

describe('the next session a year on', () => {
  it('names it and moves each date 52 weeks on, on its weekday', () => {
    expect(nextSessionName('2025/2026')).toBe('2026/2027');
    expect(nextSessionName('Year one')).toBeNull();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40_000 }), (n) => {
        const d = new Date(Date.UTC(2000, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
        expect(weekdayOf(aYearOn(d))).toBe(weekdayOf(d));
      }),
    );
  });

  it('proposes a usual pattern when the session has no dates', () => {
    const terms = proposedTerms([], '2026/2027');
    expect(terms.map((t) => [t.term, t.starts_on, t.ends_on, t.next_term_begins])).toEqual([
      ['1st', '2026-09-14', '2026-12-18', '2027-01-11'],
      ['2nd', '2027-01-11', '2027-04-09', '2027-05-03'],
      ['3rd', '2027-05-03', '2027-07-30', '2027-09-13'],
    ]);
    for (const t of terms) expect([weekdayOf(t.starts_on), weekdayOf(t.ends_on)]).toEqual([1, 5]);
  });

  it('the schema: three terms once each, a percent of two decimals, make_current false unless said', () => {
    const terms = proposedTerms([], '2026/2027');
    const copy = {
      fee_items: true,
      fee_increase_percent: 5.25,
      assessment_schemes: true,
      grading_scales: false,
      report_card_settings: true,
      teaching_assignments: true,
      form_teachers: true,
      enforcement_and_windows: false,
    };
    const ok = rolloverSchema.parse({ from_session_id: 1, name: '2026/2027', terms, copy });
    expect(ok.make_current).toBe(false);
    // Callers from before the calendar's copy: unticked.
    expect(ok.copy.calendar_events).toBe(false);
    expect(
      rolloverSchema.parse({ from_session_id: 1, name: '2026/2027', terms, copy: { ...copy, calendar_events: true } }).copy.calendar_events,
    ).toBe(true);
    expect(
      rolloverSchema.safeParse({ from_session_id: 1, name: '2026/2027', terms, copy: { ...copy, calendar_events: 'yes' } }).success,
    ).toBe(false);
    expect(
      rolloverSchema.safeParse({ from_session_id: 1, name: '2026/2027', terms, copy: { ...copy, fee_increase_percent: 5.255 } }).success,
    ).toBe(false);
    expect(
      rolloverSchema.safeParse({ from_session_id: 1, name: '2026/2027', terms, copy: { ...copy, fee_increase_percent: 101 } }).success,
    ).toBe(false);
    expect(rolloverSchema.safeParse({ from_session_id: 1, name: '2026/2028', terms, copy }).success).toBe(false);
    expect(rolloverSchema.safeParse({ from_session_id: 1, name: '2026/2027', terms: [terms[0], terms[0], terms[2]], copy }).success).toBe(
      false,
    );
  });
});

describe('the calendar moved into the next session (decision 057)', () => {
  const FROM = [
    { term: '1st', starts_on: '2025-09-08', ends_on: '2025-12-12' },
    { term: '2nd', starts_on: '2026-01-05', ends_on: '2026-04-03' },
    { term: '3rd', starts_on: '2026-04-27', ends_on: '2026-07-24' },
  ] as const;
  const proposed = proposedTerms(
    FROM.map((t) => ({ ...t, next_term_begins: null })),
    '2026/2027',
  );

  it('a few by hand: holidays on their date, breaks and extra days in their place in the term', () => {
    expect(movedEvent({ kind: 'holiday', starts_on: '2025-10-01', ends_on: '2025-10-01' }, FROM, proposed)).toEqual({
      starts_on: '2026-10-01',
      ends_on: '2026-10-01',
    });
    expect(movedEvent({ kind: 'holiday', starts_on: '2026-06-12', ends_on: '2026-06-12' }, FROM, proposed)).toEqual({
      starts_on: '2027-06-12',
      ends_on: '2027-06-12',
    });
    // Mid-term break, Monday to Friday in week 8: Monday to Friday in week 8 again.
    expect(movedEvent({ kind: 'mid_term_break', starts_on: '2025-10-27', ends_on: '2025-10-31' }, FROM, proposed)).toEqual({
      starts_on: '2026-10-26',
      ends_on: '2026-10-30',
    });
    // The 1st term's start edited a week later: the break follows it.
    const edited = proposed.map((t) => (t.term === '1st' ? { ...t, starts_on: '2026-09-14' } : t));
    expect(movedEvent({ kind: 'mid_term_break', starts_on: '2025-10-27', ends_on: '2025-10-31' }, FROM, edited).starts_on).toBe(
      '2026-11-02',
    );
    // A session started far later keeps its holidays on their dates, in its own year.
    const far = proposed.map((t) => ({ ...t, starts_on: addDays(t.starts_on, 364 * 4 + 7) }));
    expect(movedEvent({ kind: 'holiday', starts_on: '2025-10-01', ends_on: '2025-10-01' }, FROM, far).starts_on).toBe('2030-10-01');
    expect(sameDateYearsOn('2024-02-29', 1)).toBe('2025-02-28');
    expect(sameDateYearsOn('2024-02-29', 4)).toBe('2028-02-29');
    expect(sameDateYearsOn('2100-02-28', 0)).toBe('2100-02-28');
  });

  const anEvent = fc.record({
    kind: fc.constantFrom('holiday' as const, 'mid_term_break' as const, 'school_day' as const),
    at: fc.integer({ min: dayNumber('2025-09-01'), max: dayNumber('2026-07-31') }),
    len: fc.integer({ min: 0, max: 13 }),
  });
  const anEdit = fc.integer({ min: -14, max: 14 });

  it('property: its length kept; a holiday on its day and month a year on; anything else its place and weekday in its term', () => {
    fc.assert(
      fc.property(anEvent, anEdit, ({ kind, at, len }, edit) => {
        const starts_on = addDays('1970-01-01', at);
        const event = { kind, starts_on, ends_on: addDays(starts_on, len) };
        const to = proposed.map((t) => ({ ...t, starts_on: addDays(t.starts_on, edit * 7) }));
        const moved = movedEvent(event, FROM, to);
        expect(dayNumber(moved.ends_on) - dayNumber(moved.starts_on)).toBe(len);
        if (kind === 'holiday') {
          expect(Number(moved.starts_on.slice(0, 4))).toBe(Number(starts_on.slice(0, 4)) + 1);
          if (starts_on.slice(5) !== '02-29') expect(moved.starts_on.slice(5)).toBe(starts_on.slice(5));
        } else {
          expect(weekdayOf(moved.starts_on)).toBe(weekdayOf(starts_on));
          const i = FROM.findIndex((t) => t.starts_on <= starts_on && starts_on <= t.ends_on);
          const j = i < 0 ? 0 : i;
          expect(dayNumber(moved.starts_on) - dayNumber(to[j]!.starts_on)).toBe(dayNumber(starts_on) - dayNumber(FROM[j]!.starts_on));
        }
      }),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TERM_VALUES, type Term } from './constants';
import { discountedDues, type DiscountRule } from './discounts';
import { daysOverdue } from './fee-reports';
import { currentTermOf, fallsDueOn, isDue, owedAsOf, termStartsOf, type DatedItem } from './fees-due';

const term = fc.constantFrom<Term>(...TERM_VALUES);
/** A day of 2025/2026 and around it (ISO). */
const day = fc.integer({ min: 0, max: 500 }).map((n) => new Date(Date.UTC(2025, 7, 1) + n * 86_400_000).toISOString().slice(0, 10));
const kobo = fc.integer({ min: 0, max: 20_000_000 });
const item: fc.Arbitrary<DatedItem> = fc.record({ term, kobo, falls_due_on: day });
const items = fc.array(item, { maxLength: 8 });
const paid = fc.integer({ min: 0, max: 100_000_000 });
const through = fc.constantFrom<Term | null>(null, ...TERM_VALUES);
const sum = (list: readonly number[]) => list.reduce((s, v) => s + v, 0);

/** The class of the issue: 1st term ₦80,000 + ₦10,000, 2nd term ₦85,000; terms begin 15 Sep and 12 Jan. */
const CLASS: DatedItem[] = [
  { term: '1st', kobo: 8_000_000, falls_due_on: '2025-09-15' },
  { term: '1st', kobo: 1_000_000, falls_due_on: '2025-09-15' },
  { term: '2nd', kobo: 8_500_000, falls_due_on: '2026-01-12' },
];

describe('when fees fall due', () => {
  it('an item falls due on its own date, else its term’s start (calendar, else announced), else the day it was set', () => {
    const starts = termStartsOf({ '1st': '2025-09-15' }, { '1st': '2025-09-08', '2nd': '2026-01-12', '3rd': null });
    expect(starts).toEqual({ '1st': '2025-09-15', '2nd': '2026-01-12' });
    expect(fallsDueOn({ term: '2nd', due_on: '2025-12-01', set_on: '2025-08-20T08:00:00.000Z' }, starts)).toBe('2025-12-01');
    expect(fallsDueOn({ term: '2nd', due_on: null, set_on: '2025-08-20T08:00:00.000Z' }, starts)).toBe('2026-01-12');
    expect(fallsDueOn({ term: '3rd', due_on: null, set_on: '2025-08-20T08:00:00.000Z' }, starts)).toBe('2025-08-20');
  });

  it('the issue’s class: before January only the 1st term is owed; the card’s term bounds its balance', () => {
    // Paid the whole 1st term: owes nothing in November, the 2nd term’s tuition is upcoming.
    expect(owedAsOf(CLASS, 9_000_000, '2025-11-28')).toEqual({
      owed: { due: 9_000_000, paid: 9_000_000, balance: 0, credit: 0, status: 'paid' },
      upcoming: 8_500_000,
      owedSince: null,
    });
    // Paid nothing: ₦90,000 owed since 15 Sep (74 days on 28 Nov), not ₦175,000.
    const none = owedAsOf(CLASS, 0, '2025-11-28');
    expect([none.owed.balance, none.upcoming, none.owedSince]).toEqual([9_000_000, 8_500_000, '2025-09-15']);
    expect(daysOverdue(none.owedSince, '2025-11-28')).toBe(74);
    // In January both terms are owed; the 1st term's card still counts the 1st term only.
    expect(owedAsOf(CLASS, 9_000_000, '2026-01-20')).toMatchObject({ owed: { balance: 8_500_000 }, upcoming: 0, owedSince: '2026-01-12' });
    expect(owedAsOf(CLASS, 0, '2026-01-20', '1st')).toMatchObject({ owed: { due: 9_000_000, balance: 9_000_000 }, upcoming: 0 });
    // Paid ahead: the 2nd term’s fees are met when they fall due; until then the money is credit.
    expect(owedAsOf(CLASS, 17_500_000, '2025-11-28').owed).toMatchObject({ balance: 0, credit: 8_500_000 });
    expect(owedAsOf(CLASS, 17_500_000, '2026-01-20').owed).toMatchObject({ balance: 0, credit: 0 });
  });

  it('due + upcoming + the terms after `through` = every fee; due is what has fallen due by the day, to the kobo', () => {
    fc.assert(
      fc.property(items, paid, day, through, (list, p, asOf, upTo) => {
        const r = owedAsOf(list, p, asOf, upTo);
        const counted = list.filter((i) => upTo === null || TERM_VALUES.indexOf(i.term) <= TERM_VALUES.indexOf(upTo));
        expect(r.owed.due).toBe(sum(counted.filter((i) => i.falls_due_on <= asOf).map((i) => i.kobo)));
        expect(r.upcoming).toBe(sum(counted.filter((i) => i.falls_due_on > asOf).map((i) => i.kobo)));
        expect(r.owed.due + r.upcoming).toBe(sum(counted.map((i) => i.kobo)));
        expect(r.owed.balance).toBe(Math.max(0, r.owed.due - p));
        expect(r.owed.credit).toBe(Math.max(0, p - r.owed.due));
        expect(Number.isInteger(r.owed.balance) && Number.isInteger(r.upcoming)).toBe(true);
        // No term named = every term.
        expect(owedAsOf(list, p, asOf, null)).toEqual(owedAsOf(list, p, asOf, '3rd'));
      }),
    );
  });

  it('a fee not yet due is never owed nor overdue: changing it changes nothing owed today', () => {
    fc.assert(
      fc.property(items, item, paid, day, through, (list, extra, p, asOf, upTo) => {
        fc.pre(extra.falls_due_on > asOf);
        const before = owedAsOf(list, p, asOf, upTo);
        const after = owedAsOf([...list, extra], p, asOf, upTo);
        expect(after.owed).toEqual(before.owed);
        expect(after.owedSince).toBe(before.owedSince);
      }),
    );
  });

  it('what is owed only grows as days pass and as terms are added; overdue counts from a day that has come', () => {
    fc.assert(
      fc.property(items, paid, day, day, (list, p, a, b) => {
        const [early, late] = a <= b ? [a, b] : [b, a];
        expect(owedAsOf(list, p, late).owed.balance).toBeGreaterThanOrEqual(owedAsOf(list, p, early).owed.balance);
        for (let t = 1; t < TERM_VALUES.length; t++)
          expect(owedAsOf(list, p, late, TERM_VALUES[t]).owed.due).toBeGreaterThanOrEqual(
            owedAsOf(list, p, late, TERM_VALUES[t - 1]).owed.due,
          );
        const r = owedAsOf(list, p, late);
        // Owed since a day exactly when something is owed; that day has come and one of the fees fell due on it.
        expect(r.owedSince === null).toBe(r.owed.balance === 0);
        if (r.owedSince) {
          expect(r.owedSince <= late).toBe(true);
          expect(list.some((i) => i.falls_due_on === r.owedSince && isDue(i, late))).toBe(true);
          expect(daysOverdue(r.owedSince, late)).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });

  it('discounts lower what is due by the same rule, never below 0, and never what is upcoming into what is owed', () => {
    const rule: fc.Arbitrary<DiscountRule> = fc.record({
      id: fc.integer({ min: 1, max: 50 }),
      term: fc.constantFrom<Term | null>(null, ...TERM_VALUES),
      basis: fc.constantFrom('percent' as const, 'fixed' as const),
      percent_bp: fc.integer({ min: 1, max: 10_000 }),
      amount_kobo: fc.integer({ min: 1, max: 5_000_000 }),
      item_keys: fc.constant([]),
    });
    fc.assert(
      fc.property(items, fc.array(rule, { maxLength: 3 }), paid, day, through, (list, rules, p, asOf, upTo) => {
        const keyed = list.map((i, k) => ({ ...i, name_key: `item${k}` }));
        const after = discountedDues(keyed, rules).itemsAfter;
        const full = owedAsOf(keyed, p, asOf, upTo);
        const less = owedAsOf(after, p, asOf, upTo);
        expect(less.owed.due).toBeLessThanOrEqual(full.owed.due);
        expect(less.upcoming).toBeLessThanOrEqual(full.upcoming);
        expect(less.owed.due).toBeGreaterThanOrEqual(0);
        // Each item keeps its day: what a discount takes off a fee not yet due is upcoming too.
        expect(after.map((i) => i.falls_due_on)).toEqual(keyed.map((i) => i.falls_due_on));
      }),
    );
  });

  it('a screen opens on the latest term begun by today; the 1st before the session; none without a calendar', () => {
    const starts = { '1st': '2025-09-15', '2nd': '2026-01-12', '3rd': '2026-04-27' };
    expect(currentTermOf(starts, '2025-11-28')).toBe('1st');
    expect(currentTermOf(starts, '2025-12-28')).toBe('1st'); // the Christmas holiday: still the 1st term's
    expect(currentTermOf(starts, '2026-01-12')).toBe('2nd');
    expect(currentTermOf(starts, '2026-08-30')).toBe('3rd');
    expect(currentTermOf(starts, '2025-08-30')).toBe('1st');
    expect(currentTermOf({}, '2025-11-28')).toBeNull();
    fc.assert(
      fc.property(fc.record({ '1st': day, '2nd': day, '3rd': day }, { requiredKeys: [] }), day, (s, today) => {
        const t = currentTermOf(s, today);
        if (!Object.keys(s).length) {
          expect(t).toBeNull();
          return;
        }
        expect(t).not.toBeNull();
        // No later term with a known start has begun.
        const later = TERM_VALUES.slice(TERM_VALUES.indexOf(t!) + 1);
        expect(later.some((x) => s[x] !== undefined && s[x] <= today)).toBe(false);
      }),
    );
  });
});

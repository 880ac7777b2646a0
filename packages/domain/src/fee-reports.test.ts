import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TERM_VALUES, type Term } from './constants';
import { termBalances } from './fees';
import { collectionFigures, daysOverdue, debtorsQuerySchema, sortDebtors, type CollectionStudent } from './fee-reports';
import { allocateCollected, type AllocationItem } from './fees-due';

const term = fc.constantFrom<Term>(...TERM_VALUES);
const item: fc.Arbitrary<AllocationItem> = fc.record({
  term,
  name_key: fc.constantFrom('tuition', 'pta levy', 'books', 'lab'),
  kobo: fc.integer({ min: 0, max: 20_000_000 }),
});
const paid = fc.integer({ min: 0, max: 80_000_000 });

const student: fc.Arbitrary<CollectionStudent> = fc.record({
  student_class: fc.constantFrom('JSS 1A', 'JSS 1B', 'SSS 2B'),
  items: fc.array(
    fc
      .record({
        term,
        name_key: fc.constantFrom('tuition', 'pta levy', 'books'),
        gross: fc.integer({ min: 0, max: 10_000_000 }),
        off: fc.nat(),
        falls_due_on: fc.constantFrom('2025-09-15', '2026-01-12', '2026-04-27'),
      })
      .map(({ off, ...i }) => ({ ...i, net: i.gross - (i.gross ? off % (i.gross + 1) : 0) })),
    { maxLength: 7 },
  ),
  paidKobo: paid,
});

describe('allocating collected money to items', () => {
  it('the allocations sum to what settles the dues, never exceed an item, and the rest is credit', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 9 }), paid, (items, p) => {
        const { collected, credit } = allocateCollected(items, p);
        const total = items.reduce((s, i) => s + i.kobo, 0);
        collected.forEach((c, i) => {
          expect(c).toBeGreaterThanOrEqual(0);
          expect(c).toBeLessThanOrEqual(items[i]!.kobo);
          expect(Number.isInteger(c)).toBe(true);
        });
        expect(collected.reduce((s, c) => s + c, 0)).toBe(Math.min(p, total));
        expect(credit).toBe(Math.max(0, p - total));
      }),
    );
  });

  it('settles terms in order exactly as termBalances does (the last term with fees also holds the credit)', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 9 }), paid, (items, p) => {
        const { collected, credit } = allocateCollected(items, p);
        const due: Partial<Record<Term, number>> = {};
        for (const i of items) due[i.term] = (due[i.term] ?? 0) + i.kobo;
        const terms = termBalances(due, p);
        for (const [k, t] of terms.entries()) {
          const got = items.reduce((s, it, i) => s + (it.term === t.term ? collected[i]! : 0), 0);
          expect(got + (k === terms.length - 1 ? credit : 0)).toBe(t.paid);
        }
      }),
    );
  });

  it('fills an earlier term before a later one, and a term item by item in order', () => {
    const items: AllocationItem[] = [
      { term: '2nd', kobo: 500 },
      { term: '1st', kobo: 1000 },
      { term: '1st', kobo: 300 },
    ];
    expect(allocateCollected(items, 1200)).toEqual({ collected: [0, 1000, 200], credit: 0 });
    expect(allocateCollected(items, 2000)).toEqual({ collected: [500, 1000, 300], credit: 200 });
    expect(allocateCollected(items, 0)).toEqual({ collected: [0, 0, 0], credit: 0 });
  });
});

/** Days around the three terms' starts above: before the session, in each term. */
const asOf = fc.constantFrom('2025-09-01', '2025-11-28', '2026-01-12', '2026-03-01', '2026-05-01');

describe('the collection figures', () => {
  it('by item, by class and the totals agree; outstanding = expected − collected; the terms add up to the session', () => {
    fc.assert(
      fc.property(fc.array(student, { maxLength: 8 }), asOf, (students, today) => {
        const session = collectionFigures(students, null, today);
        const sum = <T>(rows: readonly T[], f: (r: T) => number) => rows.reduce((s, r) => s + f(r), 0);
        for (const view of [session, ...TERM_VALUES.map((t) => collectionFigures(students, t, today))]) {
          for (const k of ['expected', 'collected', 'outstanding', 'upcoming'] as const) {
            expect(sum(view.by_item, (r) => r[k])).toBe(view.totals[k]);
            expect(sum(view.by_class, (r) => r[k])).toBe(view.totals[k]);
          }
          expect(view.totals.outstanding).toBe(view.totals.expected - view.totals.collected);
          for (const r of [...view.by_item, ...view.by_class]) {
            expect(r.collected).toBeLessThanOrEqual(r.expected);
            expect(r.outstanding).toBeGreaterThanOrEqual(0);
          }
          expect(sum(view.by_class, (r) => r.students)).toBe(students.length);
        }
        for (const k of ['expected', 'collected', 'outstanding', 'upcoming', 'discounts'] as const)
          expect(sum(TERM_VALUES, (t) => collectionFigures(students, t, today).totals[k])).toBe(session.totals[k]);
        // Nothing is lost: what settles dues plus the credit is every kobo received.
        expect(session.totals.collected + session.totals.credit).toBe(sum(students, (s) => s.paidKobo));
        // Every fee is either expected (fallen due) or upcoming; the discounts counted are those of fees fallen due.
        expect(session.totals.expected + session.totals.upcoming).toBe(sum(students, (s) => sum(s.items, (i) => i.net)));
        expect(session.totals.upcoming).toBe(sum(students, (s) => sum(s.items, (i) => (i.falls_due_on > today ? i.net : 0))));
        expect(session.totals.discounts).toBe(sum(students, (s) => sum(s.items, (i) => (i.falls_due_on <= today ? i.gross - i.net : 0))));
        // The same credit shows in a term's view, only on the student's last term with anything due.
        const withDue = students.filter((s) => s.items.some((i) => i.net > 0 && i.falls_due_on <= today));
        expect(sum(TERM_VALUES, (t) => collectionFigures(withDue, t, today).totals.credit)).toBe(
          collectionFigures(withDue, null, today).totals.credit,
        );
      }),
    );
  });

  it('expects only fees fallen due: before the 2nd term, its tuition is upcoming and money beyond the 1st term is credit', () => {
    const kid = (paidKobo: number): CollectionStudent => ({
      student_class: 'JSS 1A',
      items: [
        { term: '1st', name_key: 'tuition', gross: 8_000_000, net: 8_000_000, falls_due_on: '2025-09-15' },
        { term: '1st', name_key: 'pta levy', gross: 1_000_000, net: 1_000_000, falls_due_on: '2025-09-15' },
        { term: '2nd', name_key: 'tuition', gross: 8_500_000, net: 8_500_000, falls_due_on: '2026-01-12' },
      ],
      paidKobo,
    });
    const nov = collectionFigures([kid(9_000_000), kid(0), kid(12_000_000)], null, '2025-11-28');
    expect(nov.totals).toMatchObject({
      expected: 27_000_000,
      collected: 18_000_000,
      outstanding: 9_000_000,
      upcoming: 25_500_000,
      credit: 3_000_000,
    });
    expect(collectionFigures([kid(9_000_000)], '2nd', '2025-11-28').totals).toMatchObject({ expected: 0, upcoming: 8_500_000 });
    const jan = collectionFigures([kid(9_000_000), kid(0), kid(12_000_000)], null, '2026-01-12');
    expect(jan.totals).toMatchObject({ expected: 52_500_000, collected: 21_000_000, upcoming: 0, credit: 0 });
  });
});

describe('days overdue and the debtors order', () => {
  it('counts days from the owed term start to today, 0 before it begins or when unknown', () => {
    expect(daysOverdue('2025-09-08', '2025-09-18')).toBe(10);
    expect(daysOverdue('2025-09-08', '2025-09-08')).toBe(0);
    expect(daysOverdue('2026-01-05', '2025-12-20')).toBe(0);
    expect(daysOverdue(null, '2025-12-20')).toBe(0);
    expect(daysOverdue('2024-12-31', '2025-03-01')).toBe(60);
  });

  it('sorts by each key both ways, ties by admission number ascending', () => {
    const rows = [
      { admission_number: 'STU-0003', full_name: 'Bola Ade', student_class: 'JSS 1A', balance: 500, days_overdue: 3 },
      { admission_number: 'STU-0001', full_name: 'ada Obi', student_class: 'JSS 1B', balance: 500, days_overdue: 9 },
      { admission_number: 'STU-0002', full_name: 'Chidi Eze', student_class: 'JSS 1A', balance: 900, days_overdue: 3 },
    ];
    const ids = (sort: Parameters<typeof sortDebtors>[1], order: 'asc' | 'desc') =>
      sortDebtors(rows, sort, order).map((r) => r.admission_number);
    expect(ids('balance', 'desc')).toEqual(['STU-0002', 'STU-0001', 'STU-0003']);
    expect(ids('balance', 'asc')).toEqual(['STU-0001', 'STU-0003', 'STU-0002']);
    expect(ids('days_overdue', 'desc')).toEqual(['STU-0001', 'STU-0002', 'STU-0003']);
    expect(ids('name', 'asc')).toEqual(['STU-0001', 'STU-0003', 'STU-0002']);
    expect(ids('class', 'asc')).toEqual(['STU-0002', 'STU-0003', 'STU-0001']);
    expect(ids('class', 'desc')).toEqual(['STU-0001', 'STU-0002', 'STU-0003']);
  });

  it('the query refuses unknown sorts and orders and pages past 100,000', () => {
    expect(debtorsQuerySchema.safeParse({ sort: 'balance; drop table students' }).success).toBe(false);
    expect(debtorsQuerySchema.safeParse({ order: 'sideways' }).success).toBe(false);
    expect(debtorsQuerySchema.safeParse({ page: '100001' }).success).toBe(false);
    expect(debtorsQuerySchema.parse({})).toMatchObject({ sort: 'balance', order: 'desc', page: 1 });
  });
});

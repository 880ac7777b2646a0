import { describe, expect, it } from 'vitest';
import { feesForCards, feesForFamily, type BroughtForwardOf } from './fees.service';
import type { PaymentsRepository } from './payments.repository';

/**
 * The report card's outstanding balance and the parent home's fees count the balance brought
 * forward (decision 041): arrears are owed before the session's fees, a credit counts as paid.
 * Over fakes: one arm whose 1st term costs ₦1,000.00, due since 2025-09-15.
 */
const items = [
  { student_class: 'JSS 1A', term: '1st', name_key: 'tuition', amount_kobo: 100_000, due_on: null, created_at: '2025-09-01T00:00:00Z' },
];
const repo = {
  duesReads: () => Promise.resolve({ items, discounts: [] }),
  paidKoboByStudent: () => Promise.resolve([{ student_id: 1, paid: 30_000 }]),
  cardFeeReads: () => Promise.resolve({ items, discounts: [], paid: [{ student_id: 1, paid: 30_000 }], nextDues: [] }),
} as unknown as PaymentsRepository;
const calendar = { termStarts: () => Promise.resolve({ '1st': '2025-09-15' }), today: () => Promise.resolve('2025-10-20') };
const carried =
  (kobo: Record<number, number>): BroughtForwardOf =>
  (_session, students) =>
    Promise.resolve({ from: { id: 1, name: '2024/2025' }, kobo: new Map(students.map((s) => [s.id, kobo[s.id] ?? 0])) });
const session = { id: 2, name: '2025/2026' };

describe('brought forward in the card and family ports', () => {
  it('the report card counts arrears in the outstanding balance, and a credit against it', async () => {
    const q = { session, term: '1st' as const, arm: 'JSS 1A', studentIds: [1, 2], next: { sessionId: null, term: '2nd' as const } };
    expect((await feesForCards(repo, calendar, q)).outstanding).toEqual(
      new Map([
        [1, 700],
        [2, 1000],
      ]),
    );
    const withArrears = await feesForCards(repo, calendar, q, carried({ 1: 25_050, 2: -40_000 }));
    expect(withArrears.outstanding).toEqual(
      new Map([
        [1, 950.5],
        [2, 600],
      ]),
    );
  });

  it("the parent home's figures count arrears as due and a credit as paid", async () => {
    const q = {
      session,
      term: '1st' as const,
      today: '2025-10-20',
      students: [
        { id: 1, student_class: 'JSS 1A' },
        { id: 2, student_class: 'JSS 1A' },
      ],
    };
    const fees = await feesForFamily(repo, calendar, q, carried({ 1: 25_050, 2: -140_000 }));
    expect(fees.get(1)).toEqual({ due_kobo: 125_050, paid_kobo: 30_000, outstanding_kobo: 95_050 });
    expect(fees.get(2)).toEqual({ due_kobo: 100_000, paid_kobo: 140_000, outstanding_kobo: 0 });
  });
});

import { expect, it, describe } from 'vitest';
import {
  feeItemKey,
  type CollectionSummary,
  type DebtorsPage,
  type FeeItem,
  type ReportCard,
  type Statement,
  type Term,
} from '@portal/domain';
import { nowIso, type DB } from '../../db/index';
import { createResults } from '../../db/factories';
import { addStudent, describeEachDatabase, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import { recordPayment, signInBursar } from '../../../test/payments-fixtures';
import { testClock } from '../../../test/attendance-fixtures';
import './payments.tables';

/**
 * When fees fall due: a term's fees on the day its term begins (the school calendar) or on the day
 * the school set for an item; before that they are upcoming, never owed. The card, the statement,
 * the debtors list and the collection summary read one rule. "Today" is moved with an injected clock.
 *
 * The class: 1st term Tuition ₦80,000 + PTA levy ₦10,000, 2nd term Tuition ₦85,000 (₦175,000 in
 * all); the calendar's terms begin 15 Sep 2025, 12 Jan 2026 and 27 Apr 2026.
 */
type Kid = { id: number; admissionNumber: string };
const IN_FIRST_TERM = '2025-11-28';
const IN_SECOND_TERM = '2026-01-20';

describeEachDatabase('when fees fall due', (dialect) => {
  let ctx: TestContext, admin: SignedIn, bursar: SignedIn, sessionId: number;
  const clock = testClock(IN_FIRST_TERM);
  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'], now: clock.now }, async (s) => {
    ({ ctx, admin, sessionId } = s);
    bursar = await signInBursar(ctx, admin);
    await db()
      .insertInto('school_terms')
      .values([
        { session_id: sessionId, term: '1st', starts_on: '2025-09-15', ends_on: '2025-12-19', updated_at: nowIso() },
        { session_id: sessionId, term: '2nd', starts_on: '2026-01-12', ends_on: '2026-04-02', updated_at: nowIso() },
        { session_id: sessionId, term: '3rd', starts_on: '2026-04-27', ends_on: '2026-07-24', updated_at: nowIso() },
      ])
      .execute();
  });
  const db = (): DB => ctx.handle.db;
  const get = (who: SignedIn, url: string) => ctx.app.inject({ method: 'GET', url, headers: who.auth });
  const send = (who: SignedIn, method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) =>
    ctx.app.inject({ method, url, headers: who.auth, payload });
  /** The admin adds fee items to the arm `cls` for a term of the session, in bulk. */
  const addItems = (cls: string, term: string, items: Record<string, unknown>[]) =>
    send(admin, 'POST', '/api/payments/fee-items/bulk/', { session_id: sessionId, term, classes: [cls], items });
  const qs = (o: Record<string, string | number | undefined>) =>
    new URLSearchParams(Object.entries(o).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]]))).toString();
  const ok = async <T>(res: Promise<{ statusCode: number; body: string; json: <J>() => J }>, status = 200): Promise<T> => {
    const r = await res;
    expect(r.statusCode, r.body).toBe(status);
    return r.json<T>();
  };

  let armSeq = 0;
  /** An arm of the test's own with the class's fees, and three students: one paid the 1st term, one nothing, one ₦30,000. */
  async function school() {
    clock.at(IN_FIRST_TERM);
    const label = `D${dialect === 'sqlite' ? 'L' : 'P'}${++armSeq}`;
    const cls = `JSS 3 ${label}`;
    await db().insertInto('class_arms').values({ level: 'JSS 3', arm: label, name: cls, created_at: nowIso() }).execute();
    const item = (term: Term, name: string, kobo: number) => ({
      student_class: cls,
      session_id: sessionId,
      term,
      name,
      name_key: feeItemKey(name),
      amount_kobo: kobo,
      compulsory: 1,
      description: '',
      // Set in August, before the session began: the day set is not the day due.
      created_at: '2025-08-20T08:00:00.000Z',
      updated_at: nowIso(),
    });
    await db()
      .insertInto('fee_items')
      .values([item('1st', 'Tuition', 8_000_000), item('1st', 'PTA levy', 1_000_000), item('2nd', 'Tuition', 8_500_000)])
      .execute();
    const kid = async (first: string, last: string): Promise<Kid> => {
      const s = await addStudent(ctx, cls, first, last);
      return { id: s.id, admissionNumber: s.admissionNumber };
    };
    const paidFirst = await kid('Ada', 'Okafor');
    const nothing = await kid('Bayo', 'Ade');
    const part = await kid('Chika', 'Obi');
    await pay(paidFirst, 90_000, '2025-09-10');
    await pay(part, 30_000, '2025-10-01');
    return { cls, paidFirst, nothing, part };
  }
  let refSeq = 0;
  const pay = (k: Kid, naira: number, paidOn: string) =>
    recordPayment(ctx, bursar, {
      admission_number: k.admissionNumber,
      session_id: sessionId,
      amount: naira,
      bank_reference: `DUE-${dialect}-${++refSeq}`,
      paid_on: paidOn,
    });
  const debtors = (q: Record<string, string | number | undefined>) =>
    ok<DebtorsPage>(get(bursar, `/api/bursary/debtors/?${qs({ session_id: sessionId, ...q })}`));
  const rowOf = (page: DebtorsPage, k: Kid) => page.debtors.find((d) => d.admission_number === k.admissionNumber);
  const statement = (k: Kid) =>
    ok<Statement>(get(bursar, `/api/bursary/statement/?${qs({ admission_number: k.admissionNumber, session_id: sessionId })}`));
  const classRow = async (cls: string, term?: Term) => {
    const s = await ok<CollectionSummary>(get(bursar, `/api/bursary/collections/?${qs({ session_id: sessionId, term })}`));
    return { summary: s, row: s.by_class.find((c) => c.student_class === cls)! };
  };

  describe('the report card', () => {
    async function cardsOf(cls: string, kids: Kid[], term: Term) {
      await createResults(
        db(),
        kids.map((k) => ({ studentId: k.id, sessionId, term, arm: cls, subject: 'Mathematics', score: 70 })),
      );
      const cards = await ok<ReportCard[]>(get(admin, `/api/report-cards/?${qs({ session_id: sessionId, term, student_class: cls })}`));
      return (k: Kid) => cards.find((c) => c.student.admission_number === k.admissionNumber)!.next_term;
    }

    it('prints next term’s fees apart from the outstanding balance, which is what has fallen due up to the card’s term, unpaid', async () => {
      const { cls, paidFirst, nothing, part } = await school();
      const first = await cardsOf(cls, [paidFirst, nothing, part], '1st');
      expect(first(nothing)).toMatchObject({ term_label: 'Second Term', fees: 85_000, outstanding: 90_000 });
      expect(first(paidFirst)).toMatchObject({ fees: 85_000, outstanding: 0 });
      expect(first(part)).toMatchObject({ fees: 85_000, outstanding: 60_000 });

      // Printed again in January, the first term's card still counts only the first term.
      clock.at(IN_SECOND_TERM);
      const again = await cardsOf(cls, [], '1st');
      expect(again(nothing).outstanding).toBe(90_000);
      // The second term's card counts both terms; the third term has no fees set.
      const second = await cardsOf(cls, [paidFirst, nothing, part], '2nd');
      expect(second(nothing)).toMatchObject({ term_label: 'Third Term', fees: null, outstanding: 175_000 });
      expect(second(paidFirst).outstanding).toBe(85_000);
      expect(second(part).outstanding).toBe(145_000);
    });
  });

  describe('the debtors list', () => {
    it('opens on the current term and counts only fees that have fallen due, overdue from the day they fell due', async () => {
      const { cls, paidFirst, nothing, part } = await school();
      // November: the 1st term. The 2nd term's tuition is not owed yet; paying the 1st term in full is not a debt.
      const nov = await debtors({ student_class: cls });
      expect(nov).toMatchObject({ term: '1st', total: 2, total_balance: 150_000, as_of: IN_FIRST_TERM });
      expect(rowOf(nov, paidFirst)).toBeUndefined();
      expect(rowOf(nov, nothing)).toMatchObject({ due: 90_000, paid: 0, balance: 90_000, status: 'unpaid', days_overdue: 74 });
      expect(rowOf(nov, part)).toMatchObject({ due: 90_000, paid: 30_000, balance: 60_000, days_overdue: 74 });
      // The whole session, today: the same (nothing of the 2nd term has fallen due).
      const session = await debtors({ student_class: cls, term: 'session' });
      expect(session).toMatchObject({ term: null, total: 2, total_balance: 150_000 });
      // The 2nd term chosen before it begins: it says when it begins, and counts no more than is due.
      const early = await debtors({ student_class: cls, term: '2nd' });
      expect(early).toMatchObject({ term: '2nd', term_begins: '2026-01-12', total_balance: 150_000 });

      // Before the session begins, nothing is owed at all.
      clock.at('2025-09-10');
      expect(await debtors({ student_class: cls })).toMatchObject({ term: '1st', total: 0, total_balance: 0 });

      // January: the 2nd term has begun; its tuition is owed, overdue from 12 Jan.
      clock.at(IN_SECOND_TERM);
      const jan = await debtors({ student_class: cls });
      expect(jan).toMatchObject({ term: '2nd', total: 3, total_balance: 85_000 + 175_000 + 145_000 });
      expect(rowOf(jan, paidFirst)).toMatchObject({ due: 175_000, paid: 90_000, balance: 85_000, days_overdue: 8 });
      expect(rowOf(jan, nothing)).toMatchObject({ due: 175_000, balance: 175_000, days_overdue: 127 });
      // The 1st term chosen in January: what was owed up to the 1st term.
      const firstTerm = await debtors({ student_class: cls, term: '1st' });
      expect(firstTerm.debtors.map((d) => [d.admission_number, d.balance])).toEqual([
        [nothing.admissionNumber, 90_000],
        [part.admissionNumber, 60_000],
      ]);
    });

    it('counts an item from the due date the school set for it, and discounts lower what is due', async () => {
      const { cls, paidFirst, part } = await school();
      // A 2nd-term excursion the school wants paid by 1 December, set through the fee items screen.
      await ok(addItems(cls, '2nd', [{ name: 'Excursion', amount: 5_000, compulsory: true, due_on: '2025-12-01' }]));
      // Half the 2nd term's tuition off for Chika.
      await ok(
        send(bursar, 'POST', '/api/bursary/discounts/', {
          admission_number: part.admissionNumber,
          session_id: sessionId,
          term: '2nd',
          kind: 'scholarship',
          basis: 'percent',
          percent: 50,
          items: ['Tuition'],
          reason: 'Merit',
        }),
        201,
      );
      expect(rowOf(await debtors({ student_class: cls, term: 'session' }), paidFirst)).toBeUndefined();

      clock.at('2025-12-03');
      const dec = await debtors({ student_class: cls, term: 'session' });
      expect(rowOf(dec, paidFirst)).toMatchObject({ due: 95_000, balance: 5_000, days_overdue: 2 });
      expect(rowOf(dec, part)).toMatchObject({ due: 95_000, discount: 0, balance: 65_000, days_overdue: 79 });
      // The 1st term's view keeps to the 1st term.
      expect(rowOf(await debtors({ student_class: cls, term: '1st' }), paidFirst)).toBeUndefined();

      clock.at(IN_SECOND_TERM);
      const jan = await debtors({ student_class: cls });
      expect(rowOf(jan, part)).toMatchObject({ due: 90_000 + 5_000 + 42_500, discount: 42_500, paid: 30_000, balance: 107_500 });
    });
  });

  describe('the statement of account', () => {
    it('lists fees not yet due as upcoming, outside today’s balance, until the day they fall due', async () => {
      const { nothing, paidFirst } = await school();
      const nov = await statement(nothing);
      expect(nov).toMatchObject({ charged: 90_000, paid: 0, balance: 90_000, upcoming: 85_000, as_of: IN_FIRST_TERM });
      const tuition2 = nov.lines.find((l) => l.kind === 'charge' && l.term === '2nd')!;
      expect(tuition2).toMatchObject({ date: '2026-01-12', debit: 85_000, upcoming: true });
      expect(nov.lines.filter((l) => !l.upcoming).at(-1)!.balance).toBe(90_000);
      expect(nov.lines.filter((l) => l.kind === 'charge' && !l.upcoming).map((l) => [l.date, l.debit])).toEqual([
        ['2025-09-15', 80_000],
        ['2025-09-15', 10_000],
      ]);
      expect(await statement(paidFirst)).toMatchObject({ charged: 90_000, paid: 90_000, balance: 0, upcoming: 85_000 });

      clock.at(IN_SECOND_TERM);
      const jan = await statement(nothing);
      expect(jan).toMatchObject({ charged: 175_000, balance: 175_000, upcoming: 0 });
      expect(jan.lines.every((l) => !l.upcoming)).toBe(true);
    });
  });

  describe('the collection summary', () => {
    it('expects what has fallen due and shows the rest as upcoming', async () => {
      const { cls } = await school();
      const nov = await classRow(cls);
      expect(nov.row).toMatchObject({ students: 3, expected: 270_000, collected: 120_000, outstanding: 150_000, upcoming: 255_000 });
      const second = await classRow(cls, '2nd');
      expect(second.row).toMatchObject({ expected: 0, collected: 0, outstanding: 0, upcoming: 255_000 });

      clock.at(IN_SECOND_TERM);
      const jan = await classRow(cls);
      expect(jan.row).toMatchObject({ expected: 525_000, collected: 120_000, outstanding: 405_000, upcoming: 0 });
    });
  });

  describe('a fee item’s due date', () => {
    it('is set, changed and cleared where fee items are edited; a copy to another term leaves it unset', async () => {
      const { cls } = await school();
      const created = await ok<FeeItem>(
        send(admin, 'POST', '/api/payments/fee-schedules/', {
          student_class: cls,
          session_id: sessionId,
          term: '3rd',
          amount: 2_000,
          name: 'Sports levy',
          due_on: '2026-05-04',
        }),
        201,
      );
      expect(created.due_on).toBe('2026-05-04');
      const changed = await ok<FeeItem>(
        send(admin, 'PUT', `/api/payments/fee-schedules/${created.id}/`, { amount: 2_500, description: '', due_on: '2026-05-11' }),
      );
      expect(changed).toMatchObject({ amount: 2_500, due_on: '2026-05-11' });
      // An edit that does not name the date keeps it; null clears it.
      expect(
        (await ok<FeeItem>(send(admin, 'PUT', `/api/payments/fee-schedules/${created.id}/`, { amount: 2_600, description: '' }))).due_on,
      ).toBe('2026-05-11');
      expect(
        (
          await ok<FeeItem>(
            send(admin, 'PUT', `/api/payments/fee-schedules/${created.id}/`, { amount: 2_600, description: '', due_on: null }),
          )
        ).due_on,
      ).toBeNull();
      const bad = await send(admin, 'PUT', `/api/payments/fee-schedules/${created.id}/`, {
        amount: 2_600,
        description: '',
        due_on: '2026-02-30',
      });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json())).toEqual(['due_on']);

      await ok(addItems(cls, '2nd', [{ name: 'Tuition', amount: 85_000, compulsory: true, due_on: '2026-01-05' }]));
      const list = await ok<FeeItem[]>(get(admin, `/api/payments/fee-schedules/?${qs({ session_id: sessionId, class: cls })}`));
      expect(list.find((f) => f.term === '2nd' && f.name === 'Tuition')!.due_on).toBe('2026-01-05');
      expect(list.find((f) => f.term === '1st' && f.name === 'Tuition')!.due_on).toBeNull();
      await ok(
        send(admin, 'POST', '/api/payments/fee-items/copy/', {
          from_session_id: sessionId,
          from_term: '2nd',
          to_session_id: sessionId,
          to_term: '3rd',
          classes: [cls],
        }),
      );
      const copied = await ok<FeeItem[]>(get(admin, `/api/payments/fee-schedules/?${qs({ session_id: sessionId, class: cls })}`));
      expect(copied.find((f) => f.term === '3rd' && f.name === 'Tuition')!.due_on).toBeNull();
    });
  });
});

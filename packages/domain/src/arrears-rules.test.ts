import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocatePayments, broughtForwardKobo, withBroughtForward, type AllocationPayment } from './arrears';
import { statementLines } from './bursary';
import { TERM_VALUES, type Term } from './constants';

const kobo = fc.integer({ min: 0, max: 50_000_000 });
const signed = fc.integer({ min: -20_000_000, max: 50_000_000 });
const term = fc.constantFrom<Term>(...TERM_VALUES);
const payment = fc.record<AllocationPayment>({
  kobo: fc.integer({ min: 1, max: 30_000_000 }),
  term: fc.option(term, { nil: null }),
  allocation: fc.constantFrom('arrears_first', 'current_first'),
});
const charges = fc.record({ '1st': kobo, '2nd': kobo, '3rd': kobo });

describe('arrears and credits (decision 041): properties in kobo', () => {
  it('allocation never gives a line more than its charge, and every kobo is on a line or in credit', () => {
    fc.assert(
      fc.property(signed, charges, fc.array(payment, { maxLength: 8 }), fc.option(term, { nil: null }), (bf, ch, pays, current) => {
        const a = allocatePayments(bf, ch, pays, current);
        expect(a.arrears.paid).toBeLessThanOrEqual(a.arrears.charged);
        expect(a.arrears.paid + a.arrears.outstanding).toBe(a.arrears.charged);
        for (const t of a.terms) {
          expect(t.paid).toBeGreaterThanOrEqual(0);
          expect(t.paid).toBeLessThanOrEqual(t.charged);
          expect(t.paid + t.outstanding).toBe(t.charged);
          expect(t.charged).toBe(ch[t.term]);
        }
        const money = pays.reduce((s, p) => s + p.kobo, 0) + Math.max(0, -bf);
        const placed = a.arrears.paid + a.terms.reduce((s, t) => s + t.paid, 0);
        expect(placed + a.credit).toBe(money);
        // Credit is left only once every line is settled.
        if (a.credit > 0) expect(a.arrears.outstanding + a.terms.reduce((s, t) => s + t.outstanding, 0)).toBe(0);
        // What is owed overall does not depend on the choices: arrears + charges − money, when positive.
        const owed = a.arrears.outstanding + a.terms.reduce((s, t) => s + t.outstanding, 0) - a.credit;
        expect(owed).toBe(Math.max(0, bf) + ch['1st'] + ch['2nd'] + ch['3rd'] - money);
      }),
    );
  });

  it('arrears first: with every payment so recorded, the arrears are settled before any term receives a kobo', () => {
    fc.assert(
      fc.property(kobo, charges, fc.array(fc.integer({ min: 1, max: 30_000_000 }), { maxLength: 6 }), (bf, ch, amounts) => {
        const a = allocatePayments(
          bf,
          ch,
          amounts.map((k) => ({ kobo: k, term: '3rd' as const, allocation: 'arrears_first' as const })),
          '2nd',
        );
        if (a.terms.some((t) => t.paid > 0)) expect(a.arrears.outstanding).toBe(0);
      }),
    );
  });

  it('current term first: that term is settled before the arrears', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50_000_000 }), charges, fc.integer({ min: 1, max: 30_000_000 }), term, (bf, ch, k, t) => {
        const a = allocatePayments(bf, ch, [{ kobo: k, term: t, allocation: 'current_first' }], null);
        const line = a.terms.find((x) => x.term === t)!;
        if (a.arrears.paid > 0) expect(line.outstanding).toBe(0);
        expect(line.paid).toBe(Math.min(k, ch[t]));
      }),
    );
  });

  it('chained through sessions: each opening is the closing before it, and the sum over sessions is conserved', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ dueKobo: kobo, paidKobo: kobo }), { minLength: 1, maxLength: 6 }), (sessions) => {
        let opening = 0;
        sessions.forEach((s, i) => {
          expect(broughtForwardKobo(sessions.slice(0, i))).toBe(opening);
          // The session's statement closes at opening + due − paid, and the next one opens with it.
          opening = opening + s.dueKobo - s.paidKobo;
        });
        expect(broughtForwardKobo(sessions)).toBe(sessions.reduce((x, s) => x + s.dueKobo - s.paidKobo, 0));
        expect(broughtForwardKobo(sessions)).toBe(opening);
      }),
    );
  });

  it('the statement closes at brought forward + charges − discounts − payments + reversals, its first line the opening', () => {
    fc.assert(
      fc.property(
        signed,
        fc.array(fc.record({ kobo, term }), { maxLength: 5 }),
        fc.array(fc.record({ kobo, term }), { maxLength: 3 }),
        fc.array(
          fc.integer({ min: -5_000_000, max: 30_000_000 }).filter((k) => k !== 0),
          { maxLength: 6 },
        ),
        (bf, chargeList, discountList, money) => {
          const { lines, balance_kobo } = statementLines(
            chargeList.map((c) => ({ date: '2025-09-15', description: 'Tuition', term: c.term, kobo: c.kobo })),
            money.map((k, i) => ({
              date: '2025-10-01',
              description: 'x',
              term: null,
              kobo: k,
              receipt_number: `R-${String(i).padStart(6, '0')}`,
              kind: k < 0 ? ('reversal' as const) : ('payment' as const),
            })),
            discountList.map((d) => ({ date: '2025-09-15', description: 'Discount', term: d.term, kobo: d.kobo })),
            { date: '2025-09-15', description: 'Balance brought forward from 2024/2025', kobo: bf },
          );
          const expected =
            bf +
            chargeList.reduce((s, c) => s + c.kobo, 0) -
            discountList.reduce((s, d) => s + d.kobo, 0) -
            money.reduce((s, k) => s + k, 0);
          expect(balance_kobo).toBe(expected);
          if (bf !== 0) expect(lines[0]).toMatchObject({ kind: 'brought_forward', balance_kobo: bf });
          else expect(lines.some((l) => l.kind === 'brought_forward')).toBe(false);
        },
      ),
    );
  });

  it('a balance with the brought forward: arrears are due, a credit is paid; balance − credit = due + bf − paid', () => {
    fc.assert(
      fc.property(kobo, kobo, signed, (due, paid, bf) => {
        const b = withBroughtForward({ due, paid }, bf);
        expect(b.balance - b.credit).toBe(due + bf - paid);
        expect(b.balance).toBeGreaterThanOrEqual(0);
        expect(b.credit).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});

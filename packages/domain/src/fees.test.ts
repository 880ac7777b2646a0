import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TERM_VALUES, type Term } from './constants';
import { feeBalance, feeItemKey, feeItemsBulkSchema, nextTermDue, paymentWarning, termBalances, FEE_MESSAGES } from './fees';

const kobo = fc.integer({ min: 0, max: 50_000_000 * 100 });
const dueByTerm = fc.record({ '1st': kobo, '2nd': kobo, '3rd': kobo }, { requiredKeys: [] }) as fc.Arbitrary<Partial<Record<Term, number>>>;

describe('fee balance and status', () => {
  it('balance = max(0, due - paid), credit = max(0, paid - due), both integer kobo', () => {
    fc.assert(
      fc.property(kobo, kobo, (due, paid) => {
        const b = feeBalance(due, paid);
        expect(b.balance).toBe(Math.max(0, due - paid));
        expect(b.credit).toBe(Math.max(0, paid - due));
        expect(Number.isInteger(b.balance) && Number.isInteger(b.credit)).toBe(true);
        // Nothing is lost: what was paid is what settles the fees plus what is left over.
        expect(b.due - b.balance + b.credit).toBe(b.paid);
      }),
    );
  });

  it('paid only when something was paid and nothing is owed; part paid while something is owed; unpaid when nothing was paid', () => {
    fc.assert(
      fc.property(kobo, kobo, (due, paid) => {
        const { status, balance } = feeBalance(due, paid);
        if (paid === 0) expect(status).toBe('unpaid');
        else if (balance > 0) expect(status).toBe('part_paid');
        else expect(status).toBe('paid');
        // The issue's case: any payment short of the fees is never "paid".
        if (paid < due) expect(status).not.toBe('paid');
      }),
    );
    expect(feeBalance(17_000_000, 10_000).status).toBe('part_paid'); // ₦100 against ₦170,000
    expect(feeBalance(17_000_000, 17_000_000).status).toBe('paid');
    expect(feeBalance(0, 0).status).toBe('unpaid');
    expect(feeBalance(0, 10_000)).toMatchObject({ status: 'paid', balance: 0, credit: 10_000 });
  });

  it('per term: payments settle terms in order, the parts add up to the session, nothing is lost', () => {
    fc.assert(
      fc.property(dueByTerm, kobo, (due, paid) => {
        const terms = termBalances(due, paid);
        const session = feeBalance(
          TERM_VALUES.reduce((s, t) => s + (due[t] ?? 0), 0),
          paid,
        );
        expect(terms.map((t) => t.term)).toEqual(TERM_VALUES.filter((t) => (due[t] ?? 0) > 0));
        if (terms.length === 0) return;
        expect(terms.reduce((s, t) => s + t.paid, 0)).toBe(paid);
        expect(terms.reduce((s, t) => s + t.balance, 0)).toBe(session.balance);
        // A later term is never settled while an earlier one still owes.
        for (let i = 1; i < terms.length; i++) if (terms[i - 1]!.balance > 0) expect(terms[i]!.paid).toBe(0);
        const next = nextTermDue(terms);
        if (session.balance === 0) expect(next).toBeNull();
        else expect(next).toEqual({ term: terms.find((t) => t.balance > 0)!.term, amount: terms.find((t) => t.balance > 0)!.balance });
      }),
    );
  });

  it('asks for confirmation before paying a term already paid in full or more than the balance, never below it', () => {
    fc.assert(
      fc.property(dueByTerm, kobo, fc.integer({ min: 10_000, max: 500_000_000 }), (due, paid, amount) => {
        const terms = termBalances(due, paid);
        const session = feeBalance(
          TERM_VALUES.reduce((s, t) => s + (due[t] ?? 0), 0),
          paid,
        );
        const next = nextTermDue(terms);
        const w = paymentWarning(session, terms, amount, next?.term ?? null);
        if (session.due === 0) expect(w).toBeNull();
        else if (amount > session.balance) expect(w).toBe('exceeds_balance');
        else expect(w).toBeNull();
        // Paying exactly what is owed now is never questioned.
        if (next) expect(paymentWarning(session, terms, next.amount, next.term)).toBeNull();
        for (const t of terms) if (t.balance === 0) expect(paymentWarning(session, terms, amount, t.term)).toBe('term_already_paid');
      }),
    );
  });
});

describe('fee items', () => {
  it('one key per name whatever the case and spacing', () => {
    expect(feeItemKey('  PTA   Levy ')).toBe(feeItemKey('pta levy'));
    expect(feeItemKey('Tuition')).not.toBe(feeItemKey('PTA levy'));
  });

  it('a bulk save names classes and items, with no name twice', () => {
    const r = feeItemsBulkSchema.safeParse({
      session_id: 1,
      term: '1st',
      classes: ['JSS 1A'],
      items: [
        { name: 'PTA levy', amount: 2500 },
        { name: 'pta LEVY', amount: 3000 },
      ],
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ path: ['items', 1, 'name'], message: FEE_MESSAGES.duplicateInList });
    const ok = feeItemsBulkSchema.parse({
      session_id: 1,
      term: '1st',
      classes: ['JSS 1A', 'JSS 1A'],
      items: [{ name: ' Bus ', amount: '100', compulsory: false }],
    });
    expect(ok).toMatchObject({ classes: ['JSS 1A'], items: [{ name: 'Bus', amount: 10_000, compulsory: false, description: '' }] });
  });
});

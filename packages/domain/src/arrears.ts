/**
 * Arrears and credits (issue 34 item 6, decision 041): what a student's previous session left
 * unpaid opens the next session's statement as "Balance brought forward from <session>"; what they
 * overpaid opens it as a credit (negative). Computed, never stored: the brought-forward of a session
 * is the sum, over every earlier session the student was in, of that session's compulsory charges
 * (after discounts) less the payments net of reversals: the previous session's closing balance,
 * chained. A late payment or reversal in an old session changes it at once, to the kobo.
 *
 * A payment pays the arrears first, then the session's terms in order (1st, 2nd, 3rd), unless the
 * bursar recorded it "current term first": then its term (or the current term when it names none)
 * first, then the arrears, then the other terms. Pure rules, in kobo; naira only in API shapes.
 */
import { z } from 'zod';
import type { Term } from './constants';
import { TERM_VALUES } from './constants';
import { feeBalance, type FeeBalance } from './fees';

export const PAYMENT_ALLOCATIONS = ['arrears_first', 'current_first'] as const;
export type PaymentAllocation = (typeof PAYMENT_ALLOCATIONS)[number];
export const PAYMENT_ALLOCATION_LABELS: Record<PaymentAllocation, string> = {
  arrears_first: 'Arrears first (balance brought forward, then the terms in order)',
  current_first: 'Current term first (this term, then arrears)',
};
export const paymentAllocationField = z.enum(PAYMENT_ALLOCATIONS, { error: 'Choose how the payment is applied.' }).default('arrears_first');

export const ARREARS_MESSAGES = {
  /** The statement's opening line (a credit reads the same, as a negative amount). */
  broughtForward: (session: string) => `Balance brought forward from ${session}`,
  broughtForwardLabel: 'Brought forward',
  creditLabel: 'Credit brought forward',
  allocationLabel: 'Apply the payment to',
  arrearsRow: 'Arrears',
} as const;

/** The statement screen's words for the allocation table. */
export const ARREARS_SCREEN_LABELS = {
  line: 'Line',
  outstanding: 'Outstanding',
  allocationTitle: 'What the payments settled',
  allocationHint:
    'Payments settle the balance brought forward first, then the terms in order, unless the bursar recorded one "current term first".',
} as const;

/** One session's closing figures for a student (kobo): charges after discounts, payments net of reversals. */
export interface SessionMoney {
  dueKobo: number;
  paidKobo: number;
}

/**
 * The balance brought forward into a session: the previous session's closing balance, which itself
 * opened with the one before: so the sum of (due − paid) over every earlier session. Positive =
 * arrears, negative = credit. Integer kobo; order does not matter (a sum).
 */
export function broughtForwardKobo(earlier: readonly SessionMoney[]): number {
  return earlier.reduce((s, m) => s + Math.trunc(m.dueKobo) - Math.trunc(m.paidKobo), 0);
}

/** A payment as the allocation reads it: standing payments only (a reversed payment and its reversal drop out). */
export interface AllocationPayment {
  kobo: number;
  term: Term | null;
  allocation: PaymentAllocation;
}

export interface TermAllocation {
  term: Term;
  charged: number;
  paid: number;
  outstanding: number;
}

export interface Allocation {
  arrears: { charged: number; paid: number; outstanding: number };
  terms: TermAllocation[];
  /** Money left over once every line is settled (the credit brought forward counts here too). */
  credit: number;
}

/**
 * Settles the arrears and each term's charges with the credit brought forward (first, in term
 * order) and then each payment in the order given, by its choice. Never more than a line's charge
 * to a line; what is left is credit. Kobo in, kobo out.
 */
export function allocatePayments(
  broughtForward: number,
  charges: Partial<Record<Term, number>>,
  payments: readonly AllocationPayment[],
  currentTerm: Term | null,
): Allocation {
  const arrearsCharged = Math.max(0, Math.trunc(broughtForward));
  let arrearsLeft = arrearsCharged;
  const left = new Map<Term, number>(TERM_VALUES.map((t) => [t, Math.max(0, Math.trunc(charges[t] ?? 0))]));
  let credit = 0;
  const fill = (money: number, order: readonly ('arrears' | Term)[]): number => {
    let m = money;
    for (const line of order) {
      if (m <= 0) break;
      if (line === 'arrears') {
        const take = Math.min(m, arrearsLeft);
        arrearsLeft -= take;
        m -= take;
      } else {
        const take = Math.min(m, left.get(line)!);
        left.set(line, left.get(line)! - take);
        m -= take;
      }
    }
    return m;
  };
  const arrearsFirst = ['arrears', ...TERM_VALUES] as const;
  credit += fill(Math.max(0, -Math.trunc(broughtForward)), arrearsFirst);
  for (const p of payments) {
    const kobo = Math.max(0, Math.trunc(p.kobo));
    const first = p.term ?? currentTerm ?? TERM_VALUES[0];
    const order = p.allocation === 'current_first' ? [first, 'arrears' as const, ...TERM_VALUES.filter((t) => t !== first)] : arrearsFirst;
    credit += fill(kobo, order);
  }
  return {
    arrears: { charged: arrearsCharged, paid: arrearsCharged - arrearsLeft, outstanding: arrearsLeft },
    terms: TERM_VALUES.map((term) => {
      const charged = Math.max(0, Math.trunc(charges[term] ?? 0));
      const outstanding = left.get(term)!;
      return { term, charged, paid: charged - outstanding, outstanding };
    }),
    credit,
  };
}

/**
 * A balance with the brought-forward counted (kobo): arrears are due before anything else, a credit
 * is money already paid. `due`/`paid`/`balance` as `feeBalance` has them (balance never negative).
 */
export function withBroughtForward(owed: { due: number; paid: number }, broughtForward: number): FeeBalance {
  return feeBalance(owed.due + Math.max(0, Math.trunc(broughtForward)), owed.paid + Math.max(0, -Math.trunc(broughtForward)));
}

/** The name key of the brought-forward line where reports list items (no fee item can have it: keys are lower-case words). */
export const BROUGHT_FORWARD_KEY = '#brought_forward';

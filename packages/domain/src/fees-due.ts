/**
 * When fees fall due: the one rule the report card, the statement of account, the debtors list and
 * the collection summary read for "due" (decision record 015).
 *
 * A compulsory fee item falls due on the day the school set for it (`due_on`, optional per item),
 * else on the day its term begins (the school calendar; else the "next term begins" the card of the
 * term before printed), else on the day it was set (a school that has told the portal neither owes
 * from the day it set the fee, as before). Until that day it is upcoming: never owed, never overdue.
 * The items are taken after the student's discounts (`discountedDues`), so discounts lower what is
 * due by the same rule. Payments (net of reversals) settle what is due term by term (1st, 2nd, 3rd)
 * and within a term in the class's item order; what is paid beyond it is credit, which meets
 * upcoming fees once they fall due. Money is integer kobo; days are ISO dates in the school's time zone.
 */
import { TERM_VALUES, type Term } from './constants';
import { feeBalance, type FeeBalance } from './fees';

/** The first day of each term whose start is known. */
export type TermStarts = Partial<Record<Term, string>>;

/** Each term's start: the school calendar's, else the one the school announced on the cards ("next term begins"). */
export function termStartsOf(calendar: TermStarts, announced: Partial<Record<Term, string | null>>): TermStarts {
  const out: TermStarts = {};
  for (const t of TERM_VALUES) {
    const start = calendar[t] ?? announced[t] ?? null;
    if (start) out[t] = start;
  }
  return out;
}

/** The day a fee item falls due: the school's own date for it, else its term's start, else the day it was set. */
export function fallsDueOn(item: { term: Term; due_on: string | null; set_on: string }, starts: TermStarts): string {
  return item.due_on ?? starts[item.term] ?? item.set_on.slice(0, 10);
}

/** A compulsory item as the rule reads it: its term, kobo (after discounts) and the day it falls due. */
export interface DatedItem {
  term: Term;
  kobo: number;
  falls_due_on: string;
}

const termIndex = (t: Term) => TERM_VALUES.indexOf(t);

/** Whether an item's term is counted when reading up to `through` (every term when null). */
export function inTerms(term: Term, through: Term | null): boolean {
  return through === null || termIndex(term) <= termIndex(through);
}

/** THE rule: an item is owed by `asOf` once it has fallen due, among the terms up to `through` (all when null). */
export function isDue(item: Pick<DatedItem, 'term' | 'falls_due_on'>, asOf: string, through: Term | null = null): boolean {
  return inTerms(item.term, through) && item.falls_due_on <= asOf;
}

/** An item as payments settle it (kobo). */
export interface AllocationItem {
  term: Term;
  kobo: number;
}

/**
 * How a student's money (payments net of reversals) settles their items: term by term (1st, 2nd,
 * 3rd, as `termBalances` settles terms), and within a term in the class's item order, each item at
 * most its amount. What is left over is the student's credit. `collected[i]` belongs to `items[i]`.
 */
export function allocateCollected(items: readonly AllocationItem[], paidKobo: number): { collected: number[]; credit: number } {
  let left = Math.max(0, Math.trunc(paidKobo));
  const collected = items.map(() => 0);
  for (const term of TERM_VALUES) {
    items.forEach((it, i) => {
      if (it.term !== term || left <= 0) return;
      const take = Math.min(left, Math.max(0, Math.trunc(it.kobo)));
      collected[i] = take;
      left -= take;
    });
  }
  return { collected, credit: left };
}

/** What a student owes on a day, by the rule. */
export interface Owed {
  /** What has fallen due (the terms counted) against what was paid: `balance` is owed now, `credit` paid beyond it. */
  owed: FeeBalance;
  /** Of the terms counted, what has not fallen due yet. */
  upcoming: number;
  /** The day the oldest unpaid item fell due (days overdue count from it); null when nothing is owed. */
  owedSince: string | null;
}

/**
 * What a student owes as of `asOf`: the items that have fallen due among the terms up to `through`
 * (every term when null) against everything paid in the session; the rest of those terms is upcoming.
 */
export function owedAsOf(items: readonly DatedItem[], paidKobo: number, asOf: string, through: Term | null = null): Owed {
  const due = items.map((i) => isDue(i, asOf, through));
  const dueKobo = items.map((i, k) => (due[k] ? Math.max(0, Math.trunc(i.kobo)) : 0));
  const { collected } = allocateCollected(
    items.map((i, k) => ({ term: i.term, kobo: dueKobo[k]! })),
    paidKobo,
  );
  let owedSince: string | null = null;
  let upcoming = 0;
  items.forEach((i, k) => {
    if (!due[k]) {
      if (inTerms(i.term, through)) upcoming += Math.max(0, Math.trunc(i.kobo));
      return;
    }
    if (collected[k]! < dueKobo[k]! && (owedSince === null || i.falls_due_on < owedSince)) owedSince = i.falls_due_on;
  });
  return {
    owed: feeBalance(
      dueKobo.reduce((s, v) => s + v, 0),
      paidKobo,
    ),
    upcoming,
    owedSince,
  };
}

/**
 * The term a screen opens on: the latest term that has begun by `today` (the one holding today, or
 * the last one before it); the 1st term when the session has not begun; null when no term's start is
 * known (then every fee counts from the day it was set, as for the whole session).
 */
export function currentTermOf(starts: TermStarts, today: string): Term | null {
  const known = TERM_VALUES.filter((t) => starts[t]);
  if (!known.length) return null;
  return [...known].reverse().find((t) => starts[t]! <= today) ?? TERM_VALUES[0];
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bankReferenceKey } from './bank-references';
import { formatReceiptNumber, offlinePaymentSchema, BURSARY_MESSAGES, statementLines, type StatementCharge } from './bursary';
import { TERM_VALUES, type Term } from './constants';

const day = fc.integer({ min: 0, max: 364 }).map((n) => new Date(Date.UTC(2025, 8, 1) + n * 86_400_000).toISOString().slice(0, 10));
const term = fc.constantFrom(null, ...TERM_VALUES);
const charge = fc.record({ date: day, description: fc.string(), term, kobo: fc.integer({ min: 1, max: 100_000_000 }) });
const entry = fc.record({
  date: day,
  description: fc.string(),
  term,
  kobo: fc.integer({ min: 1, max: 100_000_000 }),
  receipt: fc.integer({ min: 1, max: 999_999 }),
  reversal: fc.boolean(),
});
/** A generated payment or reversal as the statement takes it: a reversal's money goes back (negative). */
const statementEntry = (e: { date: string; description: string; term: Term | null; kobo: number; receipt: number; reversal: boolean }) => ({
  date: e.date,
  description: e.description,
  term: e.term,
  kobo: e.reversal ? -e.kobo : e.kobo,
  receipt_number: formatReceiptNumber(e.receipt),
  kind: e.reversal ? ('reversal' as const) : ('payment' as const),
});

/** A property over random charges and discounts of `item` and random payments or reversals, as statementLines takes them. */
function forStatements<C extends StatementCharge>(
  item: fc.Arbitrary<C>,
  most: { charges: number; discounts: number; entries: number },
  check: (charges: C[], discounts: C[], entries: ReturnType<typeof statementEntry>[]) => void,
): void {
  fc.assert(
    fc.property(
      fc.array(item, { maxLength: most.charges }),
      fc.array(item, { maxLength: most.discounts }),
      fc.array(entry, { maxLength: most.entries }),
      (charges, discounts, raw) => check(charges, discounts, raw.map(statementEntry)),
    ),
  );
}

describe('statementLines', () => {
  it('closing balance = charges − payments + reversals, whatever the order; the running balance adds up line by line', () => {
    fc.assert(
      fc.property(fc.array(charge, { maxLength: 8 }), fc.array(entry, { maxLength: 12 }), (charges, raw) => {
        const entries = raw.map(statementEntry);
        const { lines, balance_kobo } = statementLines(charges, entries);
        const charged = charges.reduce((s, c) => s + c.kobo, 0);
        const paid = raw.filter((e) => !e.reversal).reduce((s, e) => s + e.kobo, 0);
        const reversed = raw.filter((e) => e.reversal).reduce((s, e) => s + e.kobo, 0);
        expect(balance_kobo).toBe(charged - paid + reversed);
        expect(lines).toHaveLength(charges.length + entries.length);
        let running = 0;
        for (const l of lines) {
          running += l.debit_kobo - l.credit_kobo;
          expect(l.balance_kobo).toBe(running);
          expect(l.debit_kobo === 0 || l.credit_kobo === 0).toBe(true);
        }
        // Charges first, then entries by date then receipt number.
        expect(lines.slice(0, charges.length).every((l) => l.kind === 'charge')).toBe(true);
        const rest = lines.slice(charges.length).map((l) => `${l.date}|${l.receipt_number}`);
        expect(rest).toEqual([...rest].sort());
        // The same entries in another order give the same statement.
        expect(statementLines(charges, [...entries].reverse()).balance_kobo).toBe(balance_kobo);
      }),
    );
  });

  it('with discounts: closing balance = charges − discounts − payments + reversals; discounts follow the charges as credits', () => {
    forStatements(charge, { charges: 6, discounts: 6, entries: 8 }, (charges, discounts, entries) => {
      const { lines, balance_kobo } = statementLines(charges, entries, discounts);
      const sum = (l: readonly { kobo: number }[]) => l.reduce((s, x) => s + x.kobo, 0);
      expect(balance_kobo).toBe(sum(charges) - sum(discounts) - sum(entries));
      const head = charges.length + discounts.length;
      // Term by term: a term's charges, then its discounts; every charge and discount before the money.
      const rank = (t: Term | null) => (t === null ? 3 : TERM_VALUES.indexOf(t)) * 2;
      const keys = lines.slice(0, head).map((l) => rank(l.term) + (l.kind === 'discount' ? 1 : 0));
      expect(lines.slice(0, head).every((l) => l.kind === 'charge' || l.kind === 'discount')).toBe(true);
      expect(keys).toEqual([...keys].sort((a, b) => a - b));
      expect(lines.slice(head).every((l) => l.kind === 'payment' || l.kind === 'reversal')).toBe(true);
      for (const l of lines.filter((x) => x.kind === 'discount')) expect(l.debit_kobo).toBe(0);
      expect(lines.at(-1)?.balance_kobo ?? 0).toBe(balance_kobo);
    });
  });

  it('charges and discounts not yet due come last, by the day they fall due, and leave the balance as it was', () => {
    const upcomingCharge = fc.record({
      date: day,
      description: fc.string(),
      term,
      kobo: fc.integer({ min: 1, max: 100_000_000 }),
      upcoming: fc.boolean(),
    });
    forStatements(upcomingCharge, { charges: 6, discounts: 4, entries: 6 }, (charges, discounts, entries) => {
      const { lines, balance_kobo } = statementLines(charges, entries, discounts);
      const dueOnly = statementLines(
        charges.filter((c) => !c.upcoming),
        entries,
        discounts.filter((d) => !d.upcoming),
      );
      // Today's balance is the statement of what has fallen due; the upcoming lines add nothing to it.
      expect(balance_kobo).toBe(dueOnly.balance_kobo);
      const upcoming = lines.filter((l) => l.upcoming);
      expect(upcoming).toHaveLength(charges.filter((c) => c.upcoming).length + discounts.filter((d) => d.upcoming).length);
      expect(lines.slice(lines.length - upcoming.length).every((l) => l.upcoming)).toBe(true);
      for (const l of upcoming) expect(l.balance_kobo).toBe(balance_kobo);
      const dates = upcoming.map((l) => l.date);
      expect(dates).toEqual([...dates].sort());
    });
    // The issue's statement in November: January's tuition listed, not run into today's balance.
    const { lines, balance_kobo } = statementLines(
      [
        { date: '2025-09-15', description: 'Tuition (First Term)', term: '1st', kobo: 9_000_000 },
        { date: '2026-01-12', description: 'Tuition (Second Term)', term: '2nd', kobo: 8_500_000, upcoming: true },
      ],
      [
        {
          date: '2025-09-10',
          description: 'Bank transfer R-000001',
          term: null,
          kobo: 9_000_000,
          receipt_number: 'R-000001',
          kind: 'payment',
        },
      ],
    );
    expect(balance_kobo).toBe(0);
    expect(lines.map((l) => [l.date, l.kind, l.upcoming, l.balance_kobo])).toEqual([
      ['2025-09-15', 'charge', false, 9_000_000],
      ['2025-09-10', 'payment', false, 0],
      ['2026-01-12', 'charge', true, 0],
    ]);
  });
});

describe('bank references and receipt numbers', () => {
  it('one key whatever the case, spaces, dashes, slashes or dots', () => {
    expect(bankReferenceKey('011', 'ab-12/34.5')).toBe(bankReferenceKey('011', 'AB 12 34 5'));
    expect(bankReferenceKey('011', 'AB1')).not.toBe(bankReferenceKey('057', 'AB1'));
    expect(formatReceiptNumber(7)).toBe('R-000007');
    expect(formatReceiptNumber(1_234_567)).toBe('R-1234567');
  });

  it('a banked method needs the bank and its reference; cash does not', () => {
    const base = { admission_number: 'STU-0001', session_id: 1, term: null, amount: 5000, paid_on: '2025-10-01' };
    const teller = offlinePaymentSchema.safeParse({ ...base, method: 'bank_teller' });
    expect(teller.success).toBe(false);
    expect(teller.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['bank', BURSARY_MESSAGES.bankRequired],
      ['bank_reference', BURSARY_MESSAGES.referenceRequired],
    ]);
    expect(offlinePaymentSchema.safeParse({ ...base, method: 'cash' }).success).toBe(true);
    const badScan = offlinePaymentSchema.safeParse({ ...base, method: 'cash', scan: 'data:text/html;base64,PGh0bWw+' });
    expect(badScan.error!.issues.map((i) => i.message)).toEqual([BURSARY_MESSAGES.scanInvalid]);
  });
});

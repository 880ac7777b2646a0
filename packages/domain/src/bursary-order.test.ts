import { describe, expect, it } from 'vitest';
import { statementLines, type StatementCharge } from './bursary';

const entry = (date: string, receipt: string, kobo: number) => ({
  date,
  description: receipt,
  term: null,
  kobo,
  receipt_number: receipt,
  kind: kobo < 0 ? ('reversal' as const) : ('payment' as const),
});

describe('statementLines: order, whatever order the lines come in', () => {
  it('money by date, then receipt; five entries given backwards', () => {
    const entries = [
      entry('2025-10-02', 'R-000005', 500),
      entry('2025-10-01', 'R-000009', 400),
      entry('2025-10-01', 'R-000004', -300),
      entry('2025-09-30', 'R-000010', 200),
      entry('2025-09-30', 'R-000001', 100),
    ];
    for (const list of [entries, [...entries].reverse(), [entries[2]!, entries[0]!, entries[4]!, entries[1]!, entries[3]!]])
      expect(statementLines([], list).lines.map((l) => l.receipt_number)).toEqual([
        'R-000001',
        'R-000010',
        'R-000004',
        'R-000009',
        'R-000005',
      ]);
  });

  it('a payment of 0 is neither debit nor credit', () => {
    const [line] = statementLines([], [entry('2025-10-01', 'R-000001', 0)]).lines;
    expect([line!.debit_kobo, line!.credit_kobo, line!.balance_kobo]).toEqual([0, 0, 0]);
  });

  it('charges before discounts within a term, and the upcoming by the day each falls due', () => {
    const c = (date: string, term: '1st' | '2nd' | '3rd', description: string, upcoming = false): StatementCharge => ({
      date,
      term,
      description,
      kobo: 1000,
      upcoming,
    });
    const { lines } = statementLines(
      [
        c('2025-09-08', '2nd', 'charge 2'),
        c('2025-09-08', '1st', 'charge 1'),
        c('2026-04-01', '3rd', 'u1', true),
        c('2026-02-01', '3rd', 'u2', true),
        c('2026-03-01', '3rd', 'u3', true),
      ],
      [],
      [c('2025-09-08', '1st', 'discount 1'), c('2025-09-08', '2nd', 'discount 2'), c('2026-01-15', '3rd', 'u0', true)],
    );
    expect(lines.map((l) => l.description)).toEqual(['charge 1', 'discount 1', 'charge 2', 'discount 2', 'u0', 'u2', 'u3', 'u1']);
  });
  it('two charges and two discounts of one term keep the order they were given', () => {
    const c = (description: string): StatementCharge => ({ date: '2025-09-08', term: '1st', description, kobo: 100 });
    const { lines } = statementLines([c('Tuition'), c('Books')], [], [c('Sibling'), c('Staff child')]);
    expect(lines.map((l) => l.description)).toEqual(['Tuition', 'Books', 'Sibling', 'Staff child']);
  });
});

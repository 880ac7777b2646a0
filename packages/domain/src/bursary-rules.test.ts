import { describe, expect, it } from 'vitest';
import {
  BANKED_METHODS,
  formatReceiptNumber,
  OFFLINE_METHODS,
  offlinePaymentSchema,
  PAYMENT_METHODS,
  statementLines,
  type StatementCharge,
} from './bursary';

const line = (
  kind: string,
  term: string | null,
  receipt: string | null,
  debit: number,
  credit: number,
  balance: number,
  upcoming = false,
) => ({
  kind,
  term,
  receipt_number: receipt,
  debit_kobo: debit,
  credit_kobo: credit,
  balance_kobo: balance,
  upcoming,
});

describe('statementLines: a literal statement', () => {
  const charges = [
    { date: '2025-12-01', description: 'Excursion (3rd Term)', term: '3rd' as const, kobo: 300_000, upcoming: true },
    { date: '2026-01-05', description: 'Tuition (2nd Term)', term: '2nd' as const, kobo: 5_000_000, upcoming: true },
    { date: '2025-09-01', description: 'Uniform', term: null, kobo: 1_000_000 },
    { date: '2025-09-08', description: 'Tuition (1st Term)', term: '1st' as const, kobo: 5_000_000 },
  ];
  const discounts = [
    { date: '2026-01-05', description: 'Sibling (2nd Term)', term: '2nd' as const, kobo: 500_000, upcoming: true },
    { date: '2025-09-08', description: 'Sibling (1st Term)', term: '1st' as const, kobo: 500_000 },
  ];
  const entries = [
    {
      date: '2025-09-12',
      description: 'Payment R-000002 reversed.',
      term: '1st' as const,
      kobo: -2_000_000,
      receipt_number: 'R-000003',
      kind: 'reversal' as const,
    },
    {
      date: '2025-09-10',
      description: 'Bank transfer R-000002',
      term: '1st' as const,
      kobo: 2_000_000,
      receipt_number: 'R-000002',
      kind: 'payment' as const,
    },
    // An entry with a blank receipt and no term (a general payment): dated like the others, first among its day's.
    { date: '2025-09-10', description: 'Cash ', term: null, kobo: 100_000, receipt_number: '', kind: 'payment' as const },
  ];

  it("orders each term's charges then its discounts, a charge of no term after the terms, the money by date then receipt, the upcoming last by date", () => {
    const { lines, balance_kobo } = statementLines(charges, entries, discounts);
    expect(lines.map((l) => l.description)).toEqual([
      'Tuition (1st Term)',
      'Sibling (1st Term)',
      'Uniform',
      'Cash ',
      'Bank transfer R-000002',
      'Payment R-000002 reversed.',
      'Excursion (3rd Term)',
      'Tuition (2nd Term)',
      'Sibling (2nd Term)',
    ]);
    expect(
      lines.map(({ kind, term, receipt_number, debit_kobo, credit_kobo, balance_kobo: b, upcoming }) => ({
        kind,
        term,
        receipt_number,
        debit_kobo,
        credit_kobo,
        balance_kobo: b,
        upcoming,
      })),
    ).toEqual([
      line('charge', '1st', null, 5_000_000, 0, 5_000_000),
      line('discount', '1st', null, 0, 500_000, 4_500_000),
      line('charge', null, null, 1_000_000, 0, 5_500_000),
      line('payment', null, '', 0, 100_000, 5_400_000),
      line('payment', '1st', 'R-000002', 0, 2_000_000, 3_400_000),
      line('reversal', '1st', 'R-000003', 2_000_000, 0, 5_400_000),
      line('charge', '3rd', null, 300_000, 0, 5_400_000, true),
      line('charge', '2nd', null, 5_000_000, 0, 5_400_000, true),
      line('discount', '2nd', null, 0, 500_000, 5_400_000, true),
    ]);
    expect(lines.map((l) => l.date)).toEqual([
      '2025-09-08',
      '2025-09-08',
      '2025-09-01',
      '2025-09-10',
      '2025-09-10',
      '2025-09-12',
      '2025-12-01',
      '2026-01-05',
      '2026-01-05',
    ]);
    expect(balance_kobo).toBe(5_400_000);
  });

  it('entries of one day sort by receipt whatever order they come in; no discounts is the default', () => {
    const a = statementLines([], [entries[1]!, entries[2]!]).lines.map((l) => l.receipt_number);
    const b = statementLines([], [entries[2]!, entries[1]!]).lines.map((l) => l.receipt_number);
    expect(a).toEqual(['', 'R-000002']);
    expect(b).toEqual(['', 'R-000002']);
    expect(statementLines([], [])).toEqual({ lines: [], balance_kobo: 0 });
  });

  type Example = {
    name: string;
    charge: StatementCharge;
    entries: Parameters<typeof statementLines>[1];
    discounts: StatementCharge[];
    rows: unknown[];
  };
  it.each<Example>([
    {
      name: 'a payment is a credit and a reversal a debit of its size',
      charge: { date: '2025-09-15', description: 'Tuition', term: '1st', kobo: 1000 },
      entries: [
        { date: '2025-09-20', description: 'Paid', term: '1st', kobo: 600, receipt_number: 'R-000001', kind: 'payment' },
        { date: '2025-09-21', description: 'Reversed', term: '1st', kobo: -600, receipt_number: 'R-000002', kind: 'reversal' },
      ],
      discounts: [],
      rows: [
        ['charge', 'Tuition', 1000, 0, 1000],
        ['payment', 'Paid', 0, 600, 400],
        ['reversal', 'Reversed', 600, 0, 1000],
      ],
    },
    {
      name: 'a discount dated before its charge still follows it; a reversal alone leaves a debit',
      charge: { date: '2025-09-08', description: 'Tuition', term: '1st', kobo: 1000 },
      entries: [{ date: '2025-09-01', description: 'Reversed', term: null, kobo: -400, receipt_number: 'R-000009', kind: 'reversal' }],
      discounts: [{ date: '2025-09-01', description: 'Discount', term: '1st', kobo: 100 }],
      rows: [
        ['charge', 'Tuition', 1000, 0, 1000],
        ['discount', 'Discount', 0, 100, 900],
        ['reversal', 'Reversed', 400, 0, 1300],
      ],
    },
  ])('$name', ({ charge, entries, discounts, rows }) => {
    const { lines } = statementLines([charge], entries, discounts);
    expect(lines.map((l) => [l.kind, l.description, l.debit_kobo, l.credit_kobo, l.balance_kobo])).toEqual(rows);
  });
});

describe('receipts and methods', () => {
  it('receipt numbers are R- and six digits', () => {
    expect(formatReceiptNumber(1)).toBe('R-000001');
    expect(formatReceiptNumber(123456)).toBe('R-123456');
    expect(formatReceiptNumber(1234567)).toBe('R-1234567');
  });

  it('the methods, and which go through a bank', () => {
    expect(PAYMENT_METHODS).toEqual(['online', 'bank_transfer', 'bank_teller', 'cash', 'pos']);
    expect(OFFLINE_METHODS).toEqual(['bank_transfer', 'bank_teller', 'cash', 'pos']);
    expect(BANKED_METHODS).toEqual(['bank_transfer', 'bank_teller', 'pos']);
  });
});

describe('an offline payment as recorded', () => {
  const base = { admission_number: 'ADM/2025/001', session_id: 1, term: null, amount: '15000', paid_on: '2025-09-10' };

  it('cash needs no bank; defaults are blank and unconfirmed', () => {
    expect(offlinePaymentSchema.parse({ ...base, method: 'cash' })).toEqual({
      ...base,
      amount: 1_500_000,
      method: 'cash',
      bank: '',
      bank_reference: '',
      note: '',
      scan: '',
      confirm: false,
      // Arrears first unless the bursar says otherwise (issue 34, decision 041).
      allocation: 'arrears_first',
    });
  });

  it('a banked method needs the bank and its reference', () => {
    const r = offlinePaymentSchema.safeParse({ ...base, method: 'pos' });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['bank', 'Name the bank.'],
      ['bank_reference', 'Give the bank reference (teller or transfer number).'],
    ]);
    expect(offlinePaymentSchema.safeParse({ ...base, method: 'bank_teller', bank: 'GTBank', bank_reference: 'TLR-001' }).success).toBe(
      true,
    );
  });

  it('a scan is a PNG, JPEG or PDF data URL', () => {
    const ok = (scan: string) => offlinePaymentSchema.safeParse({ ...base, method: 'cash', scan }).success;
    expect(ok('data:image/png;base64,iVBORw0KGgo=')).toBe(true);
    expect(ok('data:application/pdf;base64,JVBERi0=')).toBe(true);
    expect(ok('data:image/gif;base64,R0lGOD=')).toBe(false);
    expect(ok('xdata:image/png;base64,iVBORw0KGgo=')).toBe(false);
    expect(ok('data:image/png;base64,iVBORw0KGgo= ')).toBe(false);
    const r = offlinePaymentSchema.safeParse({ ...base, method: 'cash', scan: 'data:text/plain;base64,aGk=' });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['scan', 'The scan must be a PNG or JPEG image or a PDF.']]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  BURSARY_MESSAGES,
  BURSARY_SCREENS,
  LEDGER_PAGE_SIZE,
  ledgerQuerySchema,
  offlinePaymentSchema,
  PAYMENT_METHOD_LABELS,
  reversalSchema,
  SCAN_MAX_BYTES,
  SCAN_TYPES,
  STAFF_CAPABILITIES,
  STAFF_CAPABILITY_DESCRIPTIONS,
  STAFF_CAPABILITY_LABELS,
  staffCapabilitiesSchema,
  statementQuerySchema,
} from './bursary';

const messages = (r: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

describe("the bursar's words, word for word", () => {
  it('messages', () => {
    // Every message word for word, function messages by name: __snapshots__/bursary-words.test.ts.snap.
    expect(BURSARY_MESSAGES).toMatchSnapshot();
    expect(BURSARY_MESSAGES.referenceTaken('R-000004')).toBe('This bank reference is already recorded (receipt R-000004).');
    expect(BURSARY_MESSAGES.alreadyReversed('R-000005')).toBe('This payment was already reversed (R-000005).');
    expect(BURSARY_MESSAGES.recorded('R-000006')).toBe('Payment recorded: receipt R-000006.');
    expect(BURSARY_MESSAGES.reversed('R-000007')).toBe('Payment R-000007 reversed.');
  });

  it('capabilities, methods, scans and screens', () => {
    expect(STAFF_CAPABILITIES).toEqual(['bursar']);
    expect(STAFF_CAPABILITY_LABELS).toEqual({ bursar: 'Bursar' });
    expect(STAFF_CAPABILITY_DESCRIPTIONS).toEqual({ bursar: 'Fee items, recording and reversing payments, statements and fee reports' });
    expect(PAYMENT_METHOD_LABELS).toEqual({
      online: 'Online (card)',
      bank_transfer: 'Bank transfer',
      bank_teller: 'Bank teller',
      cash: 'Cash',
      pos: 'POS',
    });
    expect(SCAN_MAX_BYTES).toBe(2_097_152);
    expect(SCAN_TYPES).toEqual(['image/png', 'image/jpeg', 'application/pdf']);
    expect(LEDGER_PAGE_SIZE).toBe(50);
    // Each screen's address, heading and tile text; the nav label is the heading.
    expect(Object.entries(BURSARY_SCREENS).map(([key, s]) => [key, s.to, s.title, s.description])).toEqual([
      ['record', '/bursary/record', 'Record a Payment', 'Bank transfer, teller, cash or POS'],
      ['ledger', '/bursary/ledger', 'Payments Ledger', 'Every payment and reversal, with receipts and scans'],
      ['statement', '/bursary/statement', 'Statement of Account', "A student's charges, payments and balance"],
      ['capabilities', '/staff-capabilities', 'Staff Capabilities', 'Who is the bursar'],
    ]);
    for (const s of Object.values(BURSARY_SCREENS)) {
      expect(Object.keys(s)).toEqual(['to', 'title', 'label', 'description']);
      expect(s.label).toBe(s.title);
    }
  });
});

describe("the bursar's schemas", () => {
  const base = { admission_number: 'ADM/2025/001', session_id: 1, term: '2nd', amount: 15000, paid_on: '2025-09-10', method: 'cash' };

  it('capabilities: known ones, at most 10', () => {
    expect(staffCapabilitiesSchema.parse({ capabilities: ['bursar'] })).toEqual({ capabilities: ['bursar'] });
    expect(staffCapabilitiesSchema.safeParse({ capabilities: ['cashier'] }).success).toBe(false);
    expect(staffCapabilitiesSchema.safeParse({ capabilities: Array.from({ length: 11 }, () => 'bursar') }).success).toBe(false);
    expect(staffCapabilitiesSchema.safeParse({ capabilities: Array.from({ length: 10 }, () => 'bursar') }).success).toBe(true);
  });

  it('an offline payment: the method named, text fields trimmed and bounded, a reference never look-alike', () => {
    expect(messages(offlinePaymentSchema.safeParse({ ...base, method: 'cheque' }))).toEqual([['method', 'Choose how the money was paid.']]);
    expect(messages(offlinePaymentSchema.safeParse({ ...base, method: 'online' }))).toEqual([['method', 'Choose how the money was paid.']]);
    expect(offlinePaymentSchema.parse({ ...base, bank: '  GTBank ', note: ' paid at the gate ' })).toMatchObject({
      term: '2nd',
      bank: 'GTBank',
      note: 'paid at the gate',
    });
    expect(offlinePaymentSchema.safeParse({ ...base, bank: 'b'.repeat(81) }).success).toBe(false);
    expect(offlinePaymentSchema.safeParse({ ...base, bank: 'b'.repeat(80) }).success).toBe(true);
    expect(offlinePaymentSchema.safeParse({ ...base, bank_reference: 'r'.repeat(61) }).success).toBe(false);
    expect(offlinePaymentSchema.safeParse({ ...base, note: 'n'.repeat(301) }).success).toBe(false);
    expect(offlinePaymentSchema.safeParse({ ...base, note: 'n'.repeat(300) }).success).toBe(true);
    expect(offlinePaymentSchema.safeParse({ ...base, term: '4th' }).success).toBe(false);
    expect(offlinePaymentSchema.safeParse({ ...base, paid_on: '2025-02-30' }).success).toBe(false);
    expect(offlinePaymentSchema.parse({ ...base, confirm: true }).confirm).toBe(true);
    expect(messages(offlinePaymentSchema.safeParse({ ...base, scan: 'x'.repeat(3_000_001) }))).toContainEqual([
      'scan',
      'The scan is too large (at most 2 MB).',
    ]);
    // A reference with a Cyrillic letter that looks Latin is refused for every method, cash too.
    const lookAlike = offlinePaymentSchema.safeParse({ ...base, bank_reference: 'TLR-0\u04101' });
    expect(lookAlike.success).toBe(false);
    expect(lookAlike.error?.issues.map((i) => i.path.join('.'))).toEqual(['bank_reference']);
    // A transfer with only invisible characters as its reference has none.
    expect(
      messages(offlinePaymentSchema.safeParse({ ...base, method: 'bank_transfer', bank: 'Access', bank_reference: '\u200b' })),
    ).toContainEqual(['bank_reference', 'Give the bank reference (teller or transfer number).']);
    expect(offlinePaymentSchema.safeParse({ ...base, method: 'bank_transfer', bank: 'Access', bank_reference: 'TRF 123' }).success).toBe(
      true,
    );
  });

  it('a reversal needs a reason of at most 300 characters', () => {
    expect(reversalSchema.parse({ reason: ' Bounced ' })).toEqual({ reason: 'Bounced' });
    expect(messages(reversalSchema.safeParse({ reason: '  ' }))).toEqual([['reason', 'Give the reason for the reversal.']]);
    expect(reversalSchema.safeParse({}).success).toBe(false);
    expect(reversalSchema.safeParse({ reason: 'r'.repeat(301) }).success).toBe(false);
    expect(reversalSchema.safeParse({ reason: 'r'.repeat(300) }).success).toBe(true);
  });

  it('the ledger and the statement queries', () => {
    expect(ledgerQuerySchema.parse({})).toEqual({ page: 1 });
    expect(ledgerQuerySchema.parse({ page: '3', session_id: '2', method: 'pos', from: '2025-09-01', bank_reference: ' TLR-1 ' })).toEqual({
      page: 3,
      session_id: 2,
      method: 'pos',
      from: '2025-09-01',
      bank_reference: 'TLR-1',
    });
    expect(ledgerQuerySchema.safeParse({ page: '0' }).success).toBe(false);
    expect(ledgerQuerySchema.safeParse({ page: '100001' }).success).toBe(false);
    expect(ledgerQuerySchema.safeParse({ page: '100000' }).success).toBe(true);
    expect(ledgerQuerySchema.safeParse({ page: '1.5' }).success).toBe(false);
    expect(ledgerQuerySchema.safeParse({ method: 'cheque' }).success).toBe(false);
    expect(ledgerQuerySchema.safeParse({ bank_reference: 'r'.repeat(61) }).success).toBe(false);
    expect(ledgerQuerySchema.safeParse({ bank_reference: 'TLR-0\u04101' }).success).toBe(false);
    expect(statementQuerySchema.parse({ session_id: '4' })).toEqual({ session_id: 4 });
    expect(statementQuerySchema.parse({})).toEqual({});
  });
});

import { describe, expect, it } from 'vitest';
import {
  defaultFeeItemName,
  EXCEEDS_BALANCE_CODE,
  FEE_ITEM_NAME_MAX,
  FEE_MESSAGES,
  feeBalance,
  feeItemCreateSchema,
  feeItemKey,
  feeItemLineSchema,
  feeItemsBulkSchema,
  feeItemsCopySchema,
  feeItemUpdateSchema,
  nextTermDue,
  paymentWarning,
  TERM_ALREADY_PAID_CODE,
  termBalances,
} from './fees';

const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

describe('fee messages, word for word', () => {
  it('says each in the fee’s words', () => {
    // Every message word for word, function messages by name: __snapshots__/fees-rules.test.ts.snap.
    expect(FEE_MESSAGES).toMatchSnapshot();
    expect(FEE_MESSAGES.itemExists('Tuition', 'JSS 1A', 'First Term')).toBe(
      'JSS 1A already has a fee item called "Tuition" for the First Term of this session. Edit that item instead.',
    );
    expect(FEE_MESSAGES.termAlreadyPaid('First Term')).toBe('The First Term fees are already paid in full.');
    expect(FEE_MESSAGES.exceedsBalance('₦5,000.00', '₦1,000.00')).toBe('₦5,000.00 is more than the outstanding balance of ₦1,000.00.');
    expect(FEE_MESSAGES.saved(1, 2, 0)).toBe('Fees saved for 1 class: 2 added, 0 updated');
    expect(FEE_MESSAGES.saved(3, 0, 4)).toBe('Fees saved for 3 classes: 0 added, 4 updated');
    expect(FEE_MESSAGES.copied(1, 'First Term', 0)).toBe('Copied 1 item from First Term');
    expect(FEE_MESSAGES.copied(4, 'Third Term 2024/2025', 2)).toBe('Copied 4 items from Third Term 2024/2025 (2 already set, kept)');
    expect(FEE_MESSAGES.confirmDelete('Bus', 'First Term', 'JSS 1A')).toBe('Delete "Bus" (First Term) for JSS 1A?');
    expect(FEE_MESSAGES.dueFrom('2025-09-15')).toBe('Due 2025-09-15');
    expect(FEE_ITEM_NAME_MAX).toBe(80);
    expect([TERM_ALREADY_PAID_CODE, EXCEEDS_BALANCE_CODE]).toEqual(['term_already_paid', 'exceeds_balance']);
  });
});

describe('the balance rule: literal kobo', () => {
  it('due, paid, balance, credit and status', () => {
    expect(feeBalance(8_500_000, 0)).toEqual({ due: 8_500_000, paid: 0, balance: 8_500_000, credit: 0, status: 'unpaid' });
    expect(feeBalance(8_500_000, 10_000)).toEqual({ due: 8_500_000, paid: 10_000, balance: 8_490_000, credit: 0, status: 'part_paid' });
    expect(feeBalance(8_500_000, 8_500_000)).toEqual({ due: 8_500_000, paid: 8_500_000, balance: 0, credit: 0, status: 'paid' });
    expect(feeBalance(8_500_000, 9_000_000)).toEqual({ due: 8_500_000, paid: 9_000_000, balance: 0, credit: 500_000, status: 'paid' });
    // Fractions of a kobo are cut, negatives count as 0.
    expect(feeBalance(100.9, -5)).toEqual({ due: 100, paid: 0, balance: 100, credit: 0, status: 'unpaid' });
    expect(feeBalance(-100, 50.7)).toEqual({ due: 0, paid: 50, balance: 0, credit: 50, status: 'paid' });
  });

  it('payments settle the 1st term, then the 2nd, then the 3rd; extra stays on the last term with fees', () => {
    expect(termBalances({ '1st': 8_500_000, '2nd': 8_500_000, '3rd': 8_000_000 }, 10_000_000)).toEqual([
      { term: '1st', due: 8_500_000, paid: 8_500_000, balance: 0, credit: 0, status: 'paid' },
      { term: '2nd', due: 8_500_000, paid: 1_500_000, balance: 7_000_000, credit: 0, status: 'part_paid' },
      { term: '3rd', due: 8_000_000, paid: 0, balance: 8_000_000, credit: 0, status: 'unpaid' },
    ]);
    expect(termBalances({ '2nd': 5_000_000, '1st': 0 }, 6_000_000.9)).toEqual([
      { term: '2nd', due: 5_000_000, paid: 6_000_000, balance: 0, credit: 1_000_000, status: 'paid' },
    ]);
    expect(termBalances({ '1st': 100.5, '3rd': 200 }, -3)).toEqual([
      { term: '1st', due: 100, paid: 0, balance: 100, credit: 0, status: 'unpaid' },
      { term: '3rd', due: 200, paid: 0, balance: 200, credit: 0, status: 'unpaid' },
    ]);
    expect(termBalances({}, 5000)).toEqual([]);
  });

  it('the next term to pay is the first not paid in full', () => {
    const terms = termBalances({ '1st': 8_500_000, '2nd': 8_500_000 }, 9_000_000);
    expect(nextTermDue(terms)).toEqual({ term: '2nd', amount: 8_000_000 });
    expect(nextTermDue(termBalances({ '1st': 100 }, 100))).toBeNull();
    expect(nextTermDue([])).toBeNull();
  });

  it('asks to confirm a term already paid, or more than the balance; not the balance itself; nothing without fees', () => {
    const terms = termBalances({ '1st': 8_500_000, '2nd': 8_500_000 }, 8_500_000);
    const session = feeBalance(17_000_000, 8_500_000);
    expect(paymentWarning(session, terms, 10_000, '1st')).toBe('term_already_paid');
    expect(paymentWarning(session, terms, 8_500_000, '2nd')).toBeNull();
    expect(paymentWarning(session, terms, 8_500_001, '2nd')).toBe('exceeds_balance');
    expect(paymentWarning(session, terms, 8_500_001, null)).toBe('exceeds_balance');
    expect(paymentWarning(session, terms, 10_000, '3rd')).toBeNull();
    // A term with no fees is not "already paid".
    const zeroTerm = [{ term: '3rd' as const, ...feeBalance(0, 0) }];
    expect(paymentWarning(session, zeroTerm, 10_000, '3rd')).toBeNull();
    expect(paymentWarning(feeBalance(0, 5000), [], 99_999_999, '1st')).toBeNull();
  });
});

describe('fee item names', () => {
  it('one key per name: trimmed, lower case, one space', () => {
    expect(feeItemKey('  PTA \t  Levy ')).toBe('pta levy');
    expect(feeItemKey('Ｔｕｉｔｉｏｎ')).toBe('tuition');
  });

  it('an item with no name is named after its description, else "School fees"', () => {
    expect(defaultFeeItemName('  First   term tuition ')).toBe('First term tuition');
    expect(defaultFeeItemName('   ')).toBe('School fees');
    expect(defaultFeeItemName('x'.repeat(90))).toBe('x'.repeat(80));
  });
});

describe('fee item schemas', () => {
  const line = (over: Record<string, unknown>) => feeItemLineSchema.safeParse({ name: 'Tuition', amount: 1000, ...over });

  it('a line: name required and at most 80 characters, spaces collapsed; compulsory by default; a due date is a real day', () => {
    expect(feeItemLineSchema.parse({ name: ' Sports   levy ', amount: '250.5' })).toEqual({
      name: 'Sports levy',
      amount: 25_050,
      compulsory: true,
      description: '',
    });
    expect(messages(line({ name: null }))).toEqual([['name', 'Item name is required']]);
    expect(messages(line({ name: '   ' }))).toEqual([['name', 'Item name is required']]);
    expect(messages(line({ name: 42 }))).toEqual([['name', 'Item name is required']]);
    expect(messages(line({ name: 'x'.repeat(81) }))).toEqual([['name', 'Item name must be at most 80 characters']]);
    expect(line({ name: 'x'.repeat(80) }).success).toBe(true);
    expect(messages(line({ compulsory: 'yes' }))).toEqual([['compulsory', 'Compulsory must be true or false']]);
    expect(messages(line({ description: 'd'.repeat(201) }))).toEqual([['description', 'Description must be at most 200 characters']]);
    expect(line({ due_on: '2025-09-15' }).data?.due_on).toBe('2025-09-15');
    expect(line({ due_on: null }).data?.due_on).toBeNull();
    for (const bad of ['2025-02-30', '2025-9-15', '15/09/2025', 'x2025-09-15', '2025-09-15x', '2025-13-01'])
      expect([...new Set(messages(line({ due_on: bad })).map((m) => m.join(': ')))]).toEqual([
        'due_on: Enter the due date as a day (YYYY-MM-DD).',
      ]);
  });

  it('a bulk save: a session, a term, 1 to 200 classes (each once), 1 to 30 items', () => {
    const base = { session_id: '3', term: '2nd', classes: ['JSS 1A'], items: [{ name: 'Tuition', amount: 1000 }] };
    expect(feeItemsBulkSchema.parse(base)).toMatchObject({ session_id: 3, term: '2nd', classes: ['JSS 1A'] });
    expect(messages(feeItemsBulkSchema.safeParse({ ...base, classes: [] }))).toEqual([['classes', 'Choose at least one class']]);
    expect(messages(feeItemsBulkSchema.safeParse({ ...base, classes: undefined }))).toEqual([['classes', 'Choose at least one class']]);
    expect(messages(feeItemsBulkSchema.safeParse({ ...base, classes: ['Class 9'] }))).toEqual([['classes.0', 'Select a valid class']]);
    expect(feeItemsBulkSchema.safeParse({ ...base, classes: Array.from({ length: 201 }, () => 'JSS 1A') }).success).toBe(false);
    expect(feeItemsBulkSchema.safeParse({ ...base, classes: Array.from({ length: 200 }, () => 'JSS 1A') }).success).toBe(true);
    expect(messages(feeItemsBulkSchema.safeParse({ ...base, items: [] }))).toEqual([['items', 'Add at least one fee item']]);
    expect(messages(feeItemsBulkSchema.safeParse({ ...base, items: undefined }))).toEqual([['items', 'Add at least one fee item']]);
    const many = Array.from({ length: 31 }, (_, i) => ({ name: `Item ${i}`, amount: 1000 }));
    expect(messages(feeItemsBulkSchema.safeParse({ ...base, items: many }))).toEqual([['items', 'At most 30 items at a time']]);
    expect(feeItemsBulkSchema.safeParse({ ...base, items: many.slice(0, 30) }).success).toBe(true);
    expect(messages(feeItemsBulkSchema.safeParse({ ...base, session_id: 0 }))).toEqual([['session_id', 'Session is required']]);
    expect(messages(feeItemsBulkSchema.safeParse({ ...base, session_id: 1.5 }))).toEqual([['session_id', 'Session is required']]);
    expect(messages(feeItemsBulkSchema.safeParse({ ...base, session_id: 'x' }))).toEqual([['session_id', 'Session is required']]);
    expect(messages(feeItemsBulkSchema.safeParse({ ...base, term: '4th' }))).toEqual([['term', 'Select a valid term']]);
    // Distinct names pass; the same name in other words is caught at its line.
    const two = [
      { name: 'Tuition', amount: 1000 },
      { name: 'Books', amount: 1000 },
      { name: ' TUITION ', amount: 1000 },
    ];
    expect(messages(feeItemsBulkSchema.safeParse({ ...base, items: two }))).toEqual([['items.2.name', 'This item is listed twice']]);
    expect(feeItemsBulkSchema.safeParse({ ...base, items: two.slice(0, 2) }).success).toBe(true);
  });

  it('a copy: from another term (or session), to named classes or every class', () => {
    const base = { from_session_id: 1, from_term: '3rd', to_session_id: 2, to_term: '1st' };
    expect(feeItemsCopySchema.parse(base)).toEqual(base);
    expect(feeItemsCopySchema.parse({ ...base, classes: ['JSS 1A'] }).classes).toEqual(['JSS 1A']);
    expect(feeItemsCopySchema.safeParse({ ...base, to_session_id: 1 }).success).toBe(true);
    expect(feeItemsCopySchema.safeParse({ ...base, from_term: '1st' }).success).toBe(true);
    expect(messages(feeItemsCopySchema.safeParse({ ...base, to_session_id: 1, to_term: '3rd' }))).toEqual([
      ['from_term', 'Choose a different term to copy from'],
    ]);
    expect(feeItemsCopySchema.safeParse({ ...base, classes: Array.from({ length: 201 }, () => 'JSS 1A') }).success).toBe(false);
    expect(messages(feeItemsCopySchema.safeParse({ ...base, classes: ['Nope'] }))).toEqual([['classes.0', 'Select a valid class']]);
  });

  it('the fee-schedule calls take an optional name, compulsory flag and due date', () => {
    const base = { student_class: 'JSS 1A', session_id: 1, term: '1st', amount: 5000 };
    expect(feeItemCreateSchema.parse(base)).toEqual({ ...base, amount: 500_000, description: '' });
    expect(feeItemCreateSchema.parse({ ...base, name: ' Bus ', compulsory: false, due_on: '2025-10-01' })).toMatchObject({
      name: 'Bus',
      compulsory: false,
      due_on: '2025-10-01',
    });
    expect(messages(feeItemCreateSchema.safeParse({ ...base, compulsory: 1 }))).toEqual([
      ['compulsory', 'Compulsory must be true or false'],
    ]);
    expect(feeItemUpdateSchema.parse({ amount: 200, due_on: null })).toEqual({ amount: 20_000, description: '', due_on: null });
  });
});

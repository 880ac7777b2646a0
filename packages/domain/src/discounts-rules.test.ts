import { describe, expect, it } from 'vitest';
import {
  DISCOUNT_BASES,
  DISCOUNT_KIND_LABELS,
  DISCOUNT_KINDS,
  DISCOUNT_MESSAGES,
  DISCOUNT_SCREEN,
  discountedDues,
  discountLabel,
  discountQuerySchema,
  discountRevokeSchema,
  discountSchema,
  percentToBasisPoints,
  type DiscountRule,
  type DueItem,
} from './discounts';

const messages = (r: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

/** A class's compulsory items (kobo): 1st term tuition ₦80,000 and books ₦10,000; 2nd term tuition ₦85,000. */
const ITEMS: DueItem[] = [
  { term: '1st', name_key: 'tuition', kobo: 8_000_000 },
  { term: '1st', name_key: 'books', kobo: 1_000_000 },
  { term: '2nd', name_key: 'tuition', kobo: 8_500_000 },
];
const rule = (over: Partial<DiscountRule>): DiscountRule => ({
  id: 1,
  term: null,
  basis: 'percent',
  percent_bp: 0,
  amount_kobo: 0,
  item_keys: [],
  ...over,
});

describe('discountedDues: literal kobo', () => {
  it('no discount: the items as they are', () => {
    expect(discountedDues(ITEMS, [])).toEqual({ due: { '1st': 9_000_000, '2nd': 8_500_000 }, takes: [], itemsAfter: ITEMS });
  });

  it('12.5% on tuition, the whole session: each term’s tuition, rounded down to the kobo', () => {
    const r = discountedDues(
      [...ITEMS, { term: '3rd', name_key: 'tuition', kobo: 333 }],
      [rule({ percent_bp: 1250, item_keys: ['tuition'] })],
    );
    expect(r.takes).toEqual([
      { discount_id: 1, term: '1st', name_key: 'tuition', kobo: 1_000_000 },
      { discount_id: 1, term: '2nd', name_key: 'tuition', kobo: 1_062_500 },
      { discount_id: 1, term: '3rd', name_key: 'tuition', kobo: 41 },
    ]);
    expect(r.due).toEqual({ '1st': 8_000_000, '2nd': 7_437_500, '3rd': 292 });
    expect(r.itemsAfter.map((i) => i.kobo)).toEqual([7_000_000, 1_000_000, 7_437_500, 292]);
  });

  it('a fixed ₦85,000 off the 1st term: item by item in order, each at most what is left', () => {
    const r = discountedDues(ITEMS, [rule({ term: '1st', basis: 'fixed', amount_kobo: 8_500_000 })]);
    expect(r.takes).toEqual([
      { discount_id: 1, term: '1st', name_key: 'tuition', kobo: 8_000_000 },
      { discount_id: 1, term: '1st', name_key: 'books', kobo: 500_000 },
    ]);
    expect(r.due).toEqual({ '1st': 500_000, '2nd': 8_500_000 });
  });

  it('a fixed amount is per term covered; two discounts apply by id, the item stops at 0', () => {
    const r = discountedDues(ITEMS, [
      rule({ id: 7, basis: 'percent', percent_bp: 10_000, item_keys: ['books'] }),
      rule({ id: 3, basis: 'fixed', amount_kobo: 8_200_000.7 }),
    ]);
    expect(r.takes).toEqual([
      { discount_id: 3, term: '1st', name_key: 'tuition', kobo: 8_000_000 },
      { discount_id: 3, term: '1st', name_key: 'books', kobo: 200_000 },
      { discount_id: 3, term: '2nd', name_key: 'tuition', kobo: 8_200_000 },
      { discount_id: 7, term: '1st', name_key: 'books', kobo: 800_000 },
    ]);
    expect(r.due).toEqual({ '1st': 0, '2nd': 300_000 });
  });

  it('negative or fractional items and budgets count as whole kobo, never below 0', () => {
    const r = discountedDues(
      [
        { term: '1st', name_key: 'a', kobo: -500 },
        { term: '1st', name_key: 'b', kobo: 1000.9 },
      ],
      [rule({ basis: 'fixed', amount_kobo: -100 }), rule({ id: 2, percent_bp: 5000 })],
    );
    expect(r.takes).toEqual([{ discount_id: 2, term: '1st', name_key: 'b', kobo: 500 }]);
    expect(r.due).toEqual({ '1st': 500 });
    expect(r.itemsAfter.map((i) => i.kobo)).toEqual([0, 500]);
  });
});

describe('discount words', () => {
  it('kinds, bases, labels, messages and the screen', () => {
    expect(DISCOUNT_KINDS).toEqual(['sibling', 'staff_child', 'scholarship', 'other']);
    expect(DISCOUNT_BASES).toEqual(['percent', 'fixed']);
    expect(DISCOUNT_KIND_LABELS).toEqual({
      sibling: 'Sibling discount',
      staff_child: 'Staff child',
      scholarship: 'Scholarship',
      other: 'Other discount',
    });
    // Every message word for word, function messages by name: __snapshots__/discounts-rules.test.ts.snap.
    expect(DISCOUNT_MESSAGES).toMatchSnapshot();
    expect(DISCOUNT_MESSAGES.itemUnknown('Bus')).toBe('The class has no fee item called "Bus" in this session.');
    expect(DISCOUNT_MESSAGES.given('Scholarship, 50% on all fees', 'Ada Eze')).toBe('Scholarship, 50% on all fees given to Ada Eze.');
    expect(DISCOUNT_SCREEN).toEqual({
      to: '/bursary/discounts',
      title: 'Discounts and Scholarships',
      label: 'Discounts',
      description: 'Sibling, staff child and scholarship discounts',
    });
    expect(percentToBasisPoints(12.5)).toBe(1250);
    expect(percentToBasisPoints(33.33)).toBe(3333);
  });

  it('labels: a percent of one term names it; a fixed amount with items and no term is off each term', () => {
    const d = {
      kind: 'other' as const,
      term: '1st' as const,
      basis: 'percent' as const,
      percent_bp: 5000,
      amount_kobo: 0,
      items: ['Tuition', 'Books'],
    };
    expect(discountLabel(d)).toBe('Other discount, 50% on Tuition, Books (First Term)');
    expect(discountLabel({ ...d, basis: 'fixed', amount_kobo: 2_000_000, term: null })).toBe(
      'Other discount, ₦20,000 off Tuition, Books each term',
    );
    expect(discountLabel({ ...d, basis: 'fixed', amount_kobo: 50, items: [] })).toBe('Other discount, ₦0.50 off First Term');
  });
});

describe('discount schemas', () => {
  const base = {
    admission_number: 'ADM/2025/001',
    session_id: 2,
    term: null,
    kind: 'sibling',
    basis: 'percent',
    percent: 10,
    reason: ' Second child ',
  };

  it('defaults and trimming', () => {
    expect(discountSchema.parse(base)).toEqual({ ...base, percent: 10, amount: null, items: [], reason: 'Second child' });
    expect(discountSchema.parse({ ...base, basis: 'fixed', percent: undefined, amount: '20000' })).toMatchObject({
      percent: null,
      amount: 2_000_000,
    });
  });

  it('refuses a missing kind, basis, percent or reason with their words', () => {
    expect(messages(discountSchema.safeParse({ ...base, kind: 'friend' }))).toEqual([['kind', 'Choose the kind of discount.']]);
    expect(messages(discountSchema.safeParse({ ...base, basis: 'half' }))).toEqual([['basis', 'Choose a percentage or a fixed amount.']]);
    expect(messages(discountSchema.safeParse({ ...base, percent: null }))).toEqual([
      ['percent', 'The percentage must be more than 0 and at most 100 (two decimals at most).'],
    ]);
    expect(messages(discountSchema.safeParse({ ...base, percent: 'ten' }))).toEqual([
      ['percent', 'The percentage must be more than 0 and at most 100 (two decimals at most).'],
    ]);
    expect(messages(discountSchema.safeParse({ ...base, reason: '  ' }))).toEqual([['reason', 'Give the reason for the discount.']]);
    expect(messages(discountSchema.safeParse({ ...base, reason: undefined }))).toEqual([['reason', 'Give the reason for the discount.']]);
    expect(discountSchema.safeParse({ ...base, reason: 'r'.repeat(301) }).success).toBe(false);
    expect(discountSchema.safeParse({ ...base, reason: 'r'.repeat(300) }).success).toBe(true);
  });

  it('items: at most 30, each 1 to 80 characters, the same name once', () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `Item ${i}`);
    expect(messages(discountSchema.safeParse({ ...base, items: names(31) }))).toEqual([['items', 'At most 30 fee items.']]);
    expect(discountSchema.parse({ ...base, items: names(30) }).items).toHaveLength(30);
    expect(discountSchema.safeParse({ ...base, items: ['  '] }).success).toBe(false);
    expect(discountSchema.safeParse({ ...base, items: ['x'.repeat(81)] }).success).toBe(false);
    expect(discountSchema.parse({ ...base, items: [' Bus ', 'BUS', 'Books'] }).items).toEqual(['BUS', 'Books']);
  });

  it('revoking needs a reason; the list filters', () => {
    expect(discountRevokeSchema.parse({ reason: ' Left the school ' })).toEqual({ reason: 'Left the school' });
    expect(messages(discountRevokeSchema.safeParse({ reason: '' }))).toEqual([['reason', 'Give the reason for revoking the discount.']]);
    expect(messages(discountRevokeSchema.safeParse({}))).toEqual([['reason', 'Give the reason for revoking the discount.']]);
    expect(discountRevokeSchema.safeParse({ reason: 'r'.repeat(301) }).success).toBe(false);
    expect(discountQuerySchema.parse({ include_revoked: 'true', session_id: '3' })).toEqual({ include_revoked: 'true', session_id: 3 });
    expect(discountQuerySchema.safeParse({ include_revoked: 'yes' }).success).toBe(false);
  });

  it('accepts at most two decimals of a percent in (0, 100], and stores it exactly in basis points', () => {
    for (const percent of [0.01, 10, 12.5, 33.33, 99.99, 100]) {
      const parsed = discountSchema.parse({ ...base, percent });
      expect(percentToBasisPoints(parsed.percent!)).toBe(Math.round(percent * 100));
    }
    for (const percent of [0, -1, 100.001, 100.01, 12.345, Number.NaN, '10', null]) {
      const r = discountSchema.safeParse({ ...base, percent });
      expect(r.success, String(percent)).toBe(false);
      expect(r.error!.issues.map((i) => i.message)).toContain(DISCOUNT_MESSAGES.percentInvalid);
    }
  });

  it('drops repeated items (case and spaces aside) and needs an amount for a fixed discount', () => {
    expect(discountSchema.parse({ ...base, items: ['Tuition', ' tuition ', 'Books'] }).items).toEqual(['tuition', 'Books']);
    expect(messages(discountSchema.safeParse({ ...base, basis: 'fixed', percent: null }))).toEqual([
      ['amount', DISCOUNT_MESSAGES.amountRequired],
    ]);
  });
});

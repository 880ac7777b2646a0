import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TERM_VALUES, type Term } from './constants';
import { discountLabel, discountedDues, type DiscountRule, type DueItem } from './discounts';

const term = fc.constantFrom(...TERM_VALUES);
const NAMES = ['tuition', 'books', 'pta', 'lab'];
/** A class's compulsory items: unique by term and name, as fee_items are. */
const items = (min = 1, max = 10_000_000) =>
  fc
    .uniqueArray(fc.record({ term, name_key: fc.constantFrom(...NAMES), kobo: fc.integer({ min, max }) }), {
      selector: (i) => `${i.term}|${i.name_key}`,
      maxLength: 8,
    })
    .map((l): DueItem[] => l);
const keys = fc.subarray(NAMES);
const rule = (id: number): fc.Arbitrary<DiscountRule> =>
  fc.record({
    id: fc.constant(id),
    term: fc.constantFrom(null, ...TERM_VALUES),
    basis: fc.constantFrom('percent' as const, 'fixed' as const),
    percent_bp: fc.integer({ min: 1, max: 10_000 }),
    amount_kobo: fc.integer({ min: 1, max: 50_000_000 }),
    item_keys: keys,
  });
const rules = fc.array(fc.nat(), { maxLength: 6 }).chain((l) => fc.tuple(...l.map((_, i) => rule(i + 1))));
const covers = (d: DiscountRule, it: DueItem) =>
  (d.term === null || d.term === it.term) && (d.item_keys.length === 0 || d.item_keys.includes(it.name_key));
const classDue = (list: readonly DueItem[]) => {
  const due: Partial<Record<Term, number>> = {};
  for (const i of list) due[i.term] = (due[i.term] ?? 0) + i.kobo;
  return due;
};

describe('discountedDues', () => {
  it('no discount: the class due, item by item', () => {
    fc.assert(
      fc.property(items(), (list) => {
        const r = discountedDues(list, []);
        expect(r.due).toEqual(classDue(list));
        expect(r.takes).toEqual([]);
        expect(r.itemsAfter).toEqual(list);
      }),
    );
  });

  it('never negative, never more than the item; the takes add up to the due removed', () => {
    fc.assert(
      fc.property(items(0), rules, (list, ds) => {
        const r = discountedDues(list, ds);
        r.itemsAfter.forEach((after, i) => {
          expect(after.kobo).toBeGreaterThanOrEqual(0);
          expect(after.kobo).toBeLessThanOrEqual(list[i]!.kobo);
        });
        for (const t of r.takes) expect(t.kobo).toBeGreaterThan(0);
        const before = list.reduce((s, i) => s + i.kobo, 0);
        const after = TERM_VALUES.reduce((s, t) => s + (r.due[t] ?? 0), 0);
        expect(before - after).toBe(r.takes.reduce((s, t) => s + t.kobo, 0));
        // Only items a discount covers are touched by it.
        for (const t of r.takes) {
          const d = ds.find((x) => x.id === t.discount_id)!;
          expect(covers(d, { term: t.term, name_key: t.name_key, kobo: 0 })).toBe(true);
        }
      }),
    );
  });

  it('a percentage takes exactly that share of each covered item, rounded down to the kobo', () => {
    fc.assert(
      fc.property(items(), rule(1), (list, d0) => {
        const d = { ...d0, basis: 'percent' as const };
        const r = discountedDues(list, [d]);
        list.forEach((it, i) => {
          const want = covers(d, it) ? Math.floor((it.kobo * d.percent_bp) / 10_000) : 0;
          expect(list[i]!.kobo - r.itemsAfter[i]!.kobo).toBe(want);
        });
      }),
    );
  });

  it('a fixed amount is a budget per term covered: min(amount, the covered items of the term)', () => {
    fc.assert(
      fc.property(items(), rule(1), (list, d0) => {
        const d = { ...d0, basis: 'fixed' as const };
        const r = discountedDues(list, [d]);
        for (const t of TERM_VALUES) {
          const covered = list.filter((it) => it.term === t && covers(d, it)).reduce((s, it) => s + it.kobo, 0);
          const taken = r.takes.filter((x) => x.term === t).reduce((s, x) => s + x.kobo, 0);
          expect(taken).toBe(d.term === null || d.term === t ? Math.min(d.amount_kobo, covered) : 0);
        }
      }),
    );
  });

  it('while no item runs out, the total does not depend on the order the discounts were given', () => {
    // Items of at least ₦1,000; at most 3 percentages of ≤ 10 % and 3 fixed amounts of ≤ ₦10: never a cap.
    const small = (id: number) =>
      rule(id).map((d) => ({ ...d, percent_bp: (d.percent_bp % 1000) + 1, amount_kobo: (d.amount_kobo % 1000) + 1 }));
    const smallRules = fc.array(fc.nat(), { maxLength: 6 }).chain((l) => fc.tuple(...l.map((_, i) => small(i + 1))));
    fc.assert(
      fc.property(items(100_000), smallRules, fc.func(fc.integer()), (list, ds, shuffleKey) => {
        const total = (xs: readonly DiscountRule[]) => discountedDues(list, xs).takes.reduce((s, t) => s + t.kobo, 0);
        // The same discounts given in another order: new ids in a shuffled order.
        const order = [...ds].sort((a, b) => shuffleKey(a.id) - shuffleKey(b.id) || a.id - b.id);
        const reordered = order.map((d, i) => ({ ...d, id: i + 1 }));
        expect(total(reordered)).toBe(total(ds));
        // And it is what each takes on its own.
        expect(total(ds)).toBe(ds.reduce((s, d) => s + total([d]), 0));
      }),
    );
  });

  it('several discounts on one item apply in the order given; the item stops at 0', () => {
    const list: DueItem[] = [{ term: '1st', name_key: 'tuition', kobo: 10_000 }];
    const r = discountedDues(list, [
      { id: 2, term: null, basis: 'fixed', percent_bp: 0, amount_kobo: 8_000, item_keys: [] },
      { id: 1, term: '1st', basis: 'percent', percent_bp: 5_000, amount_kobo: 0, item_keys: ['tuition'] },
    ]);
    expect(r.takes).toEqual([
      { discount_id: 1, term: '1st', name_key: 'tuition', kobo: 5_000 },
      { discount_id: 2, term: '1st', name_key: 'tuition', kobo: 5_000 },
    ]);
    expect(r.due).toEqual({ '1st': 0 });
  });
});

describe('the discount label', () => {
  it('labels say kind, size, items and the terms covered', () => {
    const d = { kind: 'sibling' as const, term: null, basis: 'percent' as const, percent_bp: 1000, amount_kobo: 0, items: ['Tuition'] };
    expect(discountLabel(d)).toBe('Sibling discount, 10% on Tuition');
    expect(discountLabel({ ...d, percent_bp: 1250, items: [], term: '2nd' })).toBe('Sibling discount, 12.5% on all fees (Second Term)');
    const fixed = { ...d, kind: 'scholarship' as const, basis: 'fixed' as const, amount_kobo: 2_000_000, items: [] };
    expect(discountLabel(fixed)).toBe('Scholarship, ₦20,000 off each term');
    expect(discountLabel({ ...fixed, term: '1st' })).toBe('Scholarship, ₦20,000 off First Term');
    expect(discountLabel({ ...fixed, amount_kobo: 1_250_050, items: ['Tuition', 'Books'] })).toBe(
      'Scholarship, ₦12,500.50 off Tuition, Books each term',
    );
    expect(discountLabel({ ...fixed, kind: 'staff_child', items: ['Tuition'], term: '3rd' })).toBe(
      'Staff child, ₦20,000 off Tuition (Third Term)',
    );
  });
});

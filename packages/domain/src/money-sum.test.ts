import { describe, expect, it } from 'vitest';
import { sumNaira } from './money';

describe('sumNaira', () => {
  it('adds naira amounts in kobo, without float drift', () => {
    expect(sumNaira([0.1, 0.2], (n) => n)).toBe(0.3);
    expect(sumNaira([{ a: 75000 }, { a: 30000.5 }], (r) => r.a)).toBe(105000.5);
    expect(sumNaira([], (n: number) => n)).toBe(0);
  });
});

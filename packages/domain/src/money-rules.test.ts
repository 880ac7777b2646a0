import { describe, expect, it } from 'vitest';
import { formatNaira, koboToNaira, nairaToKobo, sumNaira } from './money';
import { amountSchema, checkAmount, PAYMENT_MAX_NAIRA, PAYMENT_MIN_NAIRA, sanitizeAmountInput } from './payments';

describe('formatNaira: literal amounts', () => {
  it('keeps the minus of a negative amount, and shows 0 without one', () => {
    expect(formatNaira(-1500)).toBe('-₦1,500.00');
    expect(formatNaira(-0.5)).toBe('-₦0.50');
    expect(formatNaira(0)).toBe('₦0.00');
    expect(formatNaira(1500)).toBe('₦1,500.00');
    expect(formatNaira(0.1 + 0.2)).toBe('₦0.30');
    expect(formatNaira(5_000_000)).toBe('₦5,000,000.00');
  });
});

describe('nairaToKobo and koboToNaira: literal amounts', () => {
  it('converts numbers and decimal strings to integer kobo', () => {
    expect(nairaToKobo(1500)).toBe(150_000);
    expect(nairaToKobo(0.29)).toBe(29);
    expect(nairaToKobo(19.99)).toBe(1999);
    expect(nairaToKobo('12.5')).toBe(1250);
    expect(nairaToKobo('12.05')).toBe(1205);
    expect(nairaToKobo(' 7 ')).toBe(700);
    expect(nairaToKobo('0')).toBe(0);
  });

  it('refuses what is not a naira amount, naming it', () => {
    expect(() => nairaToKobo('-5')).toThrow('Not a naira amount: -5');
    expect(() => nairaToKobo('1.234')).toThrow(RangeError);
    expect(() => nairaToKobo('1,000')).toThrow('Not a naira amount: 1,000');
    expect(() => nairaToKobo('x12')).toThrow(RangeError);
    expect(() => nairaToKobo('12x')).toThrow(RangeError);
    expect(() => nairaToKobo('.5')).toThrow(RangeError);
  });

  it('kobo to naira rounds to the kobo', () => {
    expect(koboToNaira(150_000)).toBe(1500);
    expect(koboToNaira(1999)).toBe(19.99);
    expect(koboToNaira(1999.6)).toBe(20);
    expect(koboToNaira(-250)).toBe(-2.5);
  });

  it('sumNaira adds in kobo: 0.1 + 0.2 is 0.3', () => {
    expect(sumNaira([0.1, 0.2], (x) => x)).toBe(0.3);
    expect(sumNaira([{ a: 1500.5 }, { a: -500.25 }], (r) => r.a)).toBe(1000.25);
    expect(sumNaira([], (x: number) => x)).toBe(0);
  });
});

describe('the payment amount rule: literal amounts', () => {
  it('limits are ₦100 and ₦5,000,000', () => {
    expect(PAYMENT_MIN_NAIRA).toBe(100);
    expect(PAYMENT_MAX_NAIRA).toBe(5_000_000);
  });

  it.each<[unknown, number]>([
    ['100', 10_000],
    [100, 10_000],
    ['5000000', 500_000_000],
    ['5000000.00', 500_000_000],
    ['0005000000', 500_000_000],
    [' 150.5 ', 15_050],
    ['150.', 15_000],
    [150.75, 15_075],
    ['0150.05', 15_005],
  ])('accepts %j (the limits themselves and amounts between) as %i kobo', (input, kobo) => {
    expect(checkAmount(input)).toEqual({ ok: true, kobo });
  });

  it.each<[string, unknown[]]>([
    ['Minimum amount is ₦100', ['99.99', 99, '0.50']],
    ['Maximum amount is ₦5,000,000', ['5000000.01', '10000000']],
    ['Amount can have at most 2 decimal places', ['150.123']],
    ['Amount must be greater than 0', ['-150', '-150.5', -150, '0.00', '000.']],
    [
      'Enter a valid amount',
      ['-abc', '-1-', Number.POSITIVE_INFINITY, Number.NaN, '1,000', '1e5', '.5', '150..', 'abc150', '150abc', { amount: 150 }, true],
    ],
    ['Amount is required', ['', '   ', null, undefined]],
  ])('refuses below, above, too precise, negative, empty and non-numbers: %s', (message, inputs) => {
    for (const input of inputs) expect(checkAmount(input)).toEqual({ ok: false, message });
  });

  it('the amount field turns a naira amount into kobo, and says why it refuses one', () => {
    expect(amountSchema.parse('2500.5')).toBe(250_050);
    const r = amountSchema.safeParse('50');
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toEqual(['Minimum amount is ₦100']);
  });

  it('the amount input keeps digits and one point, at most 2 decimals', () => {
    expect(sanitizeAmountInput('₦1,500')).toBe('1500');
    expect(sanitizeAmountInput('1,2a3.456.7')).toBe('123.45');
    expect(sanitizeAmountInput('12.')).toBe('12.');
    expect(sanitizeAmountInput('.5')).toBe('.5');
    expect(sanitizeAmountInput('1.2.3')).toBe('1.23');
    expect(sanitizeAmountInput('')).toBe('');
  });
});

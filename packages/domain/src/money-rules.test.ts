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

  it('accepts the limits themselves and amounts between, as kobo', () => {
    expect(checkAmount('100')).toEqual({ ok: true, kobo: 10_000 });
    expect(checkAmount(100)).toEqual({ ok: true, kobo: 10_000 });
    expect(checkAmount('5000000')).toEqual({ ok: true, kobo: 500_000_000 });
    expect(checkAmount('5000000.00')).toEqual({ ok: true, kobo: 500_000_000 });
    expect(checkAmount('0005000000')).toEqual({ ok: true, kobo: 500_000_000 });
    expect(checkAmount(' 150.5 ')).toEqual({ ok: true, kobo: 15_050 });
    expect(checkAmount('150.')).toEqual({ ok: true, kobo: 15_000 });
    expect(checkAmount(150.75)).toEqual({ ok: true, kobo: 15_075 });
    expect(checkAmount('0150.05')).toEqual({ ok: true, kobo: 15_005 });
  });

  it('refuses below, above, too precise, negative, empty and non-numbers with their messages', () => {
    expect(checkAmount('99.99')).toEqual({ ok: false, message: 'Minimum amount is ₦100' });
    expect(checkAmount(99)).toEqual({ ok: false, message: 'Minimum amount is ₦100' });
    expect(checkAmount('5000000.01')).toEqual({ ok: false, message: 'Maximum amount is ₦5,000,000' });
    expect(checkAmount('10000000')).toEqual({ ok: false, message: 'Maximum amount is ₦5,000,000' });
    expect(checkAmount('150.123')).toEqual({ ok: false, message: 'Amount can have at most 2 decimal places' });
    expect(checkAmount('-150')).toEqual({ ok: false, message: 'Amount must be greater than 0' });
    expect(checkAmount('-150.5')).toEqual({ ok: false, message: 'Amount must be greater than 0' });
    expect(checkAmount(-150)).toEqual({ ok: false, message: 'Amount must be greater than 0' });
    expect(checkAmount('-abc')).toEqual({ ok: false, message: 'Enter a valid amount' });
    expect(checkAmount('-1-')).toEqual({ ok: false, message: 'Enter a valid amount' });
    expect(checkAmount('0.00')).toEqual({ ok: false, message: 'Amount must be greater than 0' });
    expect(checkAmount('000.')).toEqual({ ok: false, message: 'Amount must be greater than 0' });
    expect(checkAmount('0.50')).toEqual({ ok: false, message: 'Minimum amount is ₦100' });
    expect(checkAmount('')).toEqual({ ok: false, message: 'Amount is required' });
    expect(checkAmount('   ')).toEqual({ ok: false, message: 'Amount is required' });
    expect(checkAmount(null)).toEqual({ ok: false, message: 'Amount is required' });
    expect(checkAmount(undefined)).toEqual({ ok: false, message: 'Amount is required' });
    expect(checkAmount(Number.POSITIVE_INFINITY)).toEqual({ ok: false, message: 'Enter a valid amount' });
    expect(checkAmount(Number.NaN)).toEqual({ ok: false, message: 'Enter a valid amount' });
    expect(checkAmount('1,000')).toEqual({ ok: false, message: 'Enter a valid amount' });
    expect(checkAmount('1e5')).toEqual({ ok: false, message: 'Enter a valid amount' });
    expect(checkAmount('.5')).toEqual({ ok: false, message: 'Enter a valid amount' });
    expect(checkAmount('150..')).toEqual({ ok: false, message: 'Enter a valid amount' });
    expect(checkAmount('abc150')).toEqual({ ok: false, message: 'Enter a valid amount' });
    expect(checkAmount('150abc')).toEqual({ ok: false, message: 'Enter a valid amount' });
    expect(checkAmount({ amount: 150 })).toEqual({ ok: false, message: 'Enter a valid amount' });
    expect(checkAmount(true)).toEqual({ ok: false, message: 'Enter a valid amount' });
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

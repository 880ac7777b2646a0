import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNaira, koboToNaira, nairaToKobo } from './money';
import { PAYMENT_MESSAGES, checkAmount, sanitizeAmountInput } from './payments';

const MIN_KOBO = 100 * 100;
const MAX_KOBO = 5_000_000 * 100;
/** A naira amount written as people type it: whole naira and 0–2 decimals. */
const nairaText = (kobo: number, decimals: 0 | 1 | 2) => {
  const whole = Math.floor(kobo / 100);
  const frac = String(kobo % 100).padStart(2, '0');
  return decimals === 0 ? String(whole) : `${whole}.${frac.slice(0, decimals)}`;
};

describe('money: naira and kobo', () => {
  it('kobo -> naira -> kobo is exact for every amount up to the maximum', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: MAX_KOBO }), (k) => nairaToKobo(koboToNaira(k)) === k));
  });

  it('a decimal string converts without float drift', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999 }), fc.integer({ min: 0, max: 99 }), (whole, frac) => {
        const text = `${whole}.${String(frac).padStart(2, '0')}`;
        expect(nairaToKobo(text)).toBe(whole * 100 + frac);
      }),
    );
  });

  it('formats as ₦ with thousands separators and two decimals, and reads back to the same amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_KOBO }), (k) => {
        const shown = formatNaira(koboToNaira(k));
        expect(shown).toMatch(/^₦\d{1,3}(,\d{3})*\.\d{2}$/);
        // The digits shown are the kobo themselves: naira, then two decimals.
        expect(Number(shown.slice(1).replace(/[,.]/g, ''))).toBe(k);
      }),
    );
    expect(formatNaira(1234567.5)).toBe('₦1,234,567.50');
  });
});

describe('payment amount rules', () => {
  it('accepts every amount from ₦100 to ₦5,000,000 with at most 2 decimals, as kobo', () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_KOBO, max: MAX_KOBO }), fc.constantFrom(0 as const, 1 as const, 2 as const), (k, d) => {
        // The kobo of what was typed, counted here from k (decimals beyond those typed are dropped).
        const expected = d === 0 ? k - (k % 100) : d === 1 ? k - (k % 10) : k;
        expect(checkAmount(nairaText(k, d))).toEqual({ ok: true, kobo: expected });
      }),
    );
  });

  it('refuses below ₦100 with the spec message, and above the maximum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MIN_KOBO - 1 }), (k) => {
        expect(checkAmount(nairaText(k, 2))).toEqual({ ok: false, message: PAYMENT_MESSAGES.amountMinimum });
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: MAX_KOBO + 1, max: MAX_KOBO * 100 }), (k) => {
        expect(checkAmount(nairaText(k, 2))).toEqual({ ok: false, message: PAYMENT_MESSAGES.amountMaximum });
      }),
    );
    expect(checkAmount('0')).toEqual({ ok: false, message: PAYMENT_MESSAGES.amountPositive });
    expect(checkAmount('150.123')).toEqual({ ok: false, message: PAYMENT_MESSAGES.amountDecimals });
    expect(checkAmount('')).toEqual({ ok: false, message: PAYMENT_MESSAGES.amountRequired });
  });

  it('the amount input keeps only digits and one decimal point, trimmed to 2 decimals, and is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (raw) => {
        const out = sanitizeAmountInput(raw);
        expect(out).toMatch(/^\d*(\.\d{0,2})?$/);
        expect(sanitizeAmountInput(out)).toBe(out);
      }),
    );
    expect(sanitizeAmountInput('1,2a3.456.7')).toBe('123.45');
  });
});

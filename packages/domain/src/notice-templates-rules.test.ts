import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateSmsCost, nonGsmCharacters, smsLength, smsUnits } from './notice-templates-sms';

const gsmChar = fc.constantFrom(...'abcXYZ019 .,!?@£$_ÆÉñü\n'.split(''));
const extChar = fc.constantFrom(...'^{}\\[~]|€'.split(''));
const ucsChar = fc.constantFrom('₦', '’', 'ẹ', 'ọ', 'ṣ', '😀');

describe('smsLength: boundaries, literally', () => {
  it('GSM-7: 160 is one unit, 161 two, 306 two, 307 three', () => {
    for (const [n, units] of [
      [1, 1],
      [160, 1],
      [161, 2],
      [306, 2],
      [307, 3],
      [459, 3],
      [460, 4],
    ] as const) {
      expect(smsLength('a'.repeat(n)), String(n)).toEqual({ encoding: 'GSM-7', characters: n, units });
    }
  });

  it('UCS-2: 70 is one unit, 71 two, 134 two, 135 three', () => {
    for (const [n, units] of [
      [70, 1],
      [71, 2],
      [134, 2],
      [135, 3],
    ] as const) {
      expect(smsLength('₦'.repeat(n)), String(n)).toEqual({ encoding: 'UCS-2', characters: n, units });
    }
  });

  it('extension characters count two; one non-GSM character makes the whole text UCS-2', () => {
    expect(smsLength('{}')).toEqual({ encoding: 'GSM-7', characters: 4, units: 1 });
    expect(smsLength('€'.repeat(80))).toEqual({ encoding: 'GSM-7', characters: 160, units: 1 });
    expect(smsLength('€'.repeat(80) + 'a')).toEqual({ encoding: 'GSM-7', characters: 161, units: 2 });
    expect(smsLength('a'.repeat(150) + '₦')).toEqual({ encoding: 'UCS-2', characters: 151, units: 3 });
    expect(smsLength('😀')).toEqual({ encoding: 'UCS-2', characters: 2, units: 1 });
    expect(smsLength('')).toEqual({ encoding: 'GSM-7', characters: 0, units: 0 });
    expect(nonGsmCharacters('NGN 5,000 ₦5,000 ‘ok’')).toEqual(['₦', '‘', '’']);
  });

  it('the cost: units of every text at the unit cost, the longest text reported', () => {
    expect(estimateSmsCost(['a'.repeat(161), 'hello', '₦'], 400)).toEqual({
      encoding: 'UCS-2',
      characters: 161,
      units_per_message: 2,
      total_units: 4,
      cost_kobo: 1600,
    });
    expect(estimateSmsCost([], 400)).toMatchObject({ total_units: 0, cost_kobo: 0 });
    expect(estimateSmsCost(['hi'], -3).cost_kobo).toBe(0);
  });
});

describe('smsLength: properties', () => {
  it('units never fall as a text grows, and a unit never holds more than its size', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(gsmChar, extChar, ucsChar), { maxLength: 700 }),
        fc.oneof(gsmChar, extChar, ucsChar),
        (chars, extra) => {
          const text = chars.join('');
          const a = smsLength(text);
          const b = smsLength(text + extra);
          expect(b.units).toBeGreaterThanOrEqual(a.units);
          // Within one encoding a character always adds; a switch to UCS-2 may count an extension pair as one.
          if (a.encoding === b.encoding) expect(b.characters).toBeGreaterThan(a.characters);
          const size = a.encoding === 'GSM-7' ? { single: 160, part: 153 } : { single: 70, part: 67 };
          if (a.units === 1) expect(a.characters).toBeLessThanOrEqual(size.single);
          if (a.units > 1) {
            expect(a.characters).toBeGreaterThan(size.single);
            expect(a.characters).toBeLessThanOrEqual(a.units * size.part);
            expect(a.characters).toBeGreaterThan((a.units - 1) * size.part);
          }
        },
      ),
    );
  });

  it('GSM-only text stays GSM-7 and counts extension characters twice', () => {
    fc.assert(
      fc.property(fc.array(gsmChar, { maxLength: 400 }), fc.array(extChar, { maxLength: 100 }), (plain, ext) => {
        const l = smsLength(plain.join('') + ext.join(''));
        expect(l.encoding).toBe('GSM-7');
        expect(l.characters).toBe(plain.length + 2 * ext.length);
      }),
    );
  });

  it('smsUnits is monotone in characters for both encodings', () => {
    fc.assert(
      fc.property(fc.constantFrom('GSM-7' as const, 'UCS-2' as const), fc.nat(5000), (enc, n) => {
        expect(smsUnits(enc, n + 1)).toBeGreaterThanOrEqual(smsUnits(enc, n));
      }),
    );
  });
});

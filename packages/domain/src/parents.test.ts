import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatNigerianPhone,
  normaliseNigerianPhone,
  parentCreateSchema,
  parentLoginRequestSchema,
  parentNamesAgree,
  readParentSignInId,
} from './parents';

const national = fc
  .tuple(fc.constantFrom('70', '80', '81', '90', '91', '71'), fc.stringMatching(/^\d{8}$/))
  .map(([prefix, rest]) => `${prefix}${rest}`);
const separator = fc.constantFrom('', ' ', '-', '.', '  ', '\u00A0', '\u2011', '\u2013', '\u200B', '\u2060', '\uFEFF');
/** The ten digits written one of the ways people write them, with separators between groups. */
function spelled(n: string, form: number, sep: string[]): string {
  const groups = [n.slice(0, 3), n.slice(3, 6), n.slice(6)];
  const body = groups.map((g, i) => `${g}${sep[i] ?? ''}`).join('');
  return [`0${sep[3]}${body}`, body, `+234${sep[3]}${body}`, `234${sep[3]}${body}`, `+234 (0) ${body}`, `00234${sep[3]}${body}`][form]!;
}
const fullWidth = (s: string) => s.replace(/[0-9+]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

describe('normaliseNigerianPhone', () => {
  it('reads every spelling of a number as the one E.164 form (property)', () => {
    fc.assert(
      fc.property(
        national,
        fc.integer({ min: 0, max: 5 }),
        fc.array(separator, { minLength: 4, maxLength: 4 }),
        fc.boolean(),
        (n, form, sep, wide) => {
          const typed = spelled(n, form, sep);
          expect(normaliseNigerianPhone(wide ? fullWidth(typed) : typed)).toBe(`+234${n}`);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('is idempotent and its output reads back as itself (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (s) => {
        const once = normaliseNigerianPhone(s);
        if (once !== null) {
          expect(once).toMatch(/^\+234[789][01]\d{8}$/);
          expect(normaliseNigerianPhone(once)).toBe(once);
          expect(normaliseNigerianPhone(formatNigerianPhone(once))).toBe(once);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses what is not a Nigerian mobile number', () => {
    for (const bad of [
      '',
      '0803123456',
      '080312345678',
      '+44 7700 900123',
      '+1 803 123 4567',
      '0603 123 4567',
      '0803-ABC-4567',
      '٠٨٠٣١٢٣٤٥٦٧',
      '0803 123 4567 ext 2',
      '+234 803 123 4567\u0000',
      '1'.repeat(200),
      '+2340',
    ])
      expect(normaliseNigerianPhone(bad), JSON.stringify(bad)).toBeNull();
  });
});

describe('parent names and sign-in', () => {
  it('names agree in any order, case and title; a bare surname agrees with no full name', () => {
    expect(parentNamesAgree('Mr Emeka Okafor', 'okafor emeka')).toBe(true);
    expect(parentNamesAgree('Alhaji Musa Bello', 'Musa  Bello')).toBe(true);
    expect(parentNamesAgree('Emeka John Okafor', 'Emeka Okafor')).toBe(true);
    expect(parentNamesAgree('Mr Okafor', 'Emeka Okafor')).toBe(false);
    expect(parentNamesAgree('Emeka Okafor', 'Chidi Okafor')).toBe(false);
    expect(parentNamesAgree('Mrs', 'Mr')).toBe(false);
  });

  it('the sign-in id is an email or a phone in any spelling', () => {
    expect(readParentSignInId(' Ada@Example.COM ')).toEqual({ kind: 'email', email: 'ada@example.com' });
    expect(readParentSignInId('０８０３ １２３ ４５６７')).toEqual({ kind: 'phone', phone: '+2348031234567' });
    expect(readParentSignInId('STU-0001')).toBeNull();
    expect(parentLoginRequestSchema.safeParse({ email: '', password: 'x' }).success).toBe(false);
    expect(parentLoginRequestSchema.safeParse({ email: 'x'.repeat(400), password: 'x' }).success).toBe(false);
  });

  it('the admin form: hostile names are refused, the phone is stored normalised', () => {
    expect(parentCreateSchema.parse({ name: ' Ada  Obi ', phone: '0803.123.4567' })).toEqual({ name: 'Ada  Obi', phone: '+2348031234567' });
    for (const name of ['Ada\u202Eibo', 'A\u0007da', '\u200B', 'x'.repeat(151), ''])
      expect(parentCreateSchema.safeParse({ name, phone: '08031234567' }).success, JSON.stringify(name)).toBe(false);
  });
});

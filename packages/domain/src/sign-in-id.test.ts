import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from './auth-constants';
import { loginRequestSchema } from './auth';
import { admissionNumberKey, readSignInId, studentLoginRequestSchema } from './sign-in-id';

/** Admission numbers as schools write them: STU-0001, RMC/2026/0012, JSS1-045. */
const admissionNumber = fc
  .array(fc.stringMatching(/^[A-Z0-9]{1,5}$/), { minLength: 1, maxLength: 4 })
  .chain((parts) => fc.constantFrom('-', '/').map((sep) => parts.join(sep)))
  .filter((n) => n.replace(/[-/]/g, '').length <= 30);

const INVISIBLES = ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u00AD', '\u200E', '\u200F', '\u202A', '\u2066', '\uFE0F', '\u034F'];
const SEPARATORS = [
  ' ',
  '-',
  '/',
  '\u2010',
  '\u2011',
  '\u2012',
  '\u2013',
  '\u2014',
  '\u2212',
  '\u00A0',
  '\u2009',
  '\u3000',
  '\uFF0D',
  '\u2044',
];
const fullWidth = (c: string) => (/[A-Z0-9]/i.test(c) ? String.fromCodePoint(c.codePointAt(0)! - 0x21 + 0xff01) : c);

/** One way a person (or a copy and paste) may write `n`: cases, widths, separators and invisible characters changed. */
const writtenAs = (n: string) =>
  fc
    .array(
      fc.record({
        upper: fc.boolean(),
        wide: fc.boolean(),
        before: fc.array(fc.constantFrom(...INVISIBLES, ...SEPARATORS), { maxLength: 2 }),
      }),
      { minLength: n.length, maxLength: n.length },
    )
    .map((styles) =>
      [...n]
        .map((c, i) => {
          const s = styles[i]!;
          const cased = s.upper ? c.toUpperCase() : c.toLowerCase();
          return s.before.join('') + (s.wide ? fullWidth(cased) : cased);
        })
        .join(''),
    );

describe('the sign-in id rule', () => {
  it('every way of writing one admission number has the same key: case, width, spaces, dashes, slashes and invisible characters', () => {
    fc.assert(
      fc.property(
        admissionNumber.chain((n) => fc.tuple(fc.constant(n), writtenAs(n))),
        ([n, typed]) => {
          expect(admissionNumberKey(typed)).toBe(n.replace(/[-/]/g, ''));
          expect(readSignInId(` ${typed}\u200B `)).toEqual({ kind: 'admission_number', key: n.replace(/[-/]/g, '') });
        },
      ),
    );
  });

  it('a look-alike letter from another script never yields a key, so it cannot be a second form of a real number', () => {
    const lookAlikes = [
      '\u0421',
      '\u0422',
      '\u0410',
      '\u041E',
      '\u0415',
      '\u0392',
      '\u039F',
      '\u0405',
      '\u0406',
      '\u0430',
      '\u043E',
      '\u0441',
    ];
    fc.assert(
      fc.property(admissionNumber, fc.constantFrom(...lookAlikes), fc.nat(), (n, glyph, at) => {
        const i = at % (n.length + 1);
        expect(admissionNumberKey(n.slice(0, i) + glyph + n.slice(i))).toBeNull();
      }),
    );
    expect(admissionNumberKey('\u0421\u0422U-0001')).toBeNull(); // СТU-0001
    expect(admissionNumberKey('STU-0001')).toBe('STU0001');
  });

  it('a value with "@" is an email (lower case, invisible characters dropped); without, an admission number', () => {
    expect(readSignInId(' Ada.Obi@School.NG\u200B')).toEqual({ kind: 'email', email: 'ada.obi@school.ng' });
    expect(readSignInId('stu 0001')).toEqual({ kind: 'admission_number', key: 'STU0001' });
    expect(readSignInId('not an @ email')).toBeNull();
    expect(readSignInId('STU_0001')).toBeNull();
    expect(readSignInId('x'.repeat(31))).toBeNull();
  });

  it('the student sign-in takes either in its email field, with clear messages', () => {
    expect(studentLoginRequestSchema.parse({ email: 'stu-0001', password: 'p' }).email).toEqual({
      kind: 'admission_number',
      key: 'STU0001',
    });
    expect(studentLoginRequestSchema.parse({ email: 'A@B.NG', password: 'p' }).email).toEqual({ kind: 'email', email: 'a@b.ng' });
    const message = (email: unknown) => studentLoginRequestSchema.safeParse({ email, password: 'p' }).error?.issues[0]?.message;
    expect(message('')).toBe(AUTH_MESSAGES.signInIdRequired);
    expect(message('\u200B ')).toBe(AUTH_MESSAGES.signInIdRequired);
    expect(message(undefined)).toBe(AUTH_MESSAGES.signInIdRequired);
    expect(message('STU_0001')).toBe(AUTH_MESSAGES.invalidSignInId);
  });

  it('staff and admin sign in by email only; an invisible character copied along is dropped', () => {
    expect(loginRequestSchema.parse({ email: 'Head@X.school\u200B', password: 'p' }).email).toBe('head@x.school');
    expect(loginRequestSchema.safeParse({ email: 'STAFF-0001', password: 'p' }).error?.issues[0]?.message).toBe(AUTH_MESSAGES.invalidEmail);
  });
});

import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, newPasswordSchema, personalPasswordProblem } from './auth';
import { staffCreateSchema } from './people';

describe('context-specific password rules (ASVS 6.2.11)', () => {
  const ctx = { email: 'Chiamaka.Obi@school.ng', schoolName: 'Role Models College' };

  it('refuses the own email or its local part, ignoring case and punctuation', () => {
    for (const pw of ['chiamaka.obi@school.ng', 'CHIAMAKA.OBI@SCHOOL.NG', 'chiamaka-obi-2026', 'My chiamakaobi!']) {
      expect(personalPasswordProblem(pw, ctx), pw).toBe(AUTH_MESSAGES.passwordContainsEmail);
    }
  });

  it("refuses the school's name, spaced or not", () => {
    for (const pw of ['Role Models College 1', 'rolemodelscollege', 'ROLE-MODELS-COLLEGE!']) {
      expect(personalPasswordProblem(pw, ctx), pw).toBe(AUTH_MESSAGES.passwordContainsSchoolName);
    }
  });

  it('accepts ordinary passwords, and does not refuse on a short local part', () => {
    expect(personalPasswordProblem('Kola-nut-Harmattan-7', ctx)).toBeNull();
    expect(personalPasswordProblem('Adamant-Rock-42', { email: 'ada@school.ng', schoolName: 'Role Models College' })).toBeNull();
    expect(personalPasswordProblem('Role-Model-2026', ctx)).toBeNull();
  });

  it('refuses passwords made only of whitespace', () => {
    for (const pw of [' '.repeat(8), '\t\t\t\t    ', '\u00a0'.repeat(10)]) {
      const r = newPasswordSchema.safeParse(pw);
      expect(r.success).toBe(false);
      expect(r.error?.issues.map((i) => i.message)).toContain(AUTH_MESSAGES.passwordOnlySpaces);
    }
    expect(newPasswordSchema.safeParse('  spaced  out  words  ').success).toBe(true);
  });

  it('the registration forms refuse the own email as the password on the password field', () => {
    const r = staffCreateSchema.safeParse({
      username: 'nobi',
      first_name: 'Ngozi',
      last_name: 'Obi',
      email: 'ngozi.obi@school.ng',
      phone_number: '08031234567',
      designation: 'Teacher',
      department: 'Sciences',
      password: 'ngozi.obi-2026',
      confirm_password: 'ngozi.obi-2026',
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues.find((i) => i.path[0] === 'password')?.message).toBe(AUTH_MESSAGES.passwordContainsEmail);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES, PASSWORD_MIN, passwordChangeSchema } from './auth';
import { passwordChangeFormSchema } from './password-change-form';

const messagesOf = (r: { error?: { issues: { path: PropertyKey[]; message: string }[] } }, field: string) =>
  r.error?.issues.filter((i) => i.path[0] === field).map((i) => i.message) ?? [];

describe('the change-password form checks', () => {
  it('asks for the current password and a new one of at least the minimum length', () => {
    const r = passwordChangeFormSchema.safeParse({ old_password: '', new_password: 'x'.repeat(PASSWORD_MIN - 1) });
    expect(messagesOf(r, 'old_password')).toEqual([AUTH_MESSAGES.passwordRequired]);
    expect(messagesOf(r, 'new_password')).toEqual([AUTH_MESSAGES.passwordTooShort]);
    expect(passwordChangeFormSchema.safeParse({ old_password: 'a', new_password: 'x'.repeat(PASSWORD_MIN) }).success).toBe(true);
  });

  it('leaves the common-passwords rule to the server, whose schema still refuses it', () => {
    const body = { old_password: 'current-one', new_password: 'password123' };
    expect(passwordChangeFormSchema.safeParse(body).success).toBe(true);
    expect(messagesOf(passwordChangeSchema.safeParse(body), 'new_password')).toEqual([AUTH_MESSAGES.passwordTooCommon]);
  });

  it('does not load the common-passwords list', async () => {
    vi.resetModules();
    vi.doMock('./common-passwords', () => {
      throw new Error('the form schema loaded the common-passwords list');
    });
    await expect(import('./password-change-form')).resolves.toHaveProperty('passwordChangeFormSchema');
    vi.doUnmock('./common-passwords');
  });
});

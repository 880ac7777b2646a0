import { z } from 'zod';
import { COMMON_PASSWORDS } from './common-passwords';
import type { Role } from './constants';
import { AUTH_MESSAGES, PASSWORD_MAX, PASSWORD_MIN } from './auth-constants';

export * from './auth-constants';

/** A new password (ASVS 6.2): 8..128 characters, not one of the most common passwords. */
export const newPasswordSchema = z
  .string({ error: AUTH_MESSAGES.passwordRequired })
  .min(PASSWORD_MIN, AUTH_MESSAGES.passwordTooShort)
  .max(PASSWORD_MAX, AUTH_MESSAGES.passwordTooLong)
  .refine((p) => !COMMON_PASSWORDS.has(p.toLowerCase()), AUTH_MESSAGES.passwordTooCommon);

export const emailSchema = z
  .string({ error: AUTH_MESSAGES.emailRequired })
  .trim()
  .min(1, AUTH_MESSAGES.emailRequired)
  .max(254, AUTH_MESSAGES.invalidEmail)
  .pipe(z.email(AUTH_MESSAGES.invalidEmail))
  .transform((e) => e.toLowerCase());

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: z
    .string({ error: AUTH_MESSAGES.passwordRequired })
    .min(1, AUTH_MESSAGES.passwordRequired)
    .max(1024, AUTH_MESSAGES.invalidCredentials),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const passwordChangeSchema = z.object({
  old_password: z.string({ error: AUTH_MESSAGES.passwordRequired }).min(1, AUTH_MESSAGES.passwordRequired).max(1024),
  new_password: newPasswordSchema,
});
export type PasswordChangeRequest = z.infer<typeof passwordChangeSchema>;

export const refreshRequestSchema = z.object({ refresh: z.string().min(1).max(4096) });

/** Login response envelope of spec §3. */
export interface LoginEnvelope<D> {
  status: 'success' | 'error';
  data: D | null;
  message: string;
  errors: { non_field_errors: string[] };
}
export interface TokenPair {
  access: string;
  refresh: string;
}
export interface AdminLoginData extends TokenPair {
  username: string;
  first_name: string;
  must_change_password: boolean;
}
export interface StaffLoginData extends TokenPair {
  staff_id: string;
  first_name: string;
  must_change_password: boolean;
}
export interface StudentLoginData extends TokenPair {
  admission_number: string;
  first_name: string;
  must_change_password: boolean;
}
export type LoginData = AdminLoginData | StaffLoginData | StudentLoginData;

/** GET /api/me: who the bearer token belongs to. */
export interface Me {
  id: number;
  role: Role;
  email: string;
  first_name: string;
  last_name: string;
  must_change_password: boolean;
  /** admin username, staff_id or admission_number */
  public_id: string;
}

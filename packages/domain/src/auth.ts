import { z } from 'zod';
import { COMMON_PASSWORDS } from './common-passwords';
import type { Role } from './constants';
import { AUTH_MESSAGES, PASSWORD_MAX, PASSWORD_MIN } from './auth-constants';
import { foldSignInText } from './sign-in-id';

export * from './auth-constants';
export * from './sign-in-id';

/** A new password (ASVS 6.2): 8..128 characters, not one of the most common passwords. */
export const newPasswordSchema = z
  .string({ error: AUTH_MESSAGES.passwordRequired })
  .min(PASSWORD_MIN, AUTH_MESSAGES.passwordTooShort)
  .max(PASSWORD_MAX, AUTH_MESSAGES.passwordTooLong)
  .refine((p) => p.trim().length > 0, AUTH_MESSAGES.passwordOnlySpaces)
  .refine((p) => !COMMON_PASSWORDS.has(p.toLowerCase()), AUTH_MESSAGES.passwordTooCommon);

/** Letters and digits only, lower case: how a password is compared with personal words. */
const letters = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * Context-specific words a password must not contain (ASVS 6.2.11): the account's own email or its
 * local part, and the school's name. Compared on letters and digits only, ignoring case, so
 * "Ada.Obi 2026" is refused for ada.obi@… and "RoleModels-College!" for Role Models College.
 * Returns the message to show, or null when the password is fine.
 */
export function personalPasswordProblem(password: string, context: { email?: string | null; schoolName?: string | null }): string | null {
  const pw = letters(password);
  const email = context.email?.trim().toLowerCase();
  if (email) {
    const local = letters(email.split('@')[0] ?? '');
    if (pw.includes(letters(email)) || (local.length >= 4 && pw.includes(local))) return AUTH_MESSAGES.passwordContainsEmail;
  }
  const school = letters(context.schoolName ?? '');
  if (school.length >= 3 && pw.includes(school)) return AUTH_MESSAGES.passwordContainsSchoolName;
  return null;
}

export const emailSchema = z
  .string({ error: AUTH_MESSAGES.emailRequired })
  .trim()
  .min(1, AUTH_MESSAGES.emailRequired)
  .max(254, AUTH_MESSAGES.invalidEmail)
  .pipe(z.email(AUTH_MESSAGES.invalidEmail))
  .transform((e) => e.toLowerCase());

export const loginRequestSchema = z.object({
  // Invisible characters copied along with an address never make it a different one (sign-in-id.ts).
  email: z.preprocess((v) => (typeof v === 'string' ? foldSignInText(v) : v), emailSchema),
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

/** Login response envelope. */
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
  /** Null for a student registered without one. */
  email: string | null;
  first_name: string;
  last_name: string;
  must_change_password: boolean;
  /** admin username, staff_id or admission_number */
  public_id: string;
}

/**
 * Which counter blocked an account: wrong passwords from one `address`; from every browser without
 * the account's device cookie together (`untrusted_clients`: a guesser spread over many addresses);
 * or on one browser that holds it (`device`).
 */
export type SignInBlockKind = 'address' | 'untrusted_clients' | 'device';

/** GET /api/sign-in-blocks/ (admin): an account blocked from signing in after wrong passwords. */
export interface SignInBlock {
  /** The account's email, or what was typed when it names no account (an email or an admission number). */
  email: string;
  kind: SignInBlockKind;
  /** The client address of an `address` block; null for the others. */
  address: string | null;
  /** ISO-8601 time the block ends by itself */
  blocked_until: string;
}

/** POST /api/sign-in-blocks/clear/ (admin): the account's blocks from one address, or all of its blocks when absent. */
export const signInBlockClearSchema = z.object({
  // As listed: an account's email, or the text an unknown account was tried under (an admission number's key).
  email: z
    .string({ error: AUTH_MESSAGES.emailRequired })
    .trim()
    .min(1, AUTH_MESSAGES.emailRequired)
    .max(320, AUTH_MESSAGES.invalidEmail)
    .transform((v) => (v.includes('@') ? v.toLowerCase() : v)),
  address: z.string().trim().min(1).max(100).optional(),
});
export type SignInBlockClear = z.infer<typeof signInBlockClearSchema>;

import { personalPasswordProblem } from '@portal/domain';
import { HttpError } from './http-error';

/**
 * The context-specific part of the password policy (ASVS 6.2.11), wherever a password is set:
 * refuses the account's own email (or its local part) and the school's name, as a 400 on `field`.
 * The length, whitespace-only and common-password rules are in the domain schema already.
 */
export function assertPasswordAllowed(password: string, context: { email?: string | null; schoolName: string }, field: string): void {
  const problem = personalPasswordProblem(password, context);
  if (problem) throw new HttpError(400, { [field]: [problem] });
}

import { generateOneTimePassword, hashPassword } from '../../lib/passwords';
import { assertPasswordAllowed } from '../../lib/password-policy';
import type { PeopleRepository } from './people.repository';

/**
 * A password the admin sets while editing a staff member or a student: checked against the policy
 * (not the account's old email, not its new one: both are the account's own; not the school's
 * name), then hashed. Undefined when the edit sets none.
 */
export async function editedPasswordHash(
  repo: PeopleRepository,
  input: { password?: string; email?: string | null },
  currentEmail: string | null,
): Promise<string | undefined> {
  if (input.password === undefined) return undefined;
  for (const email of [currentEmail, input.email])
    assertPasswordAllowed(input.password, { email, schoolName: await repo.schoolName() }, 'password');
  return hashPassword(input.password);
}

/**
 * The first password of a new staff or student account: the one the admin chose (checked against
 * the policy and the account's email), or a generated one-time password. Hashed here, before the
 * caller's transaction: argon2 is slow on purpose and must not hold the write lock.
 */
export async function newAccountPassword(
  repo: PeopleRepository,
  input: { password?: string; email: string | null },
): Promise<{ password: string; passwordHash: string; generated: boolean }> {
  if (input.password !== undefined)
    assertPasswordAllowed(input.password, { email: input.email, schoolName: await repo.schoolName() }, 'password');
  const password = input.password ?? generateOneTimePassword();
  return { password, passwordHash: await hashPassword(password), generated: input.password === undefined };
}

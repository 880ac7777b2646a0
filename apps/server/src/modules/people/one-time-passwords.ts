import { hash } from '@node-rs/argon2';
import { PEOPLE_MESSAGES, type PasswordResetResponse } from '@portal/domain';
import { writeAudit } from '../../db/audit';
import type { AuthUser } from '../../http/auth';
import { generateOneTimePassword, hashPassword } from '../../lib/passwords';
import type { PeopleRepository } from './people.repository';

/**
 * Hashes for generated one-time passwords of a bulk import.
 *
 * A generated password is 12 characters from a 57-letter alphabet (~70 bits of entropy), unlike a
 * password a person chose. The slow OWASP argon2id settings exist to make guessing low-entropy
 * passwords expensive; against 2^70 random candidates even a cheap hash is out of reach. So the
 * import hashes them with argon2id at a low cost (m=1 MiB, t=1), which keeps 10,000 accounts within
 * seconds on two cores. `verify` reads the parameters from the hash, so sign-in needs no change,
 * and the first sign-in forces a password change, which is stored with the full-cost settings.
 */
const FAST = { algorithm: 2 /* Argon2id */, memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

/** Hashes are computed this many at a time (the native pool spreads them over the cores). */
const BATCH = 64;

export interface GeneratedPassword {
  password: string;
  hash: string;
}

export async function generateOneTimePasswords(count: number): Promise<GeneratedPassword[]> {
  const out: GeneratedPassword[] = [];
  for (let i = 0; i < count; i += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, count - i) }, () => generateOneTimePassword());
    const hashes = await Promise.all(batch.map((p) => hash(p, FAST)));
    batch.forEach((password, k) => out.push({ password, hash: hashes[k]! }));
  }
  return out;
}

/**
 * The admin's password reset, the same for a staff member and a student: a new one-time password
 * (full-cost hash), which the account must change at next sign-in, audited under the person's id.
 */
export async function resetToOneTimePassword(
  repo: PeopleRepository,
  actor: AuthUser,
  account: { userId: number; entity: 'staff' | 'student'; entityId: string },
): Promise<PasswordResetResponse> {
  const password = generateOneTimePassword();
  const passwordHash = await hashPassword(password);
  await repo.transaction(async (trx) => {
    await repo.setPasswordForced(trx, account.userId, passwordHash);
    await writeAudit(trx, { actorUserId: actor.id, action: 'reset_password', entity: account.entity, entityId: account.entityId });
  });
  return { detail: PEOPLE_MESSAGES.passwordReset, one_time_password: password };
}

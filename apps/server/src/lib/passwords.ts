import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** OWASP argon2id parameters: m=19 MiB, t=2, p=1. */
const OPTIONS = { algorithm: 2 /* Algorithm.Argon2id (a const enum) */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

/**
 * Whether a stored hash costs at least the OWASP parameters to verify. One-time passwords of a bulk
 * import are hashed cheaply (docs/decisions/005); a failed sign-in against such a hash must still
 * cost a full verification, or the answer time tells which accounts were imported.
 */
export function hasFullCost(hashed: string): boolean {
  const m = /^\$argon2id\$v=\d+\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(hashed);
  return Boolean(m && Number(m[1]) >= OPTIONS.memoryCost && Number(m[2]) >= OPTIONS.timeCost);
}

let dummyHash: Promise<string> | undefined;
/** Verifies against a throwaway hash so an unknown email costs as much time as a wrong password. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password-placeholder');
  await verifyPassword(await dummyHash, password);
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
/** A one-time password that is easy to read off a printed slip: 4-4-4 groups, ~70 bits. */
export function generateOneTimePassword(): string {
  const groups: string[] = [];
  for (let g = 0; g < 3; g++) {
    let s = '';
    for (let i = 0; i < 4; i++) s += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(s);
  }
  return groups.join('-');
}

import type { SignInBlockKind } from '@portal/domain';
import type { Config } from '../../config';

/**
 * The sign-in throttle's counters (rows of `login_throttle`, shared by every instance through the
 * database), each keyed by the account's subject: its email when the typed id names an account
 * (so its email and its admission number are one account), else the typed id's own text.
 *
 * - `login:<subject> <address>`: wrong passwords from one address without the account's device cookie;
 * - `untrusted:<subject>`: the same, from every address together (the distributed guesser's budget);
 * - `device:<subject> <device id>`: wrong passwords from a browser holding the account's device cookie.
 */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

const PREFIX: Record<SignInBlockKind, string> = { address: 'login:', untrusted_clients: 'untrusted:', device: 'device:' };

export const addressKey = (subject: string, address: string) => `${PREFIX.address}${subject} ${address}`;
export const untrustedKey = (subject: string) => `${PREFIX.untrusted_clients}${subject}`;
export const deviceKey = (subject: string, deviceId: string) => `${PREFIX.device}${subject} ${deviceId}`;
/** The throttle key of wrong current passwords on the password-change route. */
export const passwordChangeKey = (userId: number) => `pwchange:${userId}`;

export const SIGN_IN_KEY_PREFIXES = Object.values(PREFIX);

/** Every key of one subject: for the admin's "clear all blocks of this account". */
export function keysOfSubject(subject: string): ({ key: string } | { prefix: string })[] {
  return [{ prefix: `${PREFIX.address}${subject} ` }, { key: untrustedKey(subject) }, { prefix: `${PREFIX.device}${subject} ` }];
}

/** A key read back: which counter, whose, and from where (the address; null for the others). */
export function parseSignInKey(key: string): { kind: SignInBlockKind; subject: string; address: string | null } | null {
  for (const kind of Object.keys(PREFIX) as SignInBlockKind[]) {
    if (!key.startsWith(PREFIX[kind])) continue;
    const rest = key.slice(PREFIX[kind].length);
    if (kind === 'untrusted_clients') return { kind, subject: rest, address: null };
    const space = rest.lastIndexOf(' ');
    if (space <= 0) return null;
    return { kind, subject: rest.slice(0, space), address: kind === 'address' ? rest.slice(space + 1) : null };
  }
  return null;
}

/** How many failures each counter allows in its window, and how long its block lasts. */
export function limitsOf(
  kind: SignInBlockKind | 'password_change',
  config: Config,
): { max: number; windowSeconds: number; blockSeconds: number } {
  if (kind === 'untrusted_clients') {
    const u = config.untrustedSignIn;
    return { max: u.failures, windowSeconds: u.windowSeconds, blockSeconds: u.blockSeconds };
  }
  const { perAccountFailures, perAccountBlockSeconds } = config.loginLimits;
  return { max: perAccountFailures, windowSeconds: SIGN_IN_WINDOW_SECONDS, blockSeconds: perAccountBlockSeconds };
}

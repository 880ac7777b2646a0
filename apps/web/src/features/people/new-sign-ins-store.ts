import type { ImportedAccount } from '@portal/domain/people-constants';

/**
 * One-time passwords of the accounts this signed-in user registered, so the
 * day's sign-in slips can be printed together. They live only in this tab's sessionStorage (never on
 * the server) and are removed at sign-out and at the next sign-in (lib/auth-store clearSession).
 */
export const NEW_SIGN_IN_PASSWORDS_KEY = 'newSignInPasswords';

type Stored = Record<string, string>;

function read(): Stored {
  try {
    const v = JSON.parse(sessionStorage.getItem(NEW_SIGN_IN_PASSWORDS_KEY) ?? '{}') as unknown;
    return v && typeof v === 'object' ? (v as Stored) : {};
  } catch {
    return {};
  }
}

/** Keeps the one-time passwords of new (or reset) accounts, by public id. */
export function rememberPasswords(accounts: { public_id: string; one_time_password: string }[]): void {
  if (!accounts.length) return;
  const stored = read();
  for (const a of accounts) stored[a.public_id] = a.one_time_password;
  try {
    sessionStorage.setItem(NEW_SIGN_IN_PASSWORDS_KEY, JSON.stringify(stored));
  } catch {
    // Storage full or blocked: the slip on screen is still there to print.
  }
}

/**
 * A new registration's account for its sign-in slip, kept with the day's one-time passwords; none
 * when the registrar typed a password (the server generated no one-time password).
 */
export function newAccountSlip(
  res: { first_name: string; last_name: string; email: string | null; one_time_password?: string },
  publicId: string,
  group: string,
): ImportedAccount | undefined {
  if (!res.one_time_password) return undefined;
  const account = {
    public_id: publicId,
    first_name: res.first_name,
    last_name: res.last_name,
    email: res.email,
    group,
    one_time_password: res.one_time_password,
  };
  rememberPasswords([account]);
  return account;
}

export function storedPasswords(): Stored {
  return read();
}

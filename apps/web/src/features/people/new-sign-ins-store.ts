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

export function storedPasswords(): Stored {
  return read();
}

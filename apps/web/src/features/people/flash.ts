import type { ImportedAccount } from '@portal/domain/people-constants';

/**
 * Hands a just-created account (with its one-time password) from one screen to the next, in
 * memory only: never in the address, the history state or local storage. Read once.
 */
export interface CreatedFlash {
  message: string;
  account?: ImportedAccount;
}

let pending: CreatedFlash | null = null;

export function setCreatedFlash(f: CreatedFlash): void {
  pending = f;
}

export function takeCreatedFlash(): CreatedFlash | null {
  const f = pending;
  pending = null;
  return f;
}

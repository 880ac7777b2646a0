import type { Role } from '@portal/domain/constants';
import { api } from './api-client';
import { clearSession, getSession, LOGIN_OF_ROLE, setSigningOut, tokens } from './auth-store';
import { clearAllDrafts } from './drafts';
import type { FlushResult } from './offline';
import { userOf } from './offline/user';
import { offlineSignedOut } from './offline-session';

/** Rows the signed-in account typed on this phone and the server has not stored yet (asked before signing out). */
export async function unsentBeforeSignOut(): Promise<number> {
  const user = userOf(getSession());
  if (!user) return 0;
  const { unsentRows } = await import('./offline');
  return (await unsentRows(user)).length;
}

/** "Send them first": the account's queue, sent now (what fails stays queued and is counted). */
export async function sendBeforeSignOut(): Promise<FlushResult | null> {
  const user = userOf(getSession());
  if (!user) return null;
  const { flushOutbox } = await import('./offline');
  return flushOutbox(user);
}

/**
 * Revokes the session on the server (best effort), clears storage, every unsaved draft and the
 * account's offline data (kept copies and the queue: the screen asked first when anything was
 * unsent, issue 35.4), and returns the role's login path.
 */
export async function logout(role: Role): Promise<string> {
  const user = userOf(getSession());
  const refresh = tokens.refresh();
  setSigningOut(true);
  try {
    if (tokens.access()) await api.post('/logout/', { refresh: refresh ?? undefined }, { timeout: 5000 });
  } catch {
    // Signing out locally must work even when the server cannot be reached.
  }
  clearAllDrafts();
  // The session first: an open sheet's outbox then writes nothing more under this account.
  clearSession();
  // With no tokens left, a call refused later has nothing to refresh and sends no one anywhere.
  setSigningOut(false);
  if (user) await offlineSignedOut(user);
  return LOGIN_OF_ROLE[role];
}

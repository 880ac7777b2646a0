import type { Role } from '@portal/domain/constants';
import { api } from './api-client';
import { clearSession, LOGIN_OF_ROLE, tokens } from './auth-store';
import { clearAllDrafts } from './drafts';

/** Revokes the session on the server (best effort), clears storage and every unsaved draft, and returns the role's login path. */
export async function logout(role: Role): Promise<string> {
  const refresh = tokens.refresh();
  try {
    if (tokens.access()) await api.post('/logout/', { refresh: refresh ?? undefined }, { timeout: 5000 });
  } catch {
    // Signing out locally must work even when the server cannot be reached.
  }
  clearAllDrafts();
  clearSession();
  return LOGIN_OF_ROLE[role];
}

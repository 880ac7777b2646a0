import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AcademicSession } from '@portal/domain/results';
import { api } from './api-client';
import { keptOffline } from './offline-query';

/**
 * The school's academic sessions, read once for every screen: one query key, one fetch, one rule for
 * the session a screen opens on and one label for the current one. No zod here: the route table
 * imports it to ask for the list while a page's chunk downloads (lib/prefetch.ts).
 */
export const sessionsKey = ['sessions'] as const;

/** Academic sessions, newest first; the current one is the default on every screen. */
export const sessionsQuery = queryOptions({
  queryKey: sessionsKey,
  // Kept on this phone: offline, the register, the report card and the sheets still know the sessions.
  ...keptOffline('sessions', sessionsKey, () => api.get<AcademicSession[]>('/sessions/', { timeout: 10_000 })),
  staleTime: 60_000,
});

export function useSessions() {
  return useQuery(sessionsQuery);
}

/** The session marked current, else the newest; undefined while there is none. */
export function currentSession<S extends { is_current: boolean }>(sessions: readonly S[] | undefined): S | undefined {
  return sessions?.find((x) => x.is_current) ?? sessions?.[0];
}

/** The id (as a form value) of the session a screen opens on; '' while there is none. */
export function currentSessionId(sessions: readonly { id: number; is_current: boolean }[] | undefined): string {
  const s = currentSession(sessions);
  return s ? String(s.id) : '';
}

/** A session as a picker shows it: its name, and "(current)" after the current one. */
export function sessionLabel(s: { name: string; is_current: boolean }): string {
  return s.is_current ? `${s.name} (current)` : s.name;
}

/** The sessions as a select's options (value: the id). */
export function sessionOptions(sessions: readonly AcademicSession[] | undefined): { value: string; label: string }[] {
  return (sessions ?? []).map((s) => ({ value: String(s.id), label: sessionLabel(s) }));
}

/** The name of a session for headings ('' until the list has it). */
export function useSessionName(id: string | number): string {
  const sessions = useSessions();
  return sessions.data?.find((s) => String(s.id) === String(id))?.name ?? '';
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentTerm } from '@portal/domain/current-term';
import { api } from './api-client';

/**
 * The session and term every term-based screen opens on, as the server computes it
 * from the school calendar (`GET /api/current-term/`): screens never work it out themselves.
 */
export const currentTermKey = ['current-term'] as const;

export const currentTermQuery = queryOptions({
  queryKey: currentTermKey,
  queryFn: () => api.get<CurrentTerm>('/current-term/', { timeout: 10_000 }),
  staleTime: 5 * 60_000,
});

export function useCurrentTerm(enabled = true) {
  return useQuery({ ...currentTermQuery, enabled });
}

/**
 * The session and term a screen opens on once both lists are known: the current term when the
 * session list has its session, else the session marked current and no term. `null` while waiting.
 */
export function openingTerm(
  sessions: readonly { id: number; is_current: boolean }[] | undefined,
  current: { data?: CurrentTerm; isPending: boolean; isError: boolean },
): { sessionId: string; term: string } | null {
  if (!sessions) return null;
  if (current.isPending && !current.isError) return null;
  const c = current.data;
  if (c?.session_id && sessions.some((s) => s.id === c.session_id)) return { sessionId: String(c.session_id), term: c.term ?? '' };
  const s = sessions.find((x) => x.is_current) ?? sessions[0];
  return { sessionId: s ? String(s.id) : '', term: '' };
}

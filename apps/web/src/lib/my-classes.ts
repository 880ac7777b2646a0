import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyClasses } from '@portal/domain/teaching';
import { api } from './api-client';
import { keptOffline } from './offline-query';

/**
 * The signed-in staff member's arm-subject pairs and form classes in a session ('' the current one).
 * One key for every screen that reads them (home, teaching, attendance, report sheets), under
 * `['teaching']` so a teaching change makes them stale.
 */
export const myClassesKey = (sessionId: string) => ['teaching', 'my-classes', sessionId] as const;

/** Kept on this phone (lib/offline-query.ts): offline, the register's arm list opens from the copy. */
export const myClassesQuery = (sessionId: string) => {
  const queryKey = myClassesKey(sessionId);
  return queryOptions({
    queryKey,
    ...keptOffline('my-classes', queryKey, () =>
      api.get<MyClasses>('/teaching/my-classes/', { query: { session_id: sessionId || undefined }, timeout: 15_000 }),
    ),
  });
};

export function useMyClasses(sessionId: string, enabled = true) {
  return useQuery({ ...myClassesQuery(sessionId), enabled });
}

/** The arms the signed-in staff member is form teacher of in a session (asked once a session is chosen). */
export function useFormClasses(sessionId: string, enabled: boolean) {
  return useMyClasses(sessionId, enabled && sessionId !== '');
}

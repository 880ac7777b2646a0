import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { useSession } from './auth-store';

/** Every in-app notices query sits under this key: reading a notice makes the badge and the list stale. */
export const noticesKey = ['notices'] as const;
export const unreadNoticesKey = ['notices', 'unread'] as const;

/**
 * How many of the signed-in user's in-app notices are unread (the top bar's badge): the first page's
 * `unread`, asked once a minute while the app is open. Null while unknown, so no badge flickers to 0.
 */
export function useUnreadNotices(): number | null {
  const session = useSession();
  const signedIn = Boolean(session && !session.mustChangePassword);
  const query = useQuery({
    queryKey: unreadNoticesKey,
    queryFn: ({ signal }) => api.get<{ unread: number }>('/notices/', { query: { page: 1 }, timeout: 10_000, signal }),
    enabled: signedIn,
    staleTime: 30_000,
    refetchInterval: 60_000,
    refetchIntervalInBackground: false,
    retry: false,
  });
  return signedIn && query.data ? query.data.unread : null;
}

import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { api } from './api-client';

type Extra<T> = Omit<UseQueryOptions<T>, 'queryKey' | 'queryFn' | 'enabled'> & { timeout?: number };

/**
 * A screen's GET of `path` with `query` as its query string; null while the screen has not asked yet
 * (nothing is fetched). Not retried: a failure shows at once. Cancelled when the screen moves on.
 * `extra` adds the query's own options (keep the previous page, no refetch on focus, a longer timeout).
 */
export function useGet<T>(queryKey: QueryKey, path: string, query: object | null, { timeout = 15_000, ...extra }: Extra<T> = {}) {
  return useQuery({
    queryKey,
    queryFn: ({ signal }) => api.get<T>(path, { query: { ...query }, timeout, signal }),
    enabled: query !== null,
    retry: false,
    ...extra,
  });
}

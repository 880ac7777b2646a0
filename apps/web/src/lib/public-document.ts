import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client';

/**
 * A public document of the school (its settings, the admission page's text): read without signing
 * in and kept five minutes; the admin's save puts the answer in the cache. `seen` runs on every copy
 * read or saved.
 */
export function publicDocument<T>(key: string, path: string, seen: (doc: T) => void = () => undefined) {
  const query = queryOptions({
    queryKey: [key] as const,
    queryFn: async () => {
      const doc = await api.get<T>(path, { anonymous: true, timeout: 10_000 });
      seen(doc);
      return doc;
    },
    staleTime: 5 * 60_000,
  });
  return {
    query,
    useRead: () => useQuery(query),
    useSave: () => {
      const qc = useQueryClient();
      return useMutation({
        mutationFn: (doc: T) => api.put<T>(path, doc),
        onSuccess: (doc) => {
          seen(doc);
          qc.setQueryData(query.queryKey, doc);
        },
      });
    },
  };
}

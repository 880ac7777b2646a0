import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/** The app's one query cache: the providers hand it to React, route loaders (lib/prefetch.ts) fill it early. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // 4xx answers will not change on retry; network blips might.
      retry: (count, err) => count < 2 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
    },
  },
});

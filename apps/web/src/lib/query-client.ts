import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/** The queries' defaults, shared with the server's page renderer (src/ssr/render-page.tsx). */
export const QUERY_DEFAULTS = {
  staleTime: 30_000,
  refetchOnWindowFocus: false,
  // 4xx answers will not change on retry; network blips might.
  retry: (count: number, err: Error) => count < 2 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
};

/** The app's one query cache: the providers hand it to React, route loaders (lib/prefetch.ts) fill it early. */
export const queryClient = new QueryClient({ defaultOptions: { queries: QUERY_DEFAULTS } });

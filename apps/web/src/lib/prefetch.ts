import type { FetchQueryOptions, Query, QueryClient, QueryKey } from '@tanstack/react-query';
import type { LoaderFunction } from 'react-router';
import { queryClient } from './query-client';
import { getSession, type Session } from './auth-store';

/**
 * Route loaders that only start a page's queries: never awaited, so they never hold the navigation
 * up, but the requests leave while the page's lazy chunk downloads instead of after it has rendered
 * (React Router runs a route's static loader beside its `lazy`). The page's hooks then find the
 * answers in flight or in the cache. Signed-out users and one-time passwords are the guards' business.
 */
export function prefetching(start: (ask: Ask, session: Session, params: URLSearchParams) => void): LoaderFunction {
  return ({ request }) => {
    const session = getSession();
    if (session && !session.mustChangePassword) start(ask(queryClient), session, new URL(request.url).searchParams);
    return null;
  };
}

/** Starts a query (a route loader's, or the server's page renderer's: src/ssr/render-page.tsx). */
export type Ask = <T, K extends QueryKey>(options: FetchQueryOptions<T, Error, T, K>) => void;

/** When a loader last asked for each query. */
const askedAt = new WeakMap<object, number>();
/** A loader asks again on every visit; longer than a visit's first render takes on a slow phone. */
const ASKED_FOR_THIS_VISIT_MS = 10_000;

function ask(qc: QueryClient): Ask {
  return (options) => {
    void qc.prefetchQuery(options);
    const query = qc.getQueryCache().find({ queryKey: options.queryKey, exact: true });
    if (query) askedAt.set(query, Date.now());
  };
}

/**
 * `refetchOnMount` for queries that are always stale (staleTime 0): the first render after the
 * route's loader asked uses that answer instead of asking again.
 */
export function refetchUnlessJustAsked<TData, TKey extends QueryKey>(query: Query<TData, Error, TData, TKey>): boolean {
  return Date.now() - (askedAt.get(query) ?? 0) > ASKED_FOR_THIS_VISIT_MS;
}

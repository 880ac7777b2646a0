import type { ComponentType, ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { errorMessage, type ErrorMessages } from '../../lib/errors';
import { EmptyState } from './card';
import { Alert } from './alert';
import { LoadingBlock } from './spinner';

/**
 * One loading / error / empty / ready switch for a screen section that shows fetched data. `messages`
 * is either the fixed error text or the rules that pick it from the failure. `empty` shows instead of
 * the children when `isEmpty` says so; without `isEmpty`, when the data is a list with no items.
 */
export function QueryView<T>({
  query,
  messages,
  empty,
  isEmpty,
  children,
}: {
  query: UseQueryResult<T>;
  messages: ErrorMessages | string;
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <LoadingBlock />;
  if (query.isError) return <Alert tone="error">{typeof messages === 'string' ? messages : errorMessage(query.error, messages)}</Alert>;
  const none = isEmpty ? isEmpty(query.data) : empty !== undefined && Array.isArray(query.data) && query.data.length === 0;
  if (none) return <EmptyState>{empty}</EmptyState>;
  return <>{children(query.data)}</>;
}

/**
 * A section that fetches for the question `q` (nothing while there is none) and shows the answer in
 * `View`; a failure shows the server's words, else `fallback`.
 */
export function querySection<Q, T>(useData: (q: Q | null) => UseQueryResult<T>, View: ComponentType<{ data: T }>, fallback: string) {
  return function QuerySection({ q }: { q: Q | null }) {
    const query = useData(q);
    if (!q) return null;
    return (
      <QueryView query={query} messages={{ fallback, useDetail: true }}>
        {(data) => <View data={data} />}
      </QueryView>
    );
  };
}

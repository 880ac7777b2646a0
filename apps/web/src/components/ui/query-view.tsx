import type { ComponentType, ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { errorMessage, type ErrorMessages } from '../../lib/errors';
import { EmptyState } from './card';
import { Alert } from './alert';
import { LoadingBlock } from './spinner';

/**
 * One loading / error / empty / ready switch for a screen section that shows fetched data. `messages`
 * is the fixed error text, the rules that pick it from the failure, or a function of the failure.
 * `loading` names the spinner. `empty` shows instead of the children when `isEmpty` says so; without
 * `isEmpty`, when the data is a list with no items.
 */
function failureText(error: Error, messages: ErrorMessages | string | ((error: Error) => string)): string {
  if (typeof messages === 'string') return messages;
  return typeof messages === 'function' ? messages(error) : errorMessage(error, messages);
}

export function QueryView<T>({
  query,
  messages,
  loading,
  empty,
  isEmpty,
  children,
}: {
  query: UseQueryResult<T>;
  messages: ErrorMessages | string | ((error: Error) => string);
  loading?: string;
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <LoadingBlock label={loading} />;
  if (query.isError) return <Alert tone="error">{failureText(query.error, messages)}</Alert>;
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

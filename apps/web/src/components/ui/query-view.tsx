import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { errorMessage, type ErrorMessages } from '../../lib/errors';
import { Alert } from './alert';
import { LoadingBlock } from './spinner';

/** One loading/error/ready switch for a screen that shows a single fetched record. */
export function QueryView<T>({
  query,
  messages,
  children,
}: {
  query: UseQueryResult<T>;
  messages: ErrorMessages;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <LoadingBlock />;
  if (query.isError) return <Alert tone="error">{errorMessage(query.error, messages)}</Alert>;
  return <>{children(query.data)}</>;
}

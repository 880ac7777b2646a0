import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { QueryView } from '../../../components/ui/query-view';

/**
 * A list query shown as a column of cards (a staff member's transfer reports, a student's
 * discounts), each item's card from `children`. Its failure reads `fallback` (or the server's
 * detail); `empty` shows when there is none.
 */
export function CardList<T>({
  query,
  fallback,
  empty,
  testId,
  children,
}: {
  query: UseQueryResult<T[]>;
  fallback: string;
  empty: ReactNode;
  testId: string;
  children: (item: T) => ReactNode;
}) {
  return (
    <QueryView query={query} messages={{ fallback, useDetail: true }} empty={empty}>
      {(list) => (
        <ul className="flex flex-col gap-3" data-testid={testId}>
          {list.map(children)}
        </ul>
      )}
    </QueryView>
  );
}

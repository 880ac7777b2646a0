import { keepPreviousData } from '@tanstack/react-query';
import type { CollectionSummary, DebtorSort, DebtorTerm, DebtorsPage } from '@portal/domain/fee-reports';
import type { Term } from '@portal/domain/constants';
import { api } from '../../lib/api-client';
import { useGet } from '../../lib/get-query';

const T = { timeout: 30_000 };

export interface DebtorsFilter {
  session_id?: number;
  /** A term (what has fallen due up to it), `session`, or none: the current term. */
  term?: DebtorTerm;
  level?: string;
  student_class?: string;
  sort?: DebtorSort;
  order?: 'asc' | 'desc';
}
export interface CollectionsFilter {
  session_id?: number;
  term?: Term;
  from?: string;
  to?: string;
}

/** Under `['bursary']`, so a recorded or reversed payment (which invalidates it) refreshes the reports. */
export const feeReportKeys = {
  debtors: (q: DebtorsFilter & { page?: number }) => ['bursary', 'debtors', q] as const,
  collections: (q: CollectionsFilter) => ['bursary', 'collections', q] as const,
};

/** The previous page stays on screen while the next loads. */
const PAGE = { ...T, placeholderData: keepPreviousData };

export function useDebtors(q: DebtorsFilter & { page?: number }) {
  return useGet<DebtorsPage>(feeReportKeys.debtors(q), '/bursary/debtors/', q, PAGE);
}

/** Every debtor of the filter as a file (the same filters as the list, every page). */
export function downloadDebtors(kind: 'csv' | 'pdf', q: DebtorsFilter) {
  return api.get<Blob>(`/bursary/debtors.${kind}`, { query: { ...q }, timeout: 120_000, blob: true });
}

export function useCollections(q: CollectionsFilter) {
  return useGet<CollectionSummary>(feeReportKeys.collections(q), '/bursary/collections/', q, PAGE);
}

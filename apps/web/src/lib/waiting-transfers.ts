import { useQuery } from '@tanstack/react-query';
import type { TransferReportPage } from '@portal/domain/transfer-reports';
import { api } from './api-client';
import { useHasCapability } from './capabilities';

export const waitingTransfersKey = ['bursary', 'transfer-reports', 'waiting-count'] as const;

/**
 * How many reported transfers wait for the bursar (the menu entry's badge): the first page's total,
 * asked only of the bursar and the admin. Null while unknown, so no badge flickers to 0.
 */
export function useWaitingTransfers(): number | null {
  const { allowed } = useHasCapability('bursar');
  const query = useQuery({
    queryKey: waitingTransfersKey,
    queryFn: () => api.get<TransferReportPage>('/bursary/transfer-reports/', { query: { status: 'to_confirm' }, timeout: 10_000 }),
    enabled: allowed,
    staleTime: 30_000,
    retry: false,
  });
  return allowed && query.data ? query.data.total : null;
}

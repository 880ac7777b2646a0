import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TransferConfirmation,
  TransferReport,
  TransferReportInput,
  TransferReportPage,
  TransferReportStatus,
} from '@portal/domain/transfer-reports';
import { api } from '../../lib/api-client';
import { useGet } from '../../lib/get-query';
import { useKeyedMutation, useSubmissionKeys } from '../../lib/idempotency';
import { waitingTransfersKey } from '../../lib/waiting-transfers';
import { bursaryKeys } from './api';

const T = { timeout: 15_000 };

export interface TransferQueueQuery {
  status?: TransferReportStatus;
  page?: number;
}

/** Under `['bursary']`, so a recorded payment's invalidation reaches them too. */
export const transferKeys = {
  all: ['bursary', 'transfer-reports'] as const,
  mine: ['bursary', 'transfer-reports', 'mine'] as const,
  queue: (q: TransferQueueQuery) => ['bursary', 'transfer-reports', 'queue', q] as const,
};

/** A student's own reports; a parent's of `child` (nothing is asked until the child is known). */
export function useMyTransferReports(child: string | null = null, enabled = true) {
  return useQuery({
    queryKey: [...transferKeys.mine, child ?? ''],
    queryFn: ({ signal }) =>
      api.get<TransferReport[]>('/bursary/transfer-reports/mine/', { query: child ? { admission_number: child } : {}, ...T, signal }),
    enabled,
  });
}

export function useReportTransfer() {
  const qc = useQueryClient();
  return useKeyedMutation(
    (body: TransferReportInput, idempotencyKey) =>
      api.post<TransferReport>('/bursary/transfer-reports/', body, { timeout: 30_000, idempotencyKey }),
    () => qc.invalidateQueries({ queryKey: transferKeys.mine }),
  );
}

export function useTransferQueue(q: TransferQueueQuery) {
  return useGet<TransferReportPage>(transferKeys.queue(q), '/bursary/transfer-reports/', q, { placeholderData: keepPreviousData });
}

/** A decision changes the queue, the menu's count and (once confirmed) every money screen. */
function useInvalidateDecided() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: bursaryKeys.all }),
      qc.invalidateQueries({ queryKey: ['payments'] }),
      qc.invalidateQueries({ queryKey: waitingTransfersKey }),
    ]);
}

export function useConfirmTransfer() {
  const invalidate = useInvalidateDecided();
  const keys = useSubmissionKeys();
  return useMutation({
    mutationFn: (id: number) =>
      api.post<TransferConfirmation>(
        `/bursary/transfer-reports/${id}/confirm/`,
        {},
        { timeout: 30_000, idempotencyKey: keys.keyFor('confirm', id) },
      ),
    onSuccess: () => keys.reset(),
    onSettled: invalidate,
  });
}

export function useRejectTransfer() {
  const invalidate = useInvalidateDecided();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) =>
      api.post<TransferReport>(`/bursary/transfer-reports/${id}/reject/`, { reason }, T),
    onSettled: invalidate,
  });
}

export function fetchSlip(id: number) {
  return api.get<Blob>(`/bursary/transfer-reports/${id}/scan/`, { ...T, blob: true });
}

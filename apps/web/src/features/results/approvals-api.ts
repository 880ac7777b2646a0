import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ArmApproval, ReleaseResult } from '@portal/domain/report-cards';
import { api } from '../../lib/api-client';
import { resultKeys } from './api';

const T = { timeout: 10_000 };

export const approvalKeys = {
  all: ['report-approvals'] as const,
  of: (sessionId: string, term: string) => ['report-approvals', sessionId, term] as const,
};

/** The arms' approval rows of a term (staff: only the arms they are form teacher of; the server decides). */
export function useApprovals(sessionId: string, term: string) {
  return useQuery({
    queryKey: approvalKeys.of(sessionId, term),
    queryFn: () => api.get<ArmApproval[]>('/report-approvals/', { query: { session_id: sessionId, term }, ...T }),
    enabled: !!sessionId && !!term,
    retry: false,
    staleTime: 0,
  });
}

type Arm = { session_id: number; term: string; student_class: string };
export type ApprovalAction =
  | { action: 'submit' | 'approve'; body: Arm }
  | { action: 'return'; body: Arm & { reason: string } }
  | { action: 'release'; body: { session_id: number; term: string; student_classes?: string[] } };

/** One step of the approval. Releasing publishes: report cards and results views go stale too. */
export function useApprovalAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (a: ApprovalAction): Promise<ArmApproval | ReleaseResult> =>
      a.action === 'release'
        ? api.post<ReleaseResult>('/report-approvals/release/', a.body)
        : api.post<ArmApproval>(`/report-approvals/${a.action}/`, a.body),
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: approvalKeys.all }),
        qc.invalidateQueries({ queryKey: resultKeys.results }),
        qc.invalidateQueries({ queryKey: resultKeys.publications }),
      ]),
  });
}

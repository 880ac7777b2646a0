import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Payment } from '@portal/domain/payments';
import type {
  ParentConflict,
  ParentConflictResolve,
  ParentCreate,
  ParentDetail,
  ParentInvitationBody,
  ParentInvitationResult,
  ParentLinkBody,
  ParentSummary,
} from '@portal/domain/parents';
import { api } from '../../lib/api-client';
import { useGet } from '../../lib/get-query';
import { parentChildrenKey } from '../../lib/parent-child';

/** The parents screens' API (issue 33): the parent's own home, and the admin's parents, links, conflicts and invitations. */
const T = { timeout: 15_000 };

export const parentKeys = {
  all: ['parents'] as const,
  list: (q: ParentListQuery) => ['parents', 'list', q] as const,
  detail: (id: number) => ['parents', 'detail', id] as const,
  conflicts: ['parents', 'conflicts'] as const,
  history: (child: string) => ['payments', 'history', child] as const,
};

export interface ParentListQuery {
  search?: string;
  page?: number;
}
export interface ParentPage {
  count: number;
  /** The next page's number, null on the last. */
  next: number | null;
  results: ParentSummary[];
}

/** A child's payments (the parent's home shows the chosen child's receipts). Under `['payments']`, so a payment refreshes it. */
export function useChildPayments(child: string | null) {
  return useGet<Payment[]>(parentKeys.history(child ?? ''), '/payments/history/', child ? { admission_number: child } : null);
}

export const downloadCardPdf = (q: { admission_number: string; session_id: number; term: string }) =>
  api.get<Blob>('/report-card/pdf/', { query: q, blob: true, timeout: 30_000 });

// ---- Admin ----

export function useParents(q: ParentListQuery) {
  return useGet<ParentPage>(parentKeys.list(q), '/parents/', q, { placeholderData: keepPreviousData });
}

export function useParent(id: number) {
  return useQuery({
    queryKey: parentKeys.detail(id),
    queryFn: ({ signal }) => api.get<ParentDetail>(`/parents/${id}/`, { ...T, signal }),
    enabled: id > 0,
    retry: false,
  });
}

export function useConflicts() {
  return useQuery({
    queryKey: parentKeys.conflicts,
    queryFn: ({ signal }) => api.get<ParentConflict[] | { results: ParentConflict[] }>('/parents/conflicts/', { ...T, signal }),
    select: (d) => (Array.isArray(d) ? d : d.results),
    retry: false,
  });
}

/** Every parents change refreshes the admin's lists and a signed-in parent's children. */
function useInvalidateParents() {
  const qc = useQueryClient();
  return () => Promise.all([qc.invalidateQueries({ queryKey: parentKeys.all }), qc.invalidateQueries({ queryKey: parentChildrenKey })]);
}

export function useCreateParent() {
  const invalidate = useInvalidateParents();
  return useMutation({ mutationFn: (b: ParentCreate) => api.post<ParentDetail>('/parents/', b, T), onSuccess: invalidate });
}

export function useLinkChild(parentId: number) {
  const invalidate = useInvalidateParents();
  return useMutation({
    mutationFn: (b: ParentLinkBody) => api.post<ParentDetail>(`/parents/${parentId}/links/`, b, T),
    onSuccess: invalidate,
  });
}

export function useUnlinkChild(parentId: number) {
  const invalidate = useInvalidateParents();
  return useMutation({
    mutationFn: (admission: string) => api.delete<unknown>(`/parents/${parentId}/links/${encodeURIComponent(admission)}/`, T),
    onSuccess: invalidate,
  });
}

export function useResolveConflict() {
  const invalidate = useInvalidateParents();
  return useMutation({
    mutationFn: (b: ParentConflictResolve) => api.post<unknown>('/parents/conflicts/resolve/', b, T),
    onSuccess: invalidate,
  });
}

export function useInvite() {
  const invalidate = useInvalidateParents();
  return useMutation({
    mutationFn: (b: ParentInvitationBody) => api.post<ParentInvitationResult>('/parents/invitations/', b, { timeout: 60_000 }),
    onSuccess: invalidate,
  });
}

/** The slips PDF of an invitation: the same body. */
export const downloadSlipsPdf = (b: ParentInvitationBody) =>
  api.post<Blob>('/parents/invitations/pdf/', b, { timeout: 60_000, blob: true });

/** Links every student's father and mother from their forms (a school upgraded with students on file). */
export function useBackfill() {
  const invalidate = useInvalidateParents();
  return useMutation({
    mutationFn: () => api.post<{ students: number; parents: number; links: number; conflicts: number }>('/parents/backfill/', {}, { timeout: 120_000 }),
    onSuccess: invalidate,
  });
}

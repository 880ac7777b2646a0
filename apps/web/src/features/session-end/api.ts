import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StudentRecord } from '@portal/domain/people-constants';
import type { PromotionMoveRequest, PromotionPreview, PromotionRun, PromotionRunRequest } from '@portal/domain/promotion';
import type { TeachingStructure } from '@portal/domain/teaching';
import { api } from '../../lib/api-client';
import { useGet } from '../../lib/get-query';
import { schoolListKeys } from '../../lib/school-lists';

/**
 * The end-of-session screens' API (issue 34, CONTRACT §2): the promotion preview, runs (apply, poll,
 * list, undo), one student's move, and a graduate's transcript. Admin only.
 */
const T = { timeout: 30_000 };

export type {
  PromotionMappingEntry as ArmMapping,
  PromotionOutcome as Decision,
  PromotionPreview,
  PromotionPreviewStudent as PreviewStudent,
  PromotionRun,
} from '@portal/domain/promotion';

export interface PreviewQuery {
  from_session_id: number;
  to_session_id: number;
  arm?: string;
}
export type RunBody = PromotionRunRequest;
export type StudentChoice = NonNullable<RunBody['students']>[number];
export type MoveBody = PromotionMoveRequest;

export const promotionKeys = {
  all: ['promotion'] as const,
  preview: (q: PreviewQuery | null) => ['promotion', 'preview', q] as const,
  runs: ['promotion', 'runs'] as const,
  run: (id: number) => ['promotion', 'runs', id] as const,
  student: (adm: string) => ['promotion', 'student', adm] as const,
  streams: ['promotion', 'streams'] as const,
};

/** A session of a run as a label. */
export function sessionName(s: { name: string } | null | undefined): string {
  return s?.name ?? '';
}

export function usePreview(q: PreviewQuery | null) {
  return useGet<PromotionPreview>(promotionKeys.preview(q), '/promotion/preview/', q, { timeout: 60_000, refetchOnWindowFocus: false });
}

/** The runs, newest first (a list, or a page of one), asked again every second while one is running. */
export function useRuns() {
  return useQuery({
    queryKey: promotionKeys.runs,
    queryFn: ({ signal }) => api.get<PromotionRun[] | { results: PromotionRun[] }>('/promotion/runs/', { ...T, signal }),
    select: runList,
    retry: false,
    // A run still running is asked again until it is done (its Undo, or why not, appears then).
    refetchInterval: (q) => (q.state.data && runList(q.state.data).some((r) => r.status === 'running') ? 1000 : false),
  });
}

const runList = (d: PromotionRun[] | { results: PromotionRun[] }) => (Array.isArray(d) ? d : d.results);

/** One run, polled every second while it is running. */
export function useRun(id: number | null) {
  return useQuery({
    queryKey: promotionKeys.run(id ?? 0),
    queryFn: ({ signal }) => api.get<PromotionRun>(`/promotion/runs/${id}/`, { ...T, signal }),
    enabled: id !== null,
    retry: 2,
    refetchInterval: (q) => (q.state.data?.status === 'running' || !q.state.data ? 1000 : false),
  });
}

/** Everything a promotion touches: the runs, previews, and the class lists every screen reads. */
export function useInvalidateAfterPromotion() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: promotionKeys.all }),
      qc.invalidateQueries({ queryKey: ['students'] }),
      qc.invalidateQueries({ queryKey: schoolListKeys.all }),
    ]);
}

export function useStartRun() {
  const invalidate = useInvalidateAfterPromotion();
  return useMutation({
    mutationFn: (b: RunBody) => api.post<{ id: number }>('/promotion/runs/', b, { timeout: 120_000 }),
    onSuccess: invalidate,
  });
}

export function useUndoRun() {
  const invalidate = useInvalidateAfterPromotion();
  return useMutation({
    mutationFn: (id: number) => api.post<PromotionRun>(`/promotion/runs/${id}/undo/`, {}, { timeout: 120_000 }),
    onSuccess: invalidate,
  });
}

export function useMoveStudent() {
  const invalidate = useInvalidateAfterPromotion();
  return useMutation({ mutationFn: (b: MoveBody) => api.post<unknown>('/promotion/moves/', b, T), onSuccess: invalidate });
}

/** A student's record (name, class, status) for the move screen. */
export function useStudentRecord(adm: string) {
  return useQuery({
    queryKey: promotionKeys.student(adm),
    queryFn: ({ signal }) => api.get<StudentRecord>(`/students/${encodeURIComponent(adm)}/`, { ...T, signal }),
    enabled: adm !== '',
    retry: false,
  });
}

/** The school's streams (JSS 3 -> SSS 1 students choose one). */
export function useStreams() {
  return useQuery({
    queryKey: promotionKeys.streams,
    queryFn: ({ signal }) => api.get<TeachingStructure>('/teaching/structure/', { ...T, signal }),
    select: (d) => d.streams,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** A graduate's transcript: every session's released cards as one PDF. */
export const downloadTranscript = (adm: string) =>
  api.get<Blob>(`/students/${encodeURIComponent(adm)}/transcript/pdf/`, { blob: true, timeout: 120_000 });

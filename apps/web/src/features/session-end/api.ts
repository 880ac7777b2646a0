import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StudentRecord } from '@portal/domain/people-constants';
import type { TeachingStructure } from '@portal/domain/teaching';
import { api } from '../../lib/api-client';
import { useGet } from '../../lib/get-query';
import { schoolListKeys } from '../../lib/school-lists';

/**
 * The end-of-session screens' API (issue 34, CONTRACT §2): the promotion preview, runs (apply, poll,
 * list, undo), one student's move, and a graduate's transcript. Admin only.
 */
const T = { timeout: 30_000 };

export type Decision = 'promoted' | 'trial' | 'repeat' | 'graduated';
export type DecisionSource = 'rule' | 'override' | 'no_card';

export interface SessionRef {
  id: number;
  name: string;
}

export interface PreviewStudent {
  student_id: number;
  admission_number: string;
  full_name: string;
  arm: string;
  annual_average: number | null;
  decision: Decision;
  source: DecisionSource;
  target_arm: string | null;
  stream_id: number | null;
}

export interface ArmMapping {
  from_arm: string;
  /** null: the arm graduates. */
  to_arm: string | null;
}

export interface PromotionPreview {
  from_session: SessionRef;
  to_session: SessionRef;
  mapping: ArmMapping[];
  students: PreviewStudent[];
  counts: { target_arm: string | null; count: number }[];
  totals: { promoted: number; trial: number; repeat: number; graduated: number; left_out_withdrawn: number };
}

export interface PreviewQuery {
  from_session_id: number;
  to_session_id: number;
  arm?: string;
}

export interface StudentChoice {
  student_id: number;
  decision?: Decision;
  target_arm?: string | null;
  stream_id?: number | null;
}

export interface RunBody {
  from_session_id: number;
  to_session_id: number;
  arm?: string;
  mapping?: ArmMapping[];
  students?: StudentChoice[];
}

export type RunStatus = 'running' | 'done' | 'failed' | 'undone';

export interface PromotionRun {
  id: number;
  status: RunStatus;
  done: number;
  total: number;
  summary: { promoted: number; trial: number; repeat: number; graduated: number; left_out: number };
  from_session: SessionRef | string;
  to_session: SessionRef | string;
  arm?: string | null;
  created_at: string;
  undoable: boolean;
  undo_blocked_reason?: string | null;
}

export interface MoveBody {
  admission_number: string;
  to_arm: string;
  stream_id?: number | null;
  reason: string;
}

export const promotionKeys = {
  all: ['promotion'] as const,
  preview: (q: PreviewQuery | null) => ['promotion', 'preview', q] as const,
  runs: ['promotion', 'runs'] as const,
  run: (id: number) => ['promotion', 'runs', id] as const,
  student: (adm: string) => ['promotion', 'student', adm] as const,
  streams: ['promotion', 'streams'] as const,
};

/** A session of a run as a label (the server may send it as a name or as {id, name}). */
export function sessionName(s: SessionRef | string | null | undefined): string {
  if (!s) return '';
  return typeof s === 'string' ? s : s.name;
}

export function usePreview(q: PreviewQuery | null) {
  return useGet<PromotionPreview>(promotionKeys.preview(q), '/promotion/preview/', q, { timeout: 60_000, refetchOnWindowFocus: false });
}

/** The runs, newest first (a list, or a page of one). */
export function useRuns() {
  return useQuery({
    queryKey: promotionKeys.runs,
    queryFn: ({ signal }) => api.get<PromotionRun[] | { results: PromotionRun[] }>('/promotion/runs/', { ...T, signal }),
    select: (d) => (Array.isArray(d) ? d : d.results),
    retry: false,
  });
}

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
function useInvalidateAfterPromotion() {
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

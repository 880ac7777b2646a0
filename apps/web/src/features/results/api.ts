import { useCallback, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { NOT_RELEASED_CODE, RESULT_MESSAGES } from '@portal/domain/result-messages';
import type {
  AcademicSession,
  Broadsheet,
  GradingScalePreview,
  GradingScaleResponse,
  Publication,
  Result,
  ResultAuditEntry,
  ResultStudent,
} from '@portal/domain/results';
import type { GradeBandInput } from '@portal/domain/grading';
import type { ComponentScores } from '@portal/domain/assessment';
import type { StudentSubjectsAccess } from '@portal/domain/teaching';
import type { CardFeeRelease } from '@portal/domain/card-fee-gate';
import type { CardFeeReleaseInput } from '@portal/domain/card-fee-gate-schemas';
import { api, ApiError } from '../../lib/api-client';
import { errorCode, errorMessage } from '../../lib/errors';

const T = { timeout: 10_000 };

export { resultKeys, fetchResults, fetchTerms, type ResultQuery } from './queries';
import {
  resultKeys,
  fetchResults,
  termsQuery,
  gradingScalesQuery,
  myResultsQuery,
  reportCardQuery,
  type AuditQuery,
  type CardQuery,
  type ResultQuery,
  type TermQuery,
} from './queries';

export interface SubjectEntry {
  name: string;
  /** Left out when `components` are sent: the server computes the total. */
  score?: number;
  /** Component scores by label, on a scheme with several components. */
  components?: ComponentScores;
  remarks: string;
  version?: number;
}
export interface BulkSave {
  admission_number: string;
  session_id: number;
  term: string;
  student_class: string;
  subjects: SubjectEntry[];
  /** Required by the server when the class's results for the term are released. */
  reason?: string;
}
export const saveResults = (body: BulkSave) => api.post<Result[]>('/results/', body);
export const createResult = (body: Omit<BulkSave, 'subjects'> & SubjectEntry & { subject: string }) =>
  api.post<Result>('/results/', {
    admission_number: body.admission_number,
    session_id: body.session_id,
    term: body.term,
    student_class: body.student_class,
    subject: body.subject,
    score: body.score,
    components: body.components,
    remarks: body.remarks,
    version: body.version,
    reason: body.reason,
  });
export const patchResult = (id: number, body: Record<string, unknown>) => api.patch<Result>(`/results/${id}/`, body);
export const deleteResult = (id: number, version?: number, reason?: string) =>
  api.delete<void>(`/results/${id}/`, { query: { version, reason } });

export const fetchResultStudents = (q: ResultQuery) => api.get<ResultStudent[]>('/results/students/', { query: { ...q }, ...T });
export const downloadReportCardPdf = (q: { admission_number: string; session_id: string | number; term: string }) =>
  api.get<Blob>('/report-card/pdf/', { query: q, blob: true, timeout: 30_000 });
export const downloadClassPdf = (q: { session_id: string | number; term: string; student_class: string }) =>
  api.get<Blob>('/report-cards/pdf/', { query: q, blob: true, timeout: 60_000 });
export const fetchBroadsheet = (q: { session_id: string | number; term: string; student_class?: string }) =>
  api.get<Broadsheet>('/broadsheet/', { query: q, timeout: 30_000 });
export const downloadBroadsheetCsv = (q: { session_id: string | number; term: string; student_class?: string }) =>
  api.get<Blob>('/broadsheet/csv/', { query: q, blob: true, timeout: 30_000 });

export const fetchAudit = (q: AuditQuery) => api.get<ResultAuditEntry[]>('/results/audit/', { query: q, ...T });

/** The grading scales of a session (default: the current one). */
export function useGradingScales(sessionId?: string | number) {
  return useQuery(gradingScalesQuery(sessionId));
}
export const previewScale = (level: string, bands: GradeBandInput[]) =>
  api.post<GradingScalePreview>(`/grading-scales/${level}/preview/`, { bands });
export function useSaveScale() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ level, bands, confirm }: { level: string; bands: GradeBandInput[]; confirm?: boolean }) =>
      api.put<GradingScaleResponse & { regraded: number; message: string }>(`/grading-scales/${level}/`, { bands, confirm }),
    // A scale change regrades the current session's results: scales and every results view go stale.
    onSuccess: () =>
      Promise.all([qc.invalidateQueries({ queryKey: resultKeys.gradingScales }), qc.invalidateQueries({ queryKey: resultKeys.results })]),
  });
}

/** The scale's remark for a stored grade of a class's level, or ''. */
export function remarkOf(scales: GradingScaleResponse[] | undefined, arm: string, grade: string): string {
  const level = arm.startsWith('SSS') ? 'SSS' : 'JSS';
  return scales?.find((s) => s.level === level)?.bands.find((b) => b.grade === grade)?.remark ?? '';
}

export function usePublications(sessionId: string, term: string) {
  return useQuery({
    queryKey: resultKeys.publicationsOf(sessionId, term),
    queryFn: () => api.get<Publication[]>('/results/publications/', { query: { session_id: sessionId, term }, ...T }),
    enabled: !!sessionId && !!term,
  });
}

/** The "results fetch" messages, shared by DeleteResult and check-a-result. */
export function resultsFetchMessage(err: unknown): { tone: 'error' | 'info'; text: string } {
  if (err instanceof ApiError && err.status === 404)
    return {
      tone: 'info',
      text: errorCode(err) === NOT_RELEASED_CODE ? RESULT_MESSAGES.notReleased : RESULT_MESSAGES.noResultsForCriteria,
    };
  if (err instanceof ApiError && err.status === 403 && err.detail) return { tone: 'error', text: err.detail };
  const failed = RESULT_MESSAGES.fetchResultsFailed;
  return { tone: 'error', text: errorMessage(err, { fallback: failed, network: failed, unauthorized: RESULT_MESSAGES.pleaseLoginAgain }) };
}

/** The student an admission number names: the result screens show the name and take the class from it. */
export interface StudentSummary {
  admission_number: string;
  first_name: string;
  last_name: string;
  student_class: string;
}
export const fetchStudentSummary = (adm: string, signal?: AbortSignal) =>
  api.get<StudentSummary>(`/students/${encodeURIComponent(adm)}/`, { ...T, signal });

/**
 * The subjects a student takes in a term and which of them the signed-in user may write now
 * (assignments and the score-entry window decide; the server refuses the rest anyway).
 */
export function useStudentSubjects(admission: string | null, sessionId: string, term: string) {
  return useQuery({
    queryKey: resultKeys.studentSubjects(admission ?? '', sessionId, term),
    queryFn: ({ signal }) =>
      api.get<StudentSubjectsAccess>(`/teaching/students/${encodeURIComponent(admission!)}/subjects/`, {
        query: { session_id: sessionId || undefined, term: term || undefined },
        ...T,
        signal,
      }),
    enabled: admission !== null,
    retry: false,
    staleTime: 0,
    // Rows do not lock or unlock under the user's fingers while typing; a save still meets the server's check.
    refetchOnWindowFocus: false,
  });
}

/** A score as typed: '' (empty), a valid score, or invalid ("e", "1e3", "12,5", out of range). */
export function checkScore(raw: string, subject: string): { ok: true; value: number | null } | { ok: false; message: string } {
  const v = raw.trim();
  if (v === '') return { ok: true, value: null };
  if (!/^\d{1,3}(\.\d+)?$/.test(v)) return { ok: false, message: RESULT_MESSAGES.invalidScore(subject) };
  const n = Number(v);
  if (n > 100) return { ok: false, message: RESULT_MESSAGES.scoreMax };
  return { ok: true, value: n };
}

// ---- Queries of the results screens (keys from resultKeys) ----

/** The terms with results of a student (default: the signed-in student), with their release state. */
export function useTerms(enabled = true) {
  return useQuery({ ...termsQuery, enabled });
}

/** Every result the signed-in student may see. */
export function useMyResults() {
  return useQuery(myResultsQuery);
}

/** A student's (or a class's) results for a term, once `q` is set (a search was asked for). */
export function useResultList(q: ResultQuery | null) {
  return useQuery({
    queryKey: resultKeys.list(q ?? {}),
    queryFn: ({ signal }) => fetchResults(q!, signal),
    enabled: q !== null,
    retry: false,
    staleTime: 0,
  });
}

/** The students with results in a term (optionally one class). */
export function useResultStudents(q: ResultQuery | null) {
  return useQuery({
    queryKey: resultKeys.students(q ?? {}),
    queryFn: () => fetchResultStudents(q!),
    enabled: q !== null,
    retry: false,
    staleTime: 0,
  });
}

export function useBroadsheet(q: TermQuery | null) {
  return useQuery({
    queryKey: resultKeys.broadsheet(q!),
    queryFn: () => fetchBroadsheet(q!),
    enabled: q !== null,
    retry: false,
    staleTime: 0,
  });
}

export function useReportCard(q: CardQuery, enabled: boolean) {
  return useQuery({ ...reportCardQuery(q), enabled });
}

export function useAudit(q: AuditQuery | null) {
  return useQuery({ queryKey: resultKeys.audit(q ?? {}), queryFn: () => fetchAudit(q!), enabled: q !== null, retry: false, staleTime: 0 });
}

/** Whether a search asks for the same thing again (then it is refetched, not re-keyed). */
export const sameQuery = (a: object | null, b: object) => a !== null && JSON.stringify(a) === JSON.stringify(b);

/**
 * A search of one student's term results on submit (DeleteResult, check-a-result): the submitted
 * query, the list, and the one message under the form (the form's own, a failed fetch's, or none found).
 */
export function useResultSearch() {
  const [q, setQ] = useState<ResultQuery | null>(null);
  const [formError, setFormError] = useState('');
  const list = useResultList(q);
  const results = list.isError ? null : (list.data ?? null);
  const message: { tone: 'error' | 'info'; text: string } | null = formError
    ? { tone: 'error', text: formError }
    : list.isError
      ? resultsFetchMessage(list.error)
      : results && !results.length
        ? { tone: 'info', text: RESULT_MESSAGES.noResultsForCriteria }
        : null;
  const { refetch } = list;
  const search = useCallback(
    (next: ResultQuery) => {
      setFormError('');
      if (sameQuery(q, next)) void refetch();
      else setQ(next);
    },
    [q, refetch],
  );
  return { list, results, message, search, fail: setFormError };
}

/** A one-off lookup through the cache (the entry screens' debounced loads): always asks the server. */
export function useLookupResults() {
  const qc = useQueryClient();
  return useCallback(
    (q: ResultQuery) => qc.fetchQuery({ queryKey: resultKeys.list(q), queryFn: ({ signal }) => fetchResults(q, signal), staleTime: 0 }),
    [qc],
  );
}

// ---- Mutations: each invalidates what it changes ----

/** Marks every results view stale (lists, terms, broadsheets, report cards, history). */
export function useInvalidateResults() {
  const qc = useQueryClient();
  return useCallback(() => qc.invalidateQueries({ queryKey: resultKeys.results }), [qc]);
}

export function useSaveResults() {
  const invalidate = useInvalidateResults();
  return useMutation({ mutationFn: saveResults, onSettled: invalidate });
}

export function useDeleteResult() {
  const invalidate = useInvalidateResults();
  return useMutation({
    mutationFn: ({ id, version, reason }: { id: number; version?: number; reason?: string }) => deleteResult(id, version, reason),
    onSettled: invalidate,
  });
}

/** Publish a class's term results to its students, or withdraw them. */
export function useTogglePublication() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (p: { existing?: Publication; session_id: string; term: string; student_class: string }) =>
      p.existing
        ? api.delete(`/results/publications/${p.existing.id}/`)
        : api.post('/results/publications/', { session_id: Number(p.session_id), term: p.term, student_class: p.student_class }),
    onSuccess: () =>
      Promise.all([qc.invalidateQueries({ queryKey: resultKeys.publications }), qc.invalidateQueries({ queryKey: resultKeys.results })]),
  });
}

export function useCreateSession() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post<AcademicSession>('/sessions/', { name }),
    onSuccess: () => qc.invalidateQueries({ queryKey: resultKeys.sessions }),
  });
}

export function useUpdateSession() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: { name?: string; is_current?: boolean } }) =>
      api.patch<AcademicSession>(`/sessions/${id}/`, body),
    // The current session is every screen's default, and names appear on every results view.
    onSuccess: () =>
      Promise.all([qc.invalidateQueries({ queryKey: resultKeys.sessions }), qc.invalidateQueries({ queryKey: resultKeys.results })]),
  });
}

export type ResultWrite =
  | { op: 'patch'; id: number; body: Record<string, unknown> }
  | { op: 'create'; body: Parameters<typeof createResult>[0] }
  | { op: 'delete'; id: number; version?: number; reason?: string };

/** Several writes at once, one request per subject in parallel: every outcome is returned. */
export function useWriteResults() {
  const invalidate = useInvalidateResults();
  return useMutation({
    mutationFn: (writes: ResultWrite[]) =>
      Promise.allSettled(
        writes.map((w) =>
          w.op === 'patch' ? patchResult(w.id, w.body) : w.op === 'create' ? createResult(w.body) : deleteResult(w.id, w.version, w.reason),
        ),
      ),
    onSettled: invalidate,
  });
}

// ---------- cards opened regardless of fees (the fee gate, decision 042) ----------

const feeReleaseKeys = {
  all: ['card-fee-releases'] as const,
  of: (sessionId: string, term: string) => ['card-fee-releases', sessionId, term] as const,
};

/** The cards opened regardless of fees in a session's term (the admin's and the bursar's list). */
export function useCardFeeReleases(sessionId: string, term: string, enabled = true) {
  return useQuery({
    queryKey: feeReleaseKeys.of(sessionId, term),
    queryFn: () =>
      api.get<CardFeeRelease[]>('/report-card/fee-releases/', { query: { session_id: sessionId, term: term || undefined }, ...T }),
    enabled: enabled && !!sessionId,
  });
}

/** Opens a student's term card regardless of fees, with a reason. */
export function useReleaseCardFees() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CardFeeReleaseInput) => api.post<CardFeeRelease>('/report-card/fee-releases/', body, T),
    onSettled: () => qc.invalidateQueries({ queryKey: feeReleaseKeys.all }),
  });
}

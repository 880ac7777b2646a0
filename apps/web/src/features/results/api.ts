import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RESULT_MESSAGES } from '@portal/domain/results';
import type {
  AcademicSession,
  Broadsheet,
  GradingScalePreview,
  GradingScaleResponse,
  Publication,
  ReportCard,
  Result,
  ResultAuditEntry,
  ResultStudent,
  ResultTermStatus,
} from '@portal/domain/results';
import type { GradeBandInput } from '@portal/domain/grading';
import { api, ApiError } from '../../lib/api-client';

const T = { timeout: 10_000 };
export const sessionsKey = ['sessions'] as const;

/** Academic sessions, newest first; the current one is the default on every screen. */
export function useSessions() {
  return useQuery({ queryKey: sessionsKey, queryFn: () => api.get<AcademicSession[]>('/sessions/', T), staleTime: 60_000 });
}

export function currentSessionId(sessions: AcademicSession[] | undefined): string {
  const s = sessions?.find((x) => x.is_current) ?? sessions?.[0];
  return s ? String(s.id) : '';
}

export interface ResultQuery {
  session_id?: string | number;
  term?: string;
  admission_number?: string;
  student_class?: string;
}

export const fetchResults = (q: ResultQuery, signal?: AbortSignal) => api.get<Result[]>('/results/', { query: { ...q }, ...T, signal });
export const fetchResultStudents = (q: ResultQuery) => api.get<ResultStudent[]>('/results/students/', { query: { ...q }, ...T });
export const fetchTerms = (admission?: string) =>
  api.get<ResultTermStatus[]>('/results/terms/', { query: { admission_number: admission }, ...T });

export interface SubjectEntry {
  name: string;
  score: number;
  remarks: string;
  version?: number;
}
export interface BulkSave {
  admission_number: string;
  session_id: number;
  term: string;
  student_class: string;
  subjects: SubjectEntry[];
  /** Required by the server when the class's results for the term are released (issue 11 item 4). */
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
    remarks: body.remarks,
    version: body.version,
    reason: body.reason,
  });
export const patchResult = (id: number, body: Record<string, unknown>) => api.patch<Result>(`/results/${id}/`, body);
export const deleteResult = (id: number, version?: number, reason?: string) =>
  api.delete<void>(`/results/${id}/`, { query: { version, reason } });

export const fetchReportCard = (q: { admission_number: string; session_id: string | number; term: string }) =>
  api.get<ReportCard>('/report-card/', { query: q, ...T });
export const downloadReportCardPdf = (q: { admission_number: string; session_id: string | number; term: string }) =>
  api.get<Blob>('/report-card/pdf/', { query: q, blob: true, timeout: 30_000 });
export const downloadClassPdf = (q: { session_id: string | number; term: string; student_class: string }) =>
  api.get<Blob>('/report-cards/pdf/', { query: q, blob: true, timeout: 60_000 });
export const fetchBroadsheet = (q: { session_id: string | number; term: string; student_class?: string }) =>
  api.get<Broadsheet>('/broadsheet/', { query: q, timeout: 30_000 });
export const downloadBroadsheetCsv = (q: { session_id: string | number; term: string; student_class?: string }) =>
  api.get<Blob>('/broadsheet/csv/', { query: q, blob: true, timeout: 30_000 });

export const fetchAudit = (q: { admission_number?: string; student_class?: string; session_id?: string; term?: string }) =>
  api.get<ResultAuditEntry[]>('/results/audit/', { query: q, ...T });

/** The grading scales of a session (default: the current one). */
export function useGradingScales(sessionId?: string | number) {
  return useQuery({
    queryKey: ['grading-scales', sessionId === undefined || sessionId === '' ? 'current' : String(sessionId)],
    queryFn: () =>
      api.get<GradingScaleResponse[]>('/grading-scales/', { query: { session_id: sessionId === '' ? undefined : sessionId }, ...T }),
    staleTime: 60_000,
  });
}
export const previewScale = (level: string, bands: GradeBandInput[]) =>
  api.post<GradingScalePreview>(`/grading-scales/${level}/preview/`, { bands });
export function useSaveScale() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ level, bands, confirm }: { level: string; bands: GradeBandInput[]; confirm?: boolean }) =>
      api.put<GradingScaleResponse & { regraded: number; message: string }>(`/grading-scales/${level}/`, { bands, confirm }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['grading-scales'] }),
  });
}

/** The scale's remark for a stored grade of a class's level (issue 11 item 19), or ''. */
export function remarkOf(scales: GradingScaleResponse[] | undefined, studentClass: string, grade: string): string {
  const level = studentClass.startsWith('SSS') ? 'SSS' : 'JSS';
  return scales?.find((s) => s.level === level)?.bands.find((b) => b.grade === grade)?.remark ?? '';
}

export function usePublications(sessionId: string, term: string) {
  return useQuery({
    queryKey: ['publications', sessionId, term],
    queryFn: () => api.get<Publication[]>('/results/publications/', { query: { session_id: sessionId, term }, ...T }),
    enabled: !!sessionId && !!term,
  });
}

/** The message a 400/409 carries for a toast: first non_field_errors, else the detail. */
export function serverMessage(err: unknown): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  return err.nonFieldError ?? (err.status === 409 || err.status === 403 ? err.detail : undefined);
}

/** The spec's "results fetch" messages (§8), shared by DeleteResult and check-a-result. */
export function resultsFetchMessage(err: unknown): { tone: 'error' | 'info'; text: string } {
  if (err instanceof ApiError && err.status === 401) return { tone: 'error', text: RESULT_MESSAGES.pleaseLoginAgain };
  if (err instanceof ApiError && err.status === 404) {
    const data = err.data as { code?: string } | null;
    return {
      tone: 'info',
      text: data?.code === 'results_not_released' ? RESULT_MESSAGES.notReleased : RESULT_MESSAGES.noResultsForCriteria,
    };
  }
  if (err instanceof ApiError && err.status === 403 && err.detail) return { tone: 'error', text: err.detail };
  return { tone: 'error', text: RESULT_MESSAGES.fetchResultsFailed };
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

/** Field errors of a 400 from a results save, or {} (the `reason` field asks for a reason). */
export function fieldErrorsOf(err: unknown): Record<string, string[]> {
  return err instanceof ApiError && err.status === 400 ? err.fieldErrors : {};
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

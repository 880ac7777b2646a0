import { queryOptions } from '@tanstack/react-query';
import type { GradingScaleResponse, Result, ResultTermStatus } from '@portal/domain/results';
import type { ReportCard } from '@portal/domain/report-cards';
import { api } from '../../lib/api-client';
import type { Session } from '../../lib/auth-store';
import { keptOffline } from '../../lib/offline-query';
import type { Ask } from '../../lib/prefetch';
import { sessionsKey, sessionsQuery } from '../../lib/school-calendar';

/**
 * The results screens' query keys and the queries their pages open with, without the domain's
 * schemas (no zod): the route table imports this module so a page's data can be asked for while the
 * page's own chunk downloads (lib/prefetch.ts). api.ts builds the hooks on the same definitions.
 */

const T = { timeout: 10_000 };

type Id = string | number;
export type TermQuery = { session_id: Id; term: string; student_class?: string };
export type CardQuery = { admission_number: string; session_id: Id; term: string };
export type AuditQuery = { admission_number?: string; student_class?: string; session_id?: string; term?: string };

/**
 * Every query key of the results screens, from one factory: a change invalidates the family it
 * touches (`resultKeys.results` covers lists, a student's terms, broadsheets, report cards, history).
 */
export const resultKeys = {
  sessions: sessionsKey,
  gradingScales: ['grading-scales'] as const,
  gradingScale: (sessionId: string) => ['grading-scales', sessionId] as const,
  publications: ['publications'] as const,
  publicationsOf: (sessionId: string, term: string) => ['publications', sessionId, term] as const,
  results: ['results'] as const,
  list: (q: ResultQuery) => ['results', 'list', q] as const,
  students: (q: ResultQuery) => ['results', 'students', q] as const,
  terms: (admission?: string) => ['results', 'terms', admission ?? 'mine'] as const,
  mine: ['results', 'mine'] as const,
  broadsheet: (q: TermQuery) => ['results', 'broadsheet', q] as const,
  reportCard: (q: CardQuery) => ['results', 'report-card', q] as const,
  audit: (q: AuditQuery) => ['results', 'audit', q] as const,
  studentSubjects: (admission: string, sessionId: string, term: string) => ['student-subjects', admission, sessionId, term] as const,
};

/** The grading scales of a session (default: the current one). */
export const gradingScalesQuery = (sessionId?: string | number) =>
  queryOptions({
    queryKey: resultKeys.gradingScale(sessionId === undefined || sessionId === '' ? 'current' : String(sessionId)),
    queryFn: () =>
      api.get<GradingScaleResponse[]>('/grading-scales/', { query: { session_id: sessionId === '' ? undefined : sessionId }, ...T }),
    staleTime: 60_000,
  });

export interface ResultQuery {
  session_id?: string | number;
  term?: string;
  admission_number?: string;
  student_class?: string;
}

export const fetchResults = (q: ResultQuery, signal?: AbortSignal) => api.get<Result[]>('/results/', { query: { ...q }, ...T, signal });
export const fetchTerms = (admission?: string) =>
  api.get<ResultTermStatus[]>('/results/terms/', { query: { admission_number: admission }, ...T });

export const fetchReportCard = (q: CardQuery) => api.get<ReportCard>('/report-card/', { query: q, ...T });

/** The signed-in student's terms (released or not), newest first. */
export const termsQuery = queryOptions({ queryKey: resultKeys.terms(), queryFn: () => fetchTerms() });

/** Every result the signed-in student may see. */
export const myResultsQuery = queryOptions({ queryKey: resultKeys.mine, queryFn: () => fetchResults({}) });

/**
 * One report card. Not retried on mount: the page's route asks for it on every visit (a refusal,
 * e.g. not released yet, is asked again then), so a remount would only repeat the same question.
 */
export const reportCardQuery = (q: CardQuery) =>
  queryOptions({
    queryKey: resultKeys.reportCard(q),
    // Kept on this phone: a card opened before reads offline as a saved copy (issue 35.5).
    ...keptOffline('report-card', resultKeys.reportCard(q), () => fetchReportCard(q)),
    retry: false,
    retryOnMount: false,
  });

/**
 * The card /report-card shows for its address: a student's own (their admission number, whatever the
 * address says), a parent's child's from `child`, anyone else's from `admission_number`. Fields not in
 * the address are ''.
 */
export function cardAddress(
  params: URLSearchParams,
  session: Session | null,
): { admission_number: string; session_id: string; term: string } {
  // A parent names the child (`?child=`, lib/parent-child.ts); the server checks it is theirs.
  const named = session?.role === 'parent' ? (params.get('child') ?? params.get('admission_number')) : params.get('admission_number');
  return {
    admission_number: (session?.role === 'student' ? session.publicId : (named ?? '')).toUpperCase(),
    session_id: params.get('session_id') ?? '',
    term: params.get('term') ?? '',
  };
}

/** Whether the address names a whole card (student, session and term), so it can be asked for. */
export const cardIsAsked = (q: CardQuery) => !!q.admission_number && !!q.session_id && !!q.term;

/** What /report-card shows from the API: its route's loader asks for it early, the server's page renderer before it renders. */
export function reportCardNeeds(ask: Ask, session: Session, params: URLSearchParams): void {
  ask(sessionsQuery);
  const q = cardAddress(params, session);
  if (cardIsAsked(q)) ask(reportCardQuery(q));
}

import { useCallback } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Term } from '@portal/domain/constants';
import type { CommentKind } from '@portal/domain/report-card-rules';
import type { CommentSheet, CommentSheetSaved, RatingSheet, RatingSheetSaved } from '@portal/domain/report-cards';
import type {
  CommentSheetSave,
  RatingSheetSave,
  ReportSettings,
  ReportSettingsInput,
  ReportTerm,
  ReportTermInput,
} from '@portal/domain/report-card-schemas';
import { api } from '../../lib/api-client';
import { keptOffline } from '../../lib/offline-query';
import { COMMENTS_KIND, RATINGS_KIND } from './sheet-kinds';

const T = { timeout: 15_000 };

/** The arm, session and term a sheet is for (the API's query). */
export interface SheetQuery {
  session_id: number;
  term: Term;
  student_class: string;
}

/**
 * Query keys of the report-sheet screens. Under `['results']` where a sheet's content feeds the
 * report card, so a saved rating or comment makes the card views stale too.
 */
export const reportSheetKeys = {
  settings: ['report-settings'] as const,
  terms: (sessionId: number) => ['report-terms', sessionId] as const,
  ratings: (q: SheetQuery) => ['results', 'class-ratings', q] as const,
  comments: (q: SheetQuery) => ['results', 'class-comments', q] as const,
  commentsAll: ['results', 'class-comments'] as const,
};

/** The report card settings with the entity tag they came with: a save sends it back (decision 059). */
export interface TaggedReportSettings {
  settings: ReportSettings;
  tag: string | undefined;
}

async function tagged(call: (onHeaders: (h: Headers) => void) => Promise<ReportSettings>): Promise<TaggedReportSettings> {
  let tag: string | undefined;
  const settings = await call((h) => (tag = h.get('etag') ?? undefined));
  return { settings, tag };
}

export function useReportSettings() {
  return useQuery({
    queryKey: reportSheetKeys.settings,
    queryFn: () => tagged((onHeaders) => api.get<ReportSettings>('/report-settings/', { ...T, onHeaders })),
  });
}

/** Saves the settings over the ones of `tag` (what the form was opened with): a 409 when they changed since. */
export function useSaveReportSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body, tag }: { body: ReportSettingsInput; tag: string | undefined }) =>
      tagged((onHeaders) => api.put<ReportSettings>('/report-settings/', body, { ...T, ifMatch: tag, onHeaders })),
    onSuccess: (data) => {
      qc.setQueryData(reportSheetKeys.settings, data);
      // Trait lists, labels and the bank show on every sheet and card.
      return qc.invalidateQueries({ queryKey: ['results'] });
    },
  });
}

export function useReportTerms(sessionId: number | null) {
  return useQuery({
    queryKey: reportSheetKeys.terms(sessionId ?? 0),
    queryFn: () => api.get<ReportTerm[]>('/report-terms/', { query: { session_id: sessionId }, ...T }),
    enabled: sessionId !== null && sessionId > 0,
  });
}

export function useSaveReportTerm() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ReportTermInput) => api.put<ReportTerm>('/report-terms/', body, T),
    onSuccess: (_d, body) =>
      Promise.all([
        qc.invalidateQueries({ queryKey: reportSheetKeys.terms(body.session_id) }),
        qc.invalidateQueries({ queryKey: reportSheetKeys.commentsAll }),
      ]),
  });
}

/** Sheets are not refetched on focus or reconnect: rows do not change under the typing fingers. */
const SHEET = { refetchOnWindowFocus: false, refetchOnReconnect: false } as const;

/**
 * A report sheet kept on this phone (lib/offline-query.ts, decision 044): offline it opens from the
 * copy of the last time it was read. Not retried: a refusal shows at once.
 */
function keptSheetQuery<S>(kind: string, queryKey: readonly unknown[], path: string, q: SheetQuery) {
  return queryOptions({
    queryKey,
    ...keptOffline(kind, queryKey, (signal) => api.get<S>(path, { query: { ...q }, ...T, signal })),
    retry: false,
    staleTime: 0,
  });
}

export const ratingSheetQuery = (q: SheetQuery) =>
  keptSheetQuery<RatingSheet>(RATINGS_KIND, reportSheetKeys.ratings(q), '/class-ratings/', q);
export const commentSheetQuery = (q: SheetQuery) =>
  keptSheetQuery<CommentSheet>(COMMENTS_KIND, reportSheetKeys.comments(q), '/class-comments/', q);

export function useRatingSheet(q: SheetQuery | null) {
  return useQuery({ ...ratingSheetQuery(q ?? ({} as SheetQuery)), enabled: q !== null, ...SHEET });
}

export function useCommentSheet(q: SheetQuery | null) {
  return useQuery({ ...commentSheetQuery(q ?? ({} as SheetQuery)), enabled: q !== null, ...SHEET });
}

/**
 * Saves of one row (autosave). Plain callbacks rather than mutation observers: forty autosaves
 * re-render nothing by themselves, and the open sheet keeps its rows from the answers.
 */
export function useSaveRatingRows() {
  return useCallback((body: RatingSheetSave) => api.put<RatingSheetSaved>('/class-ratings/', body, T), []);
}

export function useSaveCommentRows() {
  return useCallback((body: CommentSheetSave) => api.put<CommentSheetSaved>('/class-comments/', body, T), []);
}

/** The bank's suggestion for every student of the arm; the sheet reloads with them. */
export function useApplySuggestions() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SheetQuery & { kind: CommentKind; overwrite: boolean }) =>
      api.post<{ applied: number }>('/class-comments/suggestions/', body, T),
    onSuccess: () => qc.invalidateQueries({ queryKey: reportSheetKeys.commentsAll }),
  });
}

/** Reloads the open sheets (after a conflict). */
export function useReloadSheets() {
  const qc = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: ['results', 'class-ratings'] }),
        qc.invalidateQueries({ queryKey: reportSheetKeys.commentsAll }),
      ]),
    [qc],
  );
}

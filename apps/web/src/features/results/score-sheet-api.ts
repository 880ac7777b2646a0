import { useCallback } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ScoreImportPreview, ScoreSheet, ScoreSheetQuery, ScoreSheetSave, ScoreSheetSaveResult } from '@portal/domain/assessment';
import { api } from '../../lib/api-client';
import { refetchUnlessJustAsked } from '../../lib/prefetch';
import { resultKeys } from './queries';

const T = { timeout: 10_000 };

/** Under `resultKeys.results`: a saved result anywhere (other screens too) makes the grid stale. */
export const scoreSheetKeys = {
  all: [...resultKeys.results, 'score-sheet'] as const,
  sheet: (q: ScoreSheetQuery) => [...resultKeys.results, 'score-sheet', q] as const,
};

export const fetchScoreSheet = (q: ScoreSheetQuery, signal?: AbortSignal) =>
  api.get<ScoreSheet>('/score-sheet/', { query: { ...q }, ...T, signal });

const TERM_VALUES = ['1st', '2nd', '3rd'];

/** The sheet the address names, once session, term, class and subject are all there. */
export function sheetQueryOf(params: URLSearchParams): ScoreSheetQuery | null {
  const sessionId = Number(params.get('session_id'));
  const term = params.get('term') ?? '';
  const cls = params.get('class') ?? '';
  const subject = params.get('subject') ?? '';
  return sessionId > 0 && TERM_VALUES.includes(term) && cls && subject
    ? { session_id: sessionId, term: term as ScoreSheetQuery['term'], student_class: cls, subject }
    : null;
}

/**
 * One arm–subject–term's sheet. Always asked afresh when the grid opens (staleTime 0; once, when the
 * route's loader asked); not refetched on focus or reconnect: rows do not change under the typing fingers.
 * Offline (or with no network) the copy kept on this phone answers (score-offline.ts): the query
 * runs offline too (`networkMode: 'always'`).
 */
export const scoreSheetQuery = (q: ScoreSheetQuery) =>
  queryOptions({
    queryKey: scoreSheetKeys.sheet(q),
    // The offline part (IndexedDB) loads with the sheet, not with the app's first script.
    queryFn: async ({ signal }) => (await import('./score-offline')).loadScoreSheet(q, () => fetchScoreSheet(q, signal)),
    networkMode: 'always',
    retry: false,
    retryOnMount: false,
    staleTime: 0,
    refetchOnMount: refetchUnlessJustAsked,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

/** One arm–subject–term's sheet once `q` is set. */
export function useScoreSheet(q: ScoreSheetQuery | null) {
  return useQuery({ ...scoreSheetQuery(q ?? ({} as ScoreSheetQuery)), enabled: q !== null });
}

/**
 * Saves grid rows (autosave sends one). Every results view but the open grid goes stale: the grid
 * keeps its own rows from the answer, and a refetch would race the next keystrokes. A plain
 * callback rather than a mutation observer: forty autosaves re-render nothing by themselves.
 */
export function useSaveScoreRows() {
  const qc = useQueryClient();
  return useCallback(
    async (body: ScoreSheetSave) => {
      const out = await api.put<ScoreSheetSaveResult>('/score-sheet/', body, { timeout: 15_000 });
      void qc.invalidateQueries({ queryKey: resultKeys.results, predicate: (q) => q.queryKey[1] !== 'score-sheet' });
      return out;
    },
    [qc],
  );
}

export const downloadScoreTemplate = (q: ScoreSheetQuery) =>
  api.get<Blob>('/score-sheet/csv/', { query: { ...q }, blob: true, timeout: 30_000 });

export type ScoreImportBody = ScoreSheetQuery & { session_id: number; csv: string; dry_run: boolean; reason?: string };

export const postScoreImport = (body: ScoreImportBody) => api.post<ScoreImportPreview>('/score-sheet/import/', body, { timeout: 60_000 });

/** The preview of a filled template: nothing is saved. */
export function usePreviewScoreImport() {
  return useMutation({ mutationFn: (body: Omit<ScoreImportBody, 'dry_run'>) => postScoreImport({ ...body, dry_run: true }) });
}

/** Applies a filled template in one transaction; the grid and every results view reload. */
export function useApplyScoreImport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<ScoreImportBody, 'dry_run'>) => postScoreImport({ ...body, dry_run: false }),
    onSuccess: () => qc.invalidateQueries({ queryKey: resultKeys.results }),
  });
}

/** Reloads the open sheet (after a conflict is settled elsewhere or an import). */
export function useReloadScoreSheet() {
  const qc = useQueryClient();
  return useCallback(() => qc.invalidateQueries({ queryKey: scoreSheetKeys.all }), [qc]);
}

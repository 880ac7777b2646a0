import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AssessmentScheme, AssessmentSchemeInput, AssessmentSchemePreview } from '@portal/domain/assessment';
import { levelOfClass, type Level } from '@portal/domain/constants';
import { api } from '../../lib/api-client';
import { resultKeys } from './api';

const T = { timeout: 10_000 };

/** Query keys of the assessment schemes: a saved scheme invalidates the family. */
export const assessmentKeys = {
  schemes: ['assessment-schemes'] as const,
  ofSession: (sessionId: string) => ['assessment-schemes', sessionId || 'current'] as const,
};

/** Both levels' schemes of a session (the current one when `sessionId` is ''). */
export function useAssessmentSchemes(sessionId: string, enabled = true) {
  return useQuery({
    queryKey: assessmentKeys.ofSession(sessionId),
    queryFn: ({ signal }) =>
      api.get<AssessmentScheme[]>('/assessment-schemes/', { query: { session_id: sessionId || undefined }, ...T, signal }),
    enabled,
    staleTime: 30_000,
  });
}

/**
 * The scheme a class's scores are entered with in a session, when it has several components; null
 * on a one-score scheme (the screens then behave exactly as before components) or when it cannot be
 * loaded (the server still names the components if it needs them); undefined while loading.
 */
export function useComponentScheme(sessionId: string, arm: string): AssessmentScheme | null | undefined {
  // Fetched as soon as the session is known: the class only picks the level.
  const schemes = useAssessmentSchemes(sessionId, !!sessionId);
  if (!sessionId || !arm || schemes.isError) return null;
  if (!schemes.data) return undefined;
  const scheme = schemes.data.find((s) => s.level === levelOfClass(arm));
  return scheme && scheme.components.length > 1 ? scheme : null;
}

export const previewScheme = (level: Level, input: AssessmentSchemeInput) =>
  api.post<AssessmentSchemePreview>(`/assessment-schemes/${level}/preview/`, input, T);

export function useSaveScheme() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ level, input }: { level: Level; input: AssessmentSchemeInput }) =>
      api.put<AssessmentScheme & { message: string }>(`/assessment-schemes/${level}/`, input, T),
    // Entry screens, report cards and broadsheets show the scheme's components.
    onSuccess: () =>
      Promise.all([qc.invalidateQueries({ queryKey: assessmentKeys.schemes }), qc.invalidateQueries({ queryKey: resultKeys.results })]),
  });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SetupChecklist } from '@portal/domain/first-run';
import type { MyClasses } from '@portal/domain/teaching';
import { api } from '../../lib/api-client';

const T = { timeout: 15_000 };

export const homeKeys = {
  setup: ['setup-checklist'] as const,
  // The key the teaching screens use for the current session's classes: one cache between them.
  myClasses: ['teaching', 'my-classes', ''] as const,
};

/** The admin's first-run checklist: which set-up steps the school's data shows done. */
export function useSetupChecklist() {
  return useQuery({ queryKey: homeKeys.setup, queryFn: () => api.get<SetupChecklist>('/setup-checklist/', T) });
}

export function useDismissSetup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<SetupChecklist>('/setup-checklist/dismiss/', {}),
    onSuccess: (list) => qc.setQueryData(homeKeys.setup, list),
  });
}

/** The signed-in teacher's classes this session (the first thing on their home). */
export function useMyClassesNow() {
  return useQuery({ queryKey: homeKeys.myClasses, queryFn: () => api.get<MyClasses>('/teaching/my-classes/', T) });
}

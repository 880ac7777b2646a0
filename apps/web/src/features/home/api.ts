import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SetupChecklist } from '@portal/domain/first-run';
import { api } from '../../lib/api-client';

const T = { timeout: 15_000 };

export const homeKeys = {
  setup: ['setup-checklist'] as const,
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

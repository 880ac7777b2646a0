import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SchoolSettings } from '@portal/domain/settings-constants';
import { api } from '../../lib/api-client';

export const settingsKey = ['settings'] as const;

/** School name, motto, address, logo and facts: public, cached for the session. */
export function useSchoolSettings() {
  return useQuery({
    queryKey: settingsKey,
    queryFn: () => api.get<SchoolSettings>('/settings/', { anonymous: true, timeout: 10_000 }),
    staleTime: 5 * 60_000,
  });
}

export function useSaveSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (s: SchoolSettings) => api.put<SchoolSettings>('/settings/', s),
    onSuccess: (s) => qc.setQueryData(settingsKey, s),
  });
}

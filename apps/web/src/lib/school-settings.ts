import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SchoolSettings } from '@portal/domain/settings-constants';
import { api } from './api-client';
import { setSchoolTimeZone } from './datetime';

/** App-wide: the header, the public home page and the settings screen all read the school settings. */
export const settingsKey = ['settings'] as const;

/** School name, motto, address, logo and facts: public, cached for the session. */
export const settingsQuery = queryOptions({
  queryKey: settingsKey,
  queryFn: async () => {
    const s = await api.get<SchoolSettings>('/settings/', { anonymous: true, timeout: 10_000 });
    setSchoolTimeZone(s.time_zone);
    return s;
  },
  staleTime: 5 * 60_000,
});
export function useSchoolSettings() {
  return useQuery(settingsQuery);
}

export function useSaveSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (s: SchoolSettings) => api.put<SchoolSettings>('/settings/', s),
    onSuccess: (s) => {
      setSchoolTimeZone(s.time_zone);
      qc.setQueryData(settingsKey, s);
    },
  });
}

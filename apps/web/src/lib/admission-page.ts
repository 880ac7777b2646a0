import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdmissionPage } from '@portal/domain/admission-constants';
import { api } from './api-client';

/** The public admission page's text: read by /admission, written by the admin's settings screen. */
export const admissionPageQuery = queryOptions({
  queryKey: ['admission-page'] as const,
  queryFn: () => api.get<AdmissionPage>('/admission/', { anonymous: true, timeout: 10_000 }),
  staleTime: 5 * 60_000,
});

export function useAdmissionPage() {
  return useQuery(admissionPageQuery);
}

export function useSaveAdmissionPage() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (page: AdmissionPage) => api.put<AdmissionPage>('/admission/', page),
    onSuccess: (page) => qc.setQueryData(admissionPageQuery.queryKey, page),
  });
}

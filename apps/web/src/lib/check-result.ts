import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/**
 * App-wide: the public result check's options (CONTRACT.md §6). The check page reads its sessions;
 * the public home and the sign-in pages link to it only when the school has PINs on.
 */
export interface CheckOptions {
  enabled: boolean;
  sessions: { id: number; name: string; terms: string[] }[];
}

export const checkOptionsKey = ['check-result', 'options'] as const;

export function useCheckOptions() {
  return useQuery({
    queryKey: checkOptionsKey,
    queryFn: ({ signal }) => api.get<CheckOptions>('/check-result/options/', { timeout: 15_000, signal, anonymous: true }),
    retry: 1,
    staleTime: 5 * 60_000,
  });
}

/** True once the school is known to have result-checker PINs on (false while loading or on failure). */
export function useCheckResultOffered(): boolean {
  return useCheckOptions().data?.enabled === true;
}

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Term } from '@portal/domain/constants';
import type { AdminDashboard } from '@portal/domain/dashboard-admin';
import { api } from '../../lib/api-client';

const T = { timeout: 15_000 };

export const dashboardKeys = {
  admin: ['dashboard', 'admin'] as const,
};

/** A term the admin picked to look at, instead of today's. */
export interface DashboardTerm {
  session_id: number;
  term: Term;
}

/**
 * The admin / principal dashboard's figures: today's term, or the one picked. While another term
 * loads, the panels keep the last one's figures rather than blinking away.
 */
export function useAdminDashboard(pick: DashboardTerm | null = null) {
  return useQuery({
    queryKey: [...dashboardKeys.admin, pick?.session_id ?? null, pick?.term ?? null],
    queryFn: () => api.get<AdminDashboard>('/dashboards/admin/', { ...T, query: { session_id: pick?.session_id, term: pick?.term } }),
    placeholderData: keepPreviousData,
  });
}

import { useQuery } from '@tanstack/react-query';
import type { AdminDashboard } from '@portal/domain/dashboard-admin';
import { api } from '../../lib/api-client';

const T = { timeout: 15_000 };

export const dashboardKeys = {
  admin: ['dashboard', 'admin'] as const,
};

/** The admin / principal dashboard's figures (today's term). */
export function useAdminDashboard() {
  return useQuery({ queryKey: dashboardKeys.admin, queryFn: () => api.get<AdminDashboard>('/dashboards/admin/', T) });
}

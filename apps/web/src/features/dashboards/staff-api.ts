import type { BursarDashboard, StaffDashboard } from '@portal/domain/dashboard-staff';
import { useGet } from '../../lib/get-query';

/** The dashboards' reads (issue 36.2, 36.3): today's term, asked afresh each visit to the home. */
export const staffDashboardKeys = {
  bursar: ['dashboards', 'bursar'] as const,
  staff: ['dashboards', 'staff'] as const,
};

export function useBursarDashboard() {
  return useGet<BursarDashboard>(staffDashboardKeys.bursar, '/dashboards/bursar/', {}, { staleTime: 30_000 });
}

export function useStaffDashboard() {
  return useGet<StaffDashboard>(staffDashboardKeys.staff, '/dashboards/staff/', {}, { staleTime: 30_000 });
}

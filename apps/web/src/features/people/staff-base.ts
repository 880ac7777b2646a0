import { useLocation } from 'react-router';

/** '/dashboard/staff' inside the dashboard layout, '/staff' elsewhere: links stay in the layout they started in. */
export function useStaffBase(): string {
  return useLocation().pathname.startsWith('/dashboard') ? '/dashboard/staff' : '/staff';
}

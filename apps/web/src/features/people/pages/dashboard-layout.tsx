import { NavLink, Outlet } from 'react-router';
import { PageLayout } from '../../../components/layout/app-layout';
import { useSession } from '../../../lib/auth-store';
import { InDashboard } from '../components/screen-layout';

const tab = ({ isActive }: { isActive: boolean }) =>
  `inline-flex min-h-11 items-center rounded-lg px-3 text-sm font-semibold ${
    isActive ? 'bg-brand-800 text-white' : 'text-brand-800 hover:bg-brand-50'
  }`;

/** /dashboard: the spec's nested staff screens (staff, staff/create, staff/:id, staff/:id/edit) in one frame. */
export default function DashboardLayout() {
  const isAdmin = useSession()?.role === 'admin';
  return (
    <PageLayout title="Dashboard">
      <nav aria-label="Dashboard" className="no-print mb-5 flex flex-wrap gap-2 border-b border-slate-200 pb-3">
        <NavLink to="/dashboard/staff" end className={tab}>
          Staff
        </NavLink>
        {isAdmin && (
          <NavLink to="/dashboard/staff/create" className={tab}>
            Add Staff
          </NavLink>
        )}
      </nav>
      <InDashboard.Provider value={true}>
        <Outlet />
      </InDashboard.Provider>
    </PageLayout>
  );
}

import { Suspense } from 'react';
import { LoadingBlock } from '../../components/ui/spinner';
import { useHomeDashboard, type HomeDashboardKey } from '../../lib/home-dashboards';

/** A role's dashboard on its home, loaded lazily (its chunk and its charts only when shown); nothing when the shell gives none. */
export function HomeDashboard({ which, label }: { which: HomeDashboardKey; label: string }) {
  const Dashboard = useHomeDashboard(which);
  if (!Dashboard) return null;
  return (
    <Suspense fallback={<LoadingBlock label={label} />}>
      <Dashboard />
    </Suspense>
  );
}

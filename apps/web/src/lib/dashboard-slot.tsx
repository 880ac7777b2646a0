import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { LoadingBlock } from '../components/ui/spinner';

/** What a dashboard is given where it is mounted: a parent's home names the child (admission number) and their name. */
export interface DashboardProps {
  child?: string | null;
  name?: string;
}
export type DashboardName = 'admin' | 'bursar' | 'staff' | 'student';
type Loader = () => Promise<{ default: ComponentType<DashboardProps> }>;

const loaders: Partial<Record<DashboardName, Loader>> = {};
const components = new Map<DashboardName, LazyExoticComponent<ComponentType<DashboardProps>>>();

/**
 * The shell (app/) says where each dashboard's chunk is: a feature imports no other feature, so a
 * home reaches a dashboard only through this slot, and the dashboard's code (and its chart library)
 * loads with its own chunk, after the home's first paint (issue 36: no route's first JS grows).
 */
export function provideDashboards(map: Partial<Record<DashboardName, Loader>>): void {
  Object.assign(loaders, map);
}

/** The dashboard `of`, loaded lazily; nothing when the shell provided none (e.g. a unit test). */
export function DashboardSlot({ of, label, ...props }: DashboardProps & { of: DashboardName; label?: string }) {
  const load = loaders[of];
  if (!load) return null;
  let C = components.get(of);
  if (!C) components.set(of, (C = lazy(load)));
  return (
    <Suspense fallback={<LoadingBlock label={label} />}>
      <C {...props} />
    </Suspense>
  );
}

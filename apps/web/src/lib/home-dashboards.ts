import { createContext, useContext, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * The dashboards each home shows (issue 36), handed in by the shell: a home (features/home) may not
 * import the dashboards feature, so app/ puts each lazily loaded dashboard here and a home asks for
 * its own by name. The chunks load only when a home renders one.
 */
export type HomeDashboardKey = 'admin' | 'bursar' | 'staff' | 'student';
export type HomeDashboards = Partial<Record<HomeDashboardKey, LazyExoticComponent<ComponentType>>>;

export const HomeDashboardsContext = createContext<HomeDashboards>({});

export function useHomeDashboard(key: HomeDashboardKey): LazyExoticComponent<ComponentType> | null {
  return useContext(HomeDashboardsContext)[key] ?? null;
}

import { lazy } from 'react';
import type { HomeDashboards } from '../lib/home-dashboards';

/** Each role's dashboard for its home, loaded when the home first shows it (issue 36). */
export const homeDashboards: HomeDashboards = {
  bursar: lazy(() => import('../features/dashboards/bursar-dashboard')),
  staff: lazy(() => import('../features/dashboards/staff-dashboard')),
};

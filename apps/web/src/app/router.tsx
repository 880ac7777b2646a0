import { createBrowserRouter, type RouteObject } from 'react-router';
import { APP_START_PATH } from '@portal/domain/web-app-manifest';
import { attendanceRoutes } from '../features/attendance/routes';
import { authRoutes } from '../features/auth/routes';
import { bursaryRoutes } from '../features/bursary/routes';
import { homeRoutes } from '../features/home/routes';
import { parentsRoutes } from '../features/parents/routes';
import { paymentsRoutes } from '../features/payments/routes';
import { peopleRoutes } from '../features/people/routes';
import { reportSheetsRoutes } from '../features/report-sheets/routes';
import { resultPinsRoutes } from '../features/result-pins/routes';
import { resultsRoutes } from '../features/results/routes';
import { settingsRoutes } from '../features/settings/routes';
import { teachingRoutes } from '../features/teaching/routes';
import { noticesRoutes } from '../features/notices/routes';
import { rolloverRoutes } from '../features/rollover/routes';
import { sessionEndRoutes } from '../features/session-end/routes';
import { NotFoundPage } from './not-found';
import { RouteErrorPage } from './route-error';
import { AppStart } from './start';
import { provideDashboards } from '../lib/dashboard-slot';

/**
 * The app's routes: each feature exports its own route array (every screen a lazy route behind the
 * roles the server enforces, so a phone downloads only the page it opens); the shell assembles them.
 */
export const routes: RouteObject[] = [
  ...homeRoutes,
  ...authRoutes,
  ...settingsRoutes,
  ...peopleRoutes,
  ...resultsRoutes,
  ...paymentsRoutes,
  ...teachingRoutes,
  ...reportSheetsRoutes,
  ...attendanceRoutes,
  ...bursaryRoutes,
  ...noticesRoutes,
  ...rolloverRoutes,
  ...parentsRoutes,
  ...resultPinsRoutes,
  ...sessionEndRoutes,
  { path: APP_START_PATH, element: <AppStart /> },
  { path: '*', element: <NotFoundPage /> },
];

// Each home's dashboard (issue 36), a chunk of its own loaded after the home: the homes name a slot (lib/dashboard-slot).
provideDashboards({
  admin: () => import('../features/dashboards/admin-dashboard'),
  bursar: () => import('../features/dashboards/bursar-dashboard'),
  staff: () => import('../features/dashboards/staff-dashboard'),
  student: () => import('../features/dashboards/student-dashboard'),
});

// One error element for every screen: a failure shows the app's page, never the router's developer one.
export const router = createBrowserRouter([{ errorElement: <RouteErrorPage />, children: routes }]);

import type { RouteObject } from 'react-router';
import { ADMIN_ONLY, RequireRole, STAFF_AND_ADMIN } from '../../lib/guards';
import { lazyPage as page } from '../../lib/lazy-page';

/**
 * The screens that fill the report card: the admin's settings; the ratings and comments
 * of an arm for its form teacher and the admin (the server decides which arms and fields).
 */
export const reportSheetsRoutes: RouteObject[] = [
  {
    element: <RequireRole roles={STAFF_AND_ADMIN} />,
    children: [
      { path: '/class-ratings', lazy: page(() => import('./pages/class-ratings')) },
      { path: '/class-comments', lazy: page(() => import('./pages/class-comments')) },
    ],
  },
  {
    element: <RequireRole roles={ADMIN_ONLY} />,
    children: [{ path: '/report-card-settings', lazy: page(() => import('./pages/report-card-settings')) }],
  },
];

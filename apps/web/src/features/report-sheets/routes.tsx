import type { RouteObject } from 'react-router';
import { ADMIN_ONLY, forRoles, STAFF_AND_ADMIN } from '../../lib/guards';
import { lazyPage as page } from '../../lib/lazy-page';

/**
 * The screens that fill the report card: the admin's settings; the ratings and comments
 * of an arm for its form teacher and the admin (the server decides which arms and fields).
 */
export const reportSheetsRoutes: RouteObject[] = [
  forRoles(STAFF_AND_ADMIN, [
    { path: '/class-ratings', lazy: page(() => import('./pages/class-ratings')) },
    { path: '/class-comments', lazy: page(() => import('./pages/class-comments')) },
  ]),
  forRoles(ADMIN_ONLY, [{ path: '/report-card-settings', lazy: page(() => import('./pages/report-card-settings')) }]),
];

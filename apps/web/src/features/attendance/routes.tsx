import type { RouteObject } from 'react-router';
import { ADMIN_ONLY, forRoles, STAFF_AND_ADMIN, STUDENT_OR_PARENT } from '../../lib/guards';
import { lazyPage as page } from '../../lib/lazy-page';

/**
 * The attendance register: the form teacher's register and month grid, a student's term,
 * the school's absentees and calendar (the server decides which arms a form teacher may open).
 */
export const attendanceRoutes: RouteObject[] = [
  forRoles(STAFF_AND_ADMIN, [
    { path: '/attendance', lazy: page(() => import('./pages/register')) },
    { path: '/attendance/month', lazy: page(() => import('./pages/month')) },
    { path: '/attendance/student', lazy: page(() => import('./pages/student')) },
  ]),
  forRoles(ADMIN_ONLY, [
    { path: '/attendance/absent', lazy: page(() => import('./pages/absent')) },
    { path: '/school-calendar', lazy: page(() => import('./pages/school-calendar')) },
  ]),
  forRoles(STUDENT_OR_PARENT, [{ path: '/my-attendance', lazy: page(() => import('./pages/my-attendance')) }]),
];

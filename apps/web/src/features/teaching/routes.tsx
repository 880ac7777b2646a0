import type { RouteObject } from 'react-router';
import { ADMIN_ONLY, forRoles, STAFF_AND_ADMIN } from '../../lib/guards';
import { lazyPage as page } from '../../lib/lazy-page';

/** Teaching structure: the admin sets up classes, subjects and who teaches what; a teacher sees their classes. */
export const teachingRoutes: RouteObject[] = [
  forRoles(STAFF_AND_ADMIN, [{ path: '/my-classes', lazy: page(() => import('./pages/my-classes')) }]),
  forRoles(ADMIN_ONLY, [
    { path: '/classes-subjects', lazy: page(() => import('./pages/classes-subjects')) },
    { path: '/teaching-assignments', lazy: page(() => import('./pages/teaching-assignments')) },
    { path: '/student-subjects', lazy: page(() => import('./pages/student-subjects')) },
  ]),
];

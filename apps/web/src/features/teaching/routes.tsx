import type { RouteObject } from 'react-router';
import { ADMIN_ONLY, RequireRole, STAFF_AND_ADMIN } from '../../lib/guards';
import { lazyPage as page } from '../../lib/lazy-page';

/** Teaching structure: the admin sets up classes, subjects and who teaches what; a teacher sees their classes. */
export const teachingRoutes: RouteObject[] = [
  {
    element: <RequireRole roles={STAFF_AND_ADMIN} />,
    children: [{ path: '/my-classes', lazy: page(() => import('./pages/my-classes')) }],
  },
  {
    element: <RequireRole roles={ADMIN_ONLY} />,
    children: [
      { path: '/classes-subjects', lazy: page(() => import('./pages/classes-subjects')) },
      { path: '/teaching-assignments', lazy: page(() => import('./pages/teaching-assignments')) },
      { path: '/student-subjects', lazy: page(() => import('./pages/student-subjects')) },
    ],
  },
];

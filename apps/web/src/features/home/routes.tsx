import { Navigate, type RouteObject } from 'react-router';
import { ADMIN_ONLY, RequireRole, STAFF_ONLY, STUDENT_ONLY } from '../../lib/guards';
import { lazyNamed } from '../../lib/lazy-page';

const homes = () => import('./home-pages');

/** The public home page and each role's home (menu). */
export const homeRoutes: RouteObject[] = [
  { path: '/', lazy: lazyNamed(() => import('./public-home'), 'PublicHome') },
  { path: '/admission', lazy: lazyNamed(() => import('./admission-page'), 'AdmissionProcessPage') },
  { element: <RequireRole roles={ADMIN_ONLY} />, children: [{ path: '/adminHomePage/*', lazy: lazyNamed(homes, 'AdminHome') }] },
  { element: <RequireRole roles={STAFF_ONLY} />, children: [{ path: '/staffHomePage/*', lazy: lazyNamed(homes, 'StaffHome') }] },
  { path: '/StaffHomePage/*', element: <Navigate to="/staffHomePage" replace /> },
  { element: <RequireRole roles={STUDENT_ONLY} />, children: [{ path: '/StudentHomePage/*', lazy: lazyNamed(homes, 'StudentHome') }] },
];

import { Navigate, type RouteObject } from 'react-router';
import { ADMIN_ONLY, forRoles, STAFF_ONLY, STUDENT_ONLY } from '../../lib/guards';
import { lazyNamed } from '../../lib/lazy-page';

const homes = () => import('./home-pages');

/** The public home page and each role's home (menu). */
export const homeRoutes: RouteObject[] = [
  { path: '/', lazy: lazyNamed(() => import('./public-home'), 'PublicHome') },
  { path: '/admission', lazy: lazyNamed(() => import('./admission-page'), 'AdmissionProcessPage') },
  forRoles(ADMIN_ONLY, [{ path: '/adminHomePage/*', lazy: lazyNamed(homes, 'AdminHome') }]),
  forRoles(STAFF_ONLY, [{ path: '/staffHomePage/*', lazy: lazyNamed(homes, 'StaffHome') }]),
  { path: '/StaffHomePage/*', element: <Navigate to="/staffHomePage" replace /> },
  forRoles(STUDENT_ONLY, [{ path: '/StudentHomePage/*', lazy: lazyNamed(homes, 'StudentHome') }]),
];

import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { paymentsRoutes } from '../features/payments/routes';
import { peopleRoutes } from '../features/people/routes';
import { resultsRoutes } from '../features/results/routes';
import { ADMIN_ONLY, RequireRole } from './guards';
import { NotFoundPage } from './not-found';

/** Every screen is loaded on demand, so a phone downloads only the page it opens. */
const lazy = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

export const routes: RouteObject[] = [
  { path: '/', lazy: lazy(() => import('../features/home/public-home').then((m) => ({ default: m.PublicHome }))) },
  { path: '/Admin', lazy: lazy(() => import('../features/auth/login-routes').then((m) => ({ default: m.AdminLogin }))) },
  { path: '/StaffLogin', lazy: lazy(() => import('../features/auth/login-routes').then((m) => ({ default: m.StaffLogin }))) },
  { path: '/StudentLogin', lazy: lazy(() => import('../features/auth/login-routes').then((m) => ({ default: m.StudentLogin }))) },
  { path: '/login', lazy: lazy(() => import('../features/auth/role-chooser').then((m) => ({ default: m.RoleChooser }))) },
  {
    path: '/change-password',
    lazy: lazy(() => import('../features/auth/change-password-page').then((m) => ({ default: m.ChangePasswordPage }))),
  },
  {
    element: <RequireRole roles={ADMIN_ONLY} />,
    children: [
      { path: '/adminHomePage/*', lazy: lazy(() => import('../features/home/home-pages').then((m) => ({ default: m.AdminHome }))) },
      { path: '/settings', lazy: lazy(() => import('../features/settings/settings-page').then((m) => ({ default: m.SettingsPage }))) },
      {
        path: '/sign-in-blocks',
        lazy: lazy(() => import('../features/auth/sign-in-blocks-page').then((m) => ({ default: m.SignInBlocksPage }))),
      },
    ],
  },
  {
    element: <RequireRole roles={['staff']} />,
    children: [
      { path: '/staffHomePage/*', lazy: lazy(() => import('../features/home/home-pages').then((m) => ({ default: m.StaffHome }))) },
    ],
  },
  { path: '/StaffHomePage/*', element: <Navigate to="/staffHomePage" replace /> },
  {
    element: <RequireRole roles={['student']} />,
    children: [
      { path: '/StudentHomePage/*', lazy: lazy(() => import('../features/home/home-pages').then((m) => ({ default: m.StudentHome }))) },
    ],
  },
  ...peopleRoutes,
  ...resultsRoutes,
  ...paymentsRoutes,
  { path: '*', element: <NotFoundPage /> },
];

export const router = createBrowserRouter(routes);

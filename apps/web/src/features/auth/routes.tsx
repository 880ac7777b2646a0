import type { RouteObject } from 'react-router';
import { ADMIN_ONLY, forRoles } from '../../lib/guards';
import { lazyNamed } from '../../lib/lazy-page';

const logins = () => import('./login-routes');

/** Sign-in screens (one per role), the role chooser, the password change, and the admin's sign-in blocks. */
export const authRoutes: RouteObject[] = [
  { path: '/Admin', lazy: lazyNamed(logins, 'AdminLogin') },
  { path: '/StaffLogin', lazy: lazyNamed(logins, 'StaffLogin') },
  { path: '/StudentLogin', lazy: lazyNamed(logins, 'StudentLogin') },
  { path: '/ParentLogin', lazy: lazyNamed(logins, 'ParentLogin') },
  { path: '/login', lazy: lazyNamed(() => import('./role-chooser'), 'RoleChooser') },
  { path: '/change-password', lazy: lazyNamed(() => import('./change-password-page'), 'ChangePasswordPage') },
  forRoles(ADMIN_ONLY, [{ path: '/sign-in-blocks', lazy: lazyNamed(() => import('./sign-in-blocks-page'), 'SignInBlocksPage') }]),
];

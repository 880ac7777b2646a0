import type { RouteObject } from 'react-router';
import { ADMIN_ONLY, RequireRole } from '../../lib/guards';
import { lazyNamed } from '../../lib/lazy-page';

/** The school settings screen (admin). */
export const settingsRoutes: RouteObject[] = [
  {
    element: <RequireRole roles={ADMIN_ONLY} />,
    children: [
      { path: '/settings', lazy: lazyNamed(() => import('./settings-page'), 'SettingsPage') },
      { path: '/settings/admission', lazy: lazyNamed(() => import('./admission-settings-page'), 'AdmissionSettingsPage') },
    ],
  },
];

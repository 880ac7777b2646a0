import type { RouteObject } from 'react-router';
import { ADMIN_ONLY, forRoles } from '../../lib/guards';
import { lazyNamed } from '../../lib/lazy-page';

/** The school settings screen (admin). */
export const settingsRoutes: RouteObject[] = [
  forRoles(ADMIN_ONLY, [
    { path: '/settings', lazy: lazyNamed(() => import('./settings-page'), 'SettingsPage') },
    { path: '/settings/admission', lazy: lazyNamed(() => import('./admission-settings-page'), 'AdmissionSettingsPage') },
  ]),
];

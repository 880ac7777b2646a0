import type { RouteObject } from 'react-router';
import { ADMIN_ONLY, forRoles } from '../../lib/guards';
import { lazyPage as page } from '../../lib/lazy-page';

/**
 * End of session (issue 34): the promotion screen (preview, mapping, apply, progress, runs and undo)
 * and one student's move (or a graduate's transcript). /session-rollover and /result-pins are the
 * rollover's and the PINs' features; the admin menu's "End of session" group lists all three.
 */
export const sessionEndRoutes: RouteObject[] = [
  forRoles(ADMIN_ONLY, [
    { path: '/promotion', lazy: page(() => import('./pages/promotion')) },
    { path: '/promotion/move', lazy: page(() => import('./pages/student-move')) },
  ]),
];

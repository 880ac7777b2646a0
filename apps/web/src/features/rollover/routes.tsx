import type { RouteObject } from 'react-router';
import { ROLLOVER_SCREEN } from '@portal/domain/rollover-screen';
import { ADMIN_ONLY, forRoles } from '../../lib/guards';
import { lazyPage as page } from '../../lib/lazy-page';

/** Starting the next session (admin, decision 040): the preview, the edits, the one step, its summary. */
export const rolloverRoutes: RouteObject[] = [
  forRoles(ADMIN_ONLY, [{ path: ROLLOVER_SCREEN.to, lazy: page(() => import('./pages/session-rollover')) }]),
];

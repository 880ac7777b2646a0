import type { RouteObject } from 'react-router';
import { NOTICE_SCREENS as S } from '@portal/domain/notice-screens';
import { ADMIN_ONLY, EVERY_ACCOUNT, forRoles, PARENT_ONLY } from '../../lib/guards';
import { lazyPage as page } from '../../lib/lazy-page';

/**
 * Notices: the inbox of every account (parents included), the parent's preferences, and the admin's
 * notice settings, templates, blasts (compose, estimate, send, live progress) and message log.
 */
export const noticesRoutes: RouteObject[] = [
  forRoles(EVERY_ACCOUNT, [{ path: S.inbox.to, lazy: page(() => import('./pages/inbox')) }]),
  forRoles(PARENT_ONLY, [{ path: S.preferences.to, lazy: page(() => import('./pages/preferences')) }]),
  forRoles(ADMIN_ONLY, [
    { path: S.settings.to, lazy: page(() => import('./pages/settings')) },
    { path: S.templates.to, lazy: page(() => import('./pages/templates')) },
    { path: S.blasts.to, lazy: page(() => import('./pages/blasts')) },
    { path: `${S.blasts.to}/new`, lazy: page(() => import('./pages/blast-new')) },
    { path: `${S.blasts.to}/:id`, lazy: page(() => import('./pages/blast')) },
    { path: S.messages.to, lazy: page(() => import('./pages/messages')) },
  ]),
];

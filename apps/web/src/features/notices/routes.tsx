import type { RouteObject } from 'react-router';
import { ROLES, type Role } from '@portal/domain/constants';
import { NOTICE_SCREENS as S } from '@portal/domain/notice-screens';
import { ADMIN_ONLY, forRoles } from '../../lib/guards';
import { lazyPage as page } from '../../lib/lazy-page';

/** Every account (admin, staff, student, parent): the in-app notices are everyone's. */
const EVERY_ACCOUNT: readonly Role[] = ROLES;
/** The parent: notice preferences are a family's (the server refuses the others). */
const PARENT_ONLY: readonly Role[] = ROLES.filter((r) => (r as string) === 'parent');

/**
 * Notices: the inbox of every account, the parent's preferences, and the admin's notice settings,
 * templates, blasts (compose, estimate, send, live progress) and message log.
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

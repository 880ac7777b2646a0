import type { RouteObject } from 'react-router';
import { ADMIN_ONLY, forRoles, PARENT_ONLY } from '../../lib/guards';
import { lazyNamed, lazyPage as page } from '../../lib/lazy-page';
import { prefetching } from '../../lib/prefetch';
import { parentChildrenQuery } from '../../lib/parent-child';

/**
 * Parents (issue 33): the parent's home (each child at a glance; the child's own screens are the
 * student screens, opened with `?child=`), and the admin's parents, conflicts and invitations.
 * /ParentLogin is the auth feature's sign-in.
 */
export const parentsRoutes: RouteObject[] = [
  forRoles(PARENT_ONLY, [
    {
      path: '/ParentHomePage',
      loader: prefetching((ask) => ask(parentChildrenQuery)),
      lazy: lazyNamed(() => import('./pages/parent-home'), 'ParentHome'),
    },
  ]),
  forRoles(ADMIN_ONLY, [
    { path: '/parents', lazy: page(() => import('./pages/parents-list')) },
    { path: '/parents/conflicts', lazy: page(() => import('./pages/parent-conflicts')) },
    { path: '/parents/invitations', lazy: page(() => import('./pages/parent-invitations')) },
    { path: '/parents/:id', lazy: page(() => import('./pages/parent-detail')) },
  ]),
];

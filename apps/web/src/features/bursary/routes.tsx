import type { RouteObject } from 'react-router';
import { BURSARY_SCREEN_MESSAGES } from '@portal/domain/bursary-screens';
import { TRANSFER_REPORT_SCREENS } from '@portal/domain/transfer-report-screens';
import { ADMIN_ONLY, RequireCapability, forRoles, STUDENT_OR_PARENT } from '../../lib/guards';
import { lazyNamed, lazyPage as page } from '../../lib/lazy-page';

const statements = () => import('./pages/statement');

/**
 * The bursar's office: the admin or a staff member with the bursar capability (the server
 * enforces the same); the admin assigns the capability; a student reads their own statement (a parent a child's).
 */
export const bursaryRoutes: RouteObject[] = [
  {
    element: <RequireCapability capability="bursar" refusedMessage={BURSARY_SCREEN_MESSAGES.bursarPageRefused} />,
    children: [
      { path: '/bursary/record', lazy: page(() => import('./pages/record')) },
      { path: '/bursary/ledger', lazy: page(() => import('./pages/ledger')) },
      { path: '/bursary/statement', lazy: lazyNamed(statements, 'BursaryStatementPage') },
      { path: '/bursary/debtors', lazy: page(() => import('./pages/debtors')) },
      { path: '/bursary/collections', lazy: page(() => import('./pages/collections')) },
      { path: TRANSFER_REPORT_SCREENS.queue.to, lazy: page(() => import('./pages/transfers')) },
      { path: '/bursary/discounts', lazy: page(() => import('./pages/discounts')) },
    ],
  },
  forRoles(ADMIN_ONLY, [{ path: '/staff-capabilities', lazy: page(() => import('./pages/staff-capabilities')) }]),
  forRoles(STUDENT_OR_PARENT, [
    { path: '/my-statement', lazy: lazyNamed(statements, 'MyStatementPage') },
    { path: TRANSFER_REPORT_SCREENS.mine.to, lazy: page(() => import('./pages/my-transfers')) },
  ]),
];

import type { RouteObject } from 'react-router';
import { ADMIN_ONLY, ANY_ROLE, RequireRole } from '../../lib/guards';
import { lazyPage as page } from '../../lib/lazy-page';

/** Fees and payment screens. */
export const paymentsRoutes: RouteObject[] = [
  {
    element: <RequireRole roles={ANY_ROLE} />,
    children: [
      { path: '/PaymentForm', lazy: page(() => import('./pages/payment-form')) },
      { path: '/payments/receipt/:reference', lazy: page(() => import('./pages/receipt-page')) },
      // The built-in simulator's checkout (no provider key): signed in, the payer or an admin only.
      { path: '/pay/simulator/:code', lazy: page(() => import('./pages/simulator-page')) },
    ],
  },
  {
    element: <RequireRole roles={ADMIN_ONLY} />,
    children: [{ path: '/payments/fee-schedules', lazy: page(() => import('./pages/fee-schedules-page')) }],
  },
];

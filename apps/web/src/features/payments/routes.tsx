import type { RouteObject } from 'react-router';
import { ADMIN_ONLY, ANY_ROLE, RequireRole } from '../../app/guards';

/** Fees and payment screens (issue 5). */
export const paymentsRoutes: RouteObject[] = [
  {
    element: <RequireRole roles={ANY_ROLE} />,
    children: [
      { path: '/PaymentForm', lazy: async () => ({ Component: (await import('./pages/payment-form')).default }) },
      { path: '/payments/receipt/:reference', lazy: async () => ({ Component: (await import('./pages/receipt-page')).default }) },
      // The built-in simulator's checkout (no provider key): signed in, the payer or an admin only.
      { path: '/pay/simulator/:code', lazy: async () => ({ Component: (await import('./pages/simulator-page')).default }) },
    ],
  },
  {
    element: <RequireRole roles={ADMIN_ONLY} />,
    children: [
      { path: '/payments/fee-schedules', lazy: async () => ({ Component: (await import('./pages/fee-schedules-page')).default }) },
    ],
  },
];

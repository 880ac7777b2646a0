import type { RouteObject } from 'react-router';
import { BURSARY_SCREEN_MESSAGES } from '@portal/domain/bursary-screens';
import { EVERY_ACCOUNT, RequireCapability, forRoles } from '../../lib/guards';
import { lazyPage as page } from '../../lib/lazy-page';
import { prefetching } from '../../lib/prefetch';
import { classesQuery } from '../../lib/school-lists';
import { paymentContextOf, paymentHistoryQuery, paymentProviderQuery } from './api';

/** Fees and payment screens. */
export const paymentsRoutes: RouteObject[] = [
  // A parent pays for a child (`?child=`), and opens the receipts and the simulator's checkout as the payer.
  forRoles(EVERY_ACCOUNT, [
    {
      path: '/PaymentForm',
      // What the form opens with; a student's own payment history too (staff type an admission number).
      loader: prefetching((ask, session, params) => {
        // A parent's page is about the child named in the address (the first child when none is).
        const child = session.role === 'parent' ? (params.get('child')?.trim().toUpperCase() ?? '') : '';
        if (session.role !== 'parent' || child) ask(paymentContextOf(child || null));
        ask(paymentProviderQuery);
        ask(classesQuery);
        if (session.role === 'student') ask(paymentHistoryQuery(session.publicId.trim()));
        if (child) ask(paymentHistoryQuery(child));
      }),
      lazy: page(() => import('./pages/payment-form')),
    },
    { path: '/payments/receipt/:reference', lazy: page(() => import('./pages/receipt-page')) },
    // The built-in simulator's checkout (no provider key): signed in, the payer or an admin only.
    { path: '/pay/simulator/:code', lazy: page(() => import('./pages/simulator-page')) },
  ]),
  {
    // The admin's fee items, and the bursar's.
    element: <RequireCapability capability="bursar" refusedMessage={BURSARY_SCREEN_MESSAGES.bursarPageRefused} />,
    children: [{ path: '/payments/fee-schedules', lazy: page(() => import('./pages/fee-schedules-page')) }],
  },
];

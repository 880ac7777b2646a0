import type { RouteObject } from 'react-router';
import { BURSARY_SCREEN_MESSAGES } from '@portal/domain/bursary-screens';
import { RESULT_PIN_SCREENS as S } from '@portal/domain/result-pin-screens';
import { RequireCapability } from '../../lib/guards';
import { lazyPage as page } from '../../lib/lazy-page';

/**
 * Result-checker PINs (issue 34): the admin generates, prints and seals batches; the admin and the
 * bursar (the capability; the server enforces the same) mark cards sold. /check-result is public:
 * a parent without an account checks a released card with a scratch card's PIN.
 */
export const resultPinsRoutes: RouteObject[] = [
  { path: S.check.to, lazy: page(() => import('./pages/check-result')) },
  {
    element: <RequireCapability capability="bursar" refusedMessage={BURSARY_SCREEN_MESSAGES.bursarPageRefused} />,
    children: [
      { path: S.batches.to, lazy: page(() => import('./pages/batches')) },
      { path: `${S.batches.to}/:id`, lazy: page(() => import('./pages/batch')) },
    ],
  },
];

import type { RouteObject } from 'react-router';
import { BURSARY_SCREEN_MESSAGES } from '@portal/domain/bursary-screens';
import { ADMIN_ONLY, ANY_ROLE, EVERY_ACCOUNT, forRoles, RequireCapability, STAFF_AND_ADMIN } from '../../lib/guards';
import { lazyPage as page } from '../../lib/lazy-page';
import { prefetching } from '../../lib/prefetch';
import { classesQuery } from '../../lib/school-lists';
import { sessionsQuery } from '../../lib/school-calendar';
import { gradingScalesQuery, myResultsQuery, reportCardNeeds, termsQuery } from './queries';
import { scoreSheetQuery, sheetQueryOf } from './score-sheet-api';

/**
 * Results screens: entry and correction for staff and admin; students see only their own (the server
 * enforces it). The screens opened most ask for their data from the route (lib/prefetch.ts).
 */
export const resultsRoutes: RouteObject[] = [
  forRoles(STAFF_AND_ADMIN, [
    { path: '/ResultUpload', lazy: page(() => import('./pages/result-upload')) },
    { path: '/UpdateResult', lazy: page(() => import('./pages/update-result')) },
    { path: '/DeleteResult', lazy: page(() => import('./pages/delete-result')) },
    { path: '/broadsheet', lazy: page(() => import('./pages/broadsheet')) },
    {
      path: '/score-sheet',
      loader: prefetching((ask, _, params) => {
        const q = sheetQueryOf(params);
        if (!q) return;
        ask(scoreSheetQuery(q));
        ask(gradingScalesQuery(q.session_id));
      }),
      lazy: page(() => import('./pages/score-sheet')),
    },
    { path: '/report-approvals', lazy: page(() => import('./pages/report-approvals')) },
  ]),
  forRoles(ANY_ROLE, [
    {
      path: '/ResultsCheck',
      loader: prefetching((ask, session) => {
        if (session.role === 'student') {
          ask(termsQuery);
          ask(myResultsQuery);
        } else {
          ask(sessionsQuery);
          ask(classesQuery);
        }
      }),
      lazy: page(() => import('./pages/results-check')),
    },
    { path: '/check-a-result', lazy: page(() => import('./pages/check-a-result')) },
  ]),
  // A parent reads a child's card too (`?child=`).
  forRoles(EVERY_ACCOUNT, [
    {
      path: '/report-card',
      loader: prefetching(reportCardNeeds),
      lazy: page(() => import('./pages/report-card')),
    },
  ]),
  forRoles(ADMIN_ONLY, [
    { path: '/sessions', lazy: page(() => import('./pages/sessions-admin')) },
    { path: '/grading-scales', lazy: page(() => import('./pages/grading-admin')) },
    { path: '/assessment-schemes', lazy: page(() => import('./pages/assessment-schemes')) },
    { path: '/publish-results', lazy: page(() => import('./pages/publish-admin')) },
    { path: '/result-audit', lazy: page(() => import('./pages/result-audit')) },
  ]),
  {
    // Cards opened regardless of fees (decision 042): the admin's and the bursar's.
    element: <RequireCapability capability="bursar" refusedMessage={BURSARY_SCREEN_MESSAGES.bursarPageRefused} />,
    children: [{ path: '/fee-releases', lazy: page(() => import('./pages/fee-releases')) }],
  },
];

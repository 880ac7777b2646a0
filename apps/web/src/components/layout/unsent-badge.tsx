import { lazy, Suspense } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import type { Session } from '../../lib/auth-store';
import { userOf } from '../../lib/offline/user';

// The count reads IndexedDB (lib/offline, idb): loaded after the page, and only for those who enter sheets.
const UnsentCount = lazy(() => import('./unsent-count-badge'));

/**
 * Rows of the signed-in teacher waiting on this phone to be sent (issue 35): staff and admin enter sheets.
 * Its code comes after the page's: when that load fails (the network gone before the service worker
 * has the app), the header goes without the badge; the page under it stays (the rows are kept either way).
 */
export function UnsentHeaderBadge({ session }: { session: Session }) {
  if (session.role !== 'staff' && session.role !== 'admin') return null;
  return (
    <ErrorBoundary fallback={null}>
      <Suspense fallback={null}>
        <UnsentCount user={userOf(session)!} />
      </Suspense>
    </ErrorBoundary>
  );
}

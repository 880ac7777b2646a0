import { lazy, Suspense } from 'react';
import type { Session } from '../../lib/auth-store';
import { userOf } from '../../lib/offline/user';

// The count reads IndexedDB (lib/offline, idb): loaded after the page, and only for those who enter sheets.
const UnsentCount = lazy(() => import('./unsent-count-badge'));

/** Rows of the signed-in teacher waiting on this phone to be sent (issue 35): staff and admin enter sheets. */
export function UnsentHeaderBadge({ session }: { session: Session }) {
  if (session.role !== 'staff' && session.role !== 'admin') return null;
  return (
    <Suspense fallback={null}>
      <UnsentCount user={userOf(session)!} />
    </Suspense>
  );
}

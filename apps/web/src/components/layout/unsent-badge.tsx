import type { Session } from '../../lib/auth-store';
import { UnsentBadge, useUnsentCount, userOf } from '../../lib/offline';

/** Rows of the signed-in teacher waiting on this phone to be sent (issue 35): staff and admin enter sheets. */
export function UnsentHeaderBadge({ session }: { session: Session }) {
  const entersSheets = session.role === 'staff' || session.role === 'admin';
  const count = useUnsentCount(entersSheets ? userOf(session) : null);
  return <UnsentBadge count={count} />;
}

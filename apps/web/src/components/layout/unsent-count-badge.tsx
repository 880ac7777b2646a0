import { UnsentBadge, useUnsentCount } from '../../lib/offline';

/** The header's badge with its count (lazy: see unsent-badge.tsx). */
export default function UnsentCountBadge({ user }: { user: string }) {
  return <UnsentBadge count={useUnsentCount(user)} />;
}

import { OFFLINE_MESSAGES } from '@portal/domain/offline-screens';
import { Alert } from '../../components/ui/alert';
import { formatDateTime } from '../datetime';
import { offlineSince, useOnline } from './online';

const when = (ms: number) => formatDateTime(new Date(ms).toISOString());

/**
 * On a screen shown offline (or from its kept copy after a failed request): offline since when,
 * and the time the shown data was fetched; with `entries`, that what is typed is kept and sent later.
 */
export function OfflineBanner({
  fetchedAt,
  fromCopy = false,
  entries = false,
  className = 'mb-3',
}: {
  /** When the shown data came from the server (null: fetched just now). */
  fetchedAt: number | null;
  /** The data is the kept copy though the browser says online (the request failed). */
  fromCopy?: boolean;
  entries?: boolean;
  className?: string;
}) {
  const online = useOnline();
  if (online && !fromCopy) return null;
  const since = offlineSince();
  return (
    <Alert tone="warning" className={className}>
      <span data-testid="offline-banner">
        {OFFLINE_MESSAGES.showingFrom(fetchedAt ? when(fetchedAt) : when(Date.now()))}
        {since ? ` ${OFFLINE_MESSAGES.offlineSince(when(since))}` : ''}
        {entries ? ` ${OFFLINE_MESSAGES.entriesKept}` : ''}
      </span>
    </Alert>
  );
}

/** The header's badge: rows of the signed-in user waiting to be sent (nothing when none). */
export function UnsentBadge({ count }: { count: number }) {
  if (!count) return null;
  return (
    <span
      className="inline-flex min-h-6 min-w-6 items-center justify-center rounded-full bg-amber-500 px-2 text-xs font-semibold text-slate-950"
      data-testid="unsent-badge"
      role="status"
      aria-label={OFFLINE_MESSAGES.unsentBadge(count)}
      title={OFFLINE_MESSAGES.unsentBadge(count)}
    >
      {count}
    </span>
  );
}

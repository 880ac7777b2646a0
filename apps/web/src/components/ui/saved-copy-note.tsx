import { OFFLINE_SAFETY_MESSAGES as M } from '@portal/domain/offline-safety-screens';
import { formatDateTime } from '../../lib/datetime';
import { keptAt } from '../../lib/offline-query';
import { Alert } from './alert';

/**
 * Above a document read from the copy kept on this phone (a report card, a receipt opened before,
 * issue 35.5): it is a saved copy, of when, read only. Nothing when `data` came from the server.
 */
export function SavedCopyNote({ data, className = 'mb-4' }: { data: unknown; className?: string }) {
  const at = keptAt(data);
  if (at === null) return null;
  return (
    <Alert tone="warning" className={`no-print ${className}`}>
      <span data-testid="saved-copy">{M.savedCopy(formatDateTime(new Date(at).toISOString()))}</span>{' '}
      <span>{M.savedCopyNeedsNetwork}</span>
    </Alert>
  );
}

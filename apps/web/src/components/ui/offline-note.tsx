import { AUTOSAVE_MESSAGES } from '@portal/domain/autosave-screens';
import { Alert } from './alert';

/** On an entry sheet while the browser is offline: what is entered stays and is saved when the network is back. */
export function OfflineNote({ online, className = 'mb-3' }: { online: boolean; className?: string }) {
  if (online) return null;
  return (
    <Alert tone="warning" className={className}>
      {AUTOSAVE_MESSAGES.offline}
    </Alert>
  );
}

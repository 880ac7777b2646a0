import { useEffect } from 'react';
import { APP_UPDATE_MESSAGES } from '@portal/domain/web-app-manifest';
import { applyUpdate, startServiceWorker, useUpdateReady } from '../../lib/pwa/update-state';

/**
 * In the signed-in header: registers the service worker (once), and when a new version of the app has
 * been deployed and installed in the background, says so with a button to reload into it.
 */
export function UpdatePrompt() {
  const ready = useUpdateReady();
  useEffect(() => startServiceWorker(), []);
  if (!ready) return null;
  return (
    <div role="status" className="no-print border-t border-amber-300 bg-amber-50 text-amber-950" data-testid="app-update">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-2 text-sm">
        <p>
          <span className="font-semibold">{APP_UPDATE_MESSAGES.ready}</span> {APP_UPDATE_MESSAGES.readyDetail}
        </p>
        <button
          type="button"
          className="min-h-11 rounded-lg bg-brand-900 px-3 font-semibold text-white hover:bg-brand-800"
          onClick={applyUpdate}
        >
          {APP_UPDATE_MESSAGES.reload}
        </button>
      </div>
    </div>
  );
}

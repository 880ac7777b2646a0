import { useEffect, useState } from 'react';
import { Link, useRouteError } from 'react-router';
import { GENERAL_MESSAGES as M } from '@portal/domain/http';
import { buttonClass } from '../components/ui/button';

/** The messages browsers give when a page's code (a chunk of the build) cannot be fetched or run. */
const CHUNK_FAILED = /dynamically imported module|Importing a module script failed|module script|Unable to preload CSS/i;

/** Whether `error` is a page's code that could not be loaded (a release replaced it, or no connection). */
export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_FAILED.test(error.message);
}

/** When this tab last reloaded for a missing chunk: one reload a minute at most, never a loop. */
const RELOADED_AT = 'portal-chunk-reload-at';
const RELOAD_EVERY_MS = 60_000;

/** Whether this tab may reload for a missing chunk now (read only: the reload itself notes its time). */
function mayReload(now: number): boolean {
  try {
    return now - Number(sessionStorage.getItem(RELOADED_AT) ?? 0) >= RELOAD_EVERY_MS;
  } catch {
    return false; // storage refused: no way to know it is not a loop
  }
}

/**
 * Any screen that fails (the routes' one error element). A page whose code is gone after a release
 * is loaded again once, at the address asked for, so the new release starts instead of an error; the
 * same failure offline says the page is not kept on this device. Anything else: a plain message, a
 * reload and the way home, never the router's developer page. `reload` is for tests.
 */
export function RouteErrorPage({ reload = () => window.location.reload() }: { reload?: () => void }) {
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  const online = typeof navigator === 'undefined' || navigator.onLine;
  // Storage that reads but will not write: a reload could loop, so the message shows instead.
  const [cannotNote, setCannotNote] = useState(false);
  const reloading = chunk && online && !cannotNote && mayReload(Date.now());
  useEffect(() => {
    if (!reloading) return;
    try {
      sessionStorage.setItem(RELOADED_AT, String(Date.now()));
    } catch {
      setCannotNote(true);
      return;
    }
    reload();
  }, [reloading, reload]);
  if (reloading)
    return (
      <main className="flex min-h-dvh items-center justify-center px-4 text-center">
        <p role="status">{M.newRelease}</p>
      </main>
    );
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      <h1>{M.pageFailedTitle}</h1>
      <p className="max-w-md text-slate-600">{chunk && !online ? M.pageNotKeptOffline : M.pageFailed}</p>
      <div className="flex flex-wrap justify-center gap-3">
        <button type="button" className={buttonClass('primary')} onClick={reload}>
          {M.reload}
        </button>
        <Link to="/" reloadDocument className={buttonClass('secondary')}>
          {M.goHome}
        </Link>
      </div>
    </main>
  );
}

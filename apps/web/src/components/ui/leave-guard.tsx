import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { AUTOSAVE_MESSAGES as M } from '@portal/domain/autosave-screens';
import { sessionEndedHere } from '../../lib/auth-store';
import { ConfirmPanel } from './confirm-panel';

/**
 * Leaving an entry sheet inside the app (a link, the back button, another class or date) with
 * anything unsaved: what waits is sent at once, and the app goes on by itself once all of it is
 * stored. What cannot be stored now (no network, a mistake in a cell, a conflict) is said, with the
 * choice to stay or leave anyway. Closing or reloading the page is asked by the browser
 * (`useAutosaveRows`' beforeunload).
 */
export function LeaveGuard({
  unsaved,
  saving,
  flush,
  notSaved = M.leaveNotSaved,
}: {
  /** Rows holding something not stored. */
  unsaved: number;
  /** Rows on the wire now. */
  saving: number;
  /** Sends every row waiting, now. */
  flush: () => void;
  /** The words for rows that are not saved (the register is one row: its own words). */
  notSaved?: (n: number) => string;
}) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      // Signing out (or an ended session) is not leaving with work: the sign-out asked about it.
      unsaved > 0 &&
      !sessionEndedHere() &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  const blocked = blocker.state === 'blocked';
  useEffect(() => {
    if (blocked) flush();
  }, [blocked, flush]);
  useEffect(() => {
    if (blocked && unsaved === 0) blocker.proceed();
  }, [blocked, unsaved, blocker]);
  if (!blocked || unsaved === 0) return null;
  return (
    <div className="fixed inset-x-0 bottom-0 z-50 p-2 sm:bottom-4 sm:left-auto sm:right-4 sm:max-w-md">
      <ConfirmPanel
        label={M.leaveTitle}
        confirm={M.leave}
        cancel={M.stay}
        danger
        loading={false}
        onConfirm={() => blocker.proceed()}
        onCancel={() => blocker.reset()}
        className="shadow-lg"
      >
        <p role="status">{saving > 0 ? M.leaveSaving(unsaved) : notSaved(unsaved)}</p>
      </ConfirmPanel>
    </div>
  );
}

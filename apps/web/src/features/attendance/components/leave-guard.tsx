import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { ATTENDANCE_SCREEN_LABELS as L, ATTENDANCE_SCREEN_MESSAGES as M } from '@portal/domain/attendance-screens';
import { Button } from '../../../components/ui/button';

/**
 * Unsaved marks are not lost silently: leaving the screen (or changing its class, date or period)
 * asks first, and so does closing or reloading the page.
 */
export function LeaveGuard({ dirty }: { dirty: boolean }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  if (blocker.state !== 'blocked') return null;
  return (
    <div role="alertdialog" aria-label={M.leaveUnsaved} className="mb-3 rounded-lg border border-amber-500 bg-amber-50 p-3">
      <p className="text-sm text-amber-950">{M.leaveUnsaved}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="danger" onClick={() => blocker.proceed()}>
          {L.leave}
        </Button>
        <Button variant="secondary" onClick={() => blocker.reset()}>
          {L.stay}
        </Button>
      </div>
    </div>
  );
}

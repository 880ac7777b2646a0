import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { OFFLINE_SAFETY_MESSAGES as M } from '@portal/domain/offline-safety-screens';
import type { Session } from '../../lib/auth-store';
import { logout, sendBeforeSignOut, unsentBeforeSignOut } from '../../lib/logout';
import { useOnline } from '../../lib/offline/online';
import { userOf } from '../../lib/offline/user';
import { othersWaiting } from '../../lib/offline-session';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { RevealedPanel } from '../ui/confirm-panel';

/**
 * Logout (issue 35.4): with changes of this account not sent yet, it asks first: send them now
 * (online), sign out and discard them, or stay. Signing out clears the account's offline data.
 */
export function SignOutButton({ session, disabled }: { session: Session; disabled: boolean }) {
  const navigate = useNavigate();
  const online = useOnline();
  const [ask, setAsk] = useState<{ unsent: number; failed: boolean } | null>(null);
  const [busy, setBusy] = useState<'send' | 'out' | null>(null);

  const signOut = async () => {
    setBusy('out');
    navigate(await logout(session.role), { replace: true });
  };
  const start = async () => {
    const unsent = await unsentBeforeSignOut();
    if (unsent === 0) return signOut();
    setAsk({ unsent, failed: false });
  };
  const sendFirst = async () => {
    setBusy('send');
    const result = await sendBeforeSignOut();
    setBusy(null);
    if (!result || result.failed.length === 0) return signOut();
    setAsk({ unsent: result.failed.length, failed: true });
  };

  return (
    <>
      <button
        type="button"
        className="min-h-11 rounded-lg border border-white/40 px-3 text-sm font-semibold hover:bg-white/10 disabled:opacity-60"
        disabled={disabled || busy !== null}
        onClick={() => void start()}
      >
        Logout
      </button>
      {ask && (
        <div className="fixed inset-x-0 top-16 z-50 p-2 text-slate-950 sm:left-auto sm:right-4 sm:max-w-md">
          <RevealedPanel label={M.signOutTitle} className="shadow-lg">
            <p className="font-semibold">{M.signOutTitle}</p>
            <p className="mt-1 text-sm" data-testid="sign-out-unsent">
              {ask.failed ? M.sendFailed(ask.unsent) : M.signOutUnsent(ask.unsent)}
            </p>
            {!online && <p className="mt-1 text-sm">{M.signOutOffline}</p>}
            <div className="mt-3 flex flex-wrap gap-2">
              <Button loading={busy === 'send'} disabled={!online || busy !== null} onClick={() => void sendFirst()}>
                {busy === 'send' ? M.sending : M.sendFirst}
              </Button>
              <Button variant="danger" loading={busy === 'out'} disabled={busy !== null} onClick={() => void signOut()}>
                {M.discardAndSignOut}
              </Button>
              <Button variant="secondary" disabled={busy !== null} onClick={() => setAsk(null)}>
                {M.stay}
              </Button>
            </div>
          </RevealedPanel>
        </div>
      )}
    </>
  );
}

/** Rows another account left queued on this phone (an expired session): counted, never shown, never sent. */
export function OtherAccountsNotice({ session }: { session: Session | null }) {
  const user = userOf(session);
  const [waiting, setWaiting] = useState(0);
  useEffect(() => {
    if (!user) return;
    let live = true;
    void othersWaiting(user).then((n) => {
      if (live) setWaiting(n);
    });
    return () => {
      live = false;
    };
  }, [user]);
  if (!user || !waiting) return null;
  return (
    <Alert tone="info" className="no-print mb-5">
      <span data-testid="other-accounts-waiting">{M.otherUsersChanges(waiting)}</span>
    </Alert>
  );
}

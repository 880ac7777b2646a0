import type { QueryClient } from '@tanstack/react-query';
import { REGISTER_KIND } from '../features/attendance/register-kind';
import { COMMENTS_KIND, RATINGS_KIND } from '../features/report-sheets/sheet-kinds';
import { getSession } from '../lib/auth-store';
import { currentTermQuery } from '../lib/current-term';
import { userOf } from '../lib/offline/user';
import { noteCurrentTerm, onOfflineSignIn } from '../lib/offline-session';

/**
 * What the app keeps on this phone without a screen asking (issue 35, docs/decisions/044): at start,
 * back online and after each sign-in, the school's current term (the partition; older terms' copies
 * dropped) and, for a teacher, the day's registers and arm list (form teachers) and the score sheets of
 * their own arm-subjects (features/results/score-offline.ts). The register's queued rows get
 * their sender, so sign-out's "send first" and a new sign-in send them with no register open; so do
 * the ratings and comments sheets' rows (features/report-sheets/sheet-outbox.ts).
 * The register's and the sheets' code is loaded only when it is needed.
 */
export function startOfflineKeeping(qc: QueryClient): void {
  if (typeof window === 'undefined') return;
  const registers = () => import('../features/attendance/register-outbox');
  // The core (IndexedDB) after the first script: senders are asked for only when a queue is sent.
  const sheets = () => import('../features/report-sheets/sheet-outbox');
  void import('../lib/offline').then(({ registerOutboxSender }) => {
    registerOutboxSender(REGISTER_KIND, async (rec) => (await registers()).sendQueuedRegister(rec, qc));
    registerOutboxSender(RATINGS_KIND, async (rec) => (await sheets()).sendQueuedRating(rec, qc));
    registerOutboxSender(COMMENTS_KIND, async (rec) => (await sheets()).sendQueuedComment(rec, qc));
  });
  const keep = async () => {
    const session = getSession();
    const user = userOf(session);
    if (!session || !user || !navigator.onLine) return;
    const current = await qc.fetchQuery(currentTermQuery);
    await noteCurrentTerm(user, current);
    if (session.role !== 'staff') return;
    // Each kept on its own: a register that cannot be fetched today (no school) keeps no sheet from the phone.
    await (await registers()).keepRegisterOffline(qc, current).catch(() => undefined);
    await (await import('../features/results/keep-own-sheets')).keepOwnSheets(qc, current);
  };
  const run = () => void keep().catch(() => undefined);
  run();
  window.addEventListener('online', run);
  onOfflineSignIn(run);
}

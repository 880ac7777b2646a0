import { useEffect, useState } from 'react';
import type { LoadedRow, RowTransport } from '../autosave/row-outbox';
import { PersistentOutboxStore, type SendMany } from './outbox-store';
import type { OfflineScope } from './store';

/**
 * A sheet's rows kept on this phone: the `store` and guarded `send` for `useAutosaveRows`, and the
 * rows queued earlier (a reload, the browser closed) to `restore` once the sheet is loaded. Without
 * a scope (nobody signed in) the rows live in memory only and nothing is restored.
 */
export function usePersistentRows<V, S>({
  scope,
  kind,
  sheet,
  send,
  sendMany,
}: {
  scope: OfflineScope | null;
  kind: string;
  sheet: string;
  send: RowTransport<V, S>['send'];
  /** Rows sent at one moment in one request (the queue once back online). */
  sendMany?: SendMany<V, S>;
}) {
  // One store per sheet (the editor is keyed by sheet): built once.
  const [store] = useState(() => (scope ? new PersistentOutboxStore<V, S>(scope, kind, sheet) : undefined));
  const [restore, setRestore] = useState<readonly LoadedRow<V, S>[] | undefined>(store ? undefined : []);
  useEffect(() => {
    if (!store) return;
    let live = true;
    void store.load().then((rows) => {
      if (live) setRestore(rows);
    });
    return () => {
      live = false;
    };
  }, [store]);
  const guarded: RowTransport<V, S>['send'] = store ? store.guard(send, sendMany) : send;
  // Kept rows leave together: the outbox may put a whole queue on the wire at once (one request).
  return { store, send: guarded, restore, maxInFlight: store && sendMany ? 200 : undefined };
}

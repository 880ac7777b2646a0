import { startTransition, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { sessionEndedHere } from '../auth-store';
import { useOnline } from '../offline/online';
import {
  countRows,
  RowOutbox,
  type LoadedRow,
  type OutboxRow,
  type OutboxStore,
  type RowRules,
  type RowTransport,
  type SaveFailure,
} from './row-outbox';

export interface AutosaveOptions<V, S> {
  /** The sheet's rows as loaded; a new array is loaded into the outbox (rows holding unsent edits stay). */
  rows: readonly LoadedRow<V, S>[] | undefined;
  send: RowTransport<V, S>['send'];
  rules: RowRules<V, S>;
  /** Milliseconds after a row's last edit before it is sent; null: only when asked (`saveNow`). */
  debounceMs: number | null;
  onSaved?: (key: string) => void;
  onFailed?: (key: string, failure: SaveFailure<S>) => void;
  store?: OutboxStore<V, S>;
  /** At most this many rows on the wire (the engine's default: 4). */
  maxInFlight?: number;
  /** Rows the store kept unsent (lib/offline: a reload, the browser closed): put back once the sheet is loaded. */
  restore?: readonly LoadedRow<V, S>[];
}


/**
 * A screen's rows on the row outbox (`row-outbox.ts`): renders them (typing at once, a save's
 * progress as a transition, after the keystroke has painted), sends failed rows again when the
 * browser comes back online, sends what is waiting when the screen is left inside the app, and
 * asks before the page is closed or reloaded with anything unsent. Leaving inside the app with
 * unsent rows is asked by `LeaveGuard` (components/ui/leave-guard.tsx), given `guard`.
 */
export function useAutosaveRows<V, S>(options: AutosaveOptions<V, S>) {
  // Handlers and rules read the latest options (the sheet, a typed reason) without rebuilding the outbox.
  const latest = useRef(options);
  useLayoutEffect(() => {
    latest.current = options;
  });
  const [outbox] = useState(
    () =>
      new RowOutbox<V, S>({
        debounceMs: options.debounceMs,
        maxInFlight: options.maxInFlight,
        transport: { send: (key, value, base) => latest.current.send(key, value, base) },
        rules: {
          valid: (v) => latest.current.rules.valid(v),
          unchanged: (v, b) => latest.current.rules.unchanged(v, b),
          stored: (b) => latest.current.rules.stored(b),
          version: (b) => latest.current.rules.version(b),
          failure: (e) => latest.current.rules.failure(e),
          refusal: (k, v) => latest.current.rules.refusal?.(k, v) ?? null,
          afterSave: (v, s, newer) => (latest.current.rules.afterSave ? latest.current.rules.afterSave(v, s, newer) : v),
          reloaded: (row, s, v) => latest.current.rules.reloaded?.(row, s, v) ?? null,
        },
        store: options.store,
        onSaved: (key) => latest.current.onSaved?.(key),
        onFailed: (key, f) => latest.current.onFailed?.(key, f),
      }),
  );
  const [rows, setRows] = useState<Readonly<Record<string, OutboxRow<V, S>>>>(outbox.rows);
  useEffect(
    () =>
      outbox.subscribe((urgent) => {
        const next = outbox.rows;
        if (urgent) setRows(next);
        else startTransition(() => setRows(next));
      }),
    [outbox],
  );

  const loaded = options.rows;
  useEffect(() => {
    if (loaded) outbox.load(loaded);
  }, [outbox, loaded]);
  const restore = options.restore;
  const restored = useRef(false);
  useEffect(() => {
    if (!loaded || !restore || restored.current) return;
    restored.current = true;
    if (restore.length) outbox.restore(restore);
  }, [outbox, loaded, restore]);

  // Running while shown; leaving the screen sends what waits, once (StrictMode mounts twice: start again).
  useEffect(() => {
    outbox.start();
    const back = () => outbox.online();
    window.addEventListener('online', back);
    return () => {
      window.removeEventListener('online', back);
      outbox.stop();
    };
  }, [outbox]);

  const counts = useMemo(() => countRows(rows), [rows]);
  const anyUnsaved = counts.unsaved > 0;
  useEffect(() => {
    if (!anyUnsaved) return;
    const warn = (e: BeforeUnloadEvent) => {
      // Signed out or the session ended (the app is going to a sign-in page): nothing to keep here.
      if (sessionEndedHere()) return;
      e.preventDefault();
      // Older browsers show the dialog only with a return value.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [anyUnsaved]);

  const online = useOnline();
  const actions = useMemo(
    () => ({
      edit: (key: string, update: (value: V) => V) => outbox.edit(key, update),
      saveNow: (key: string) => outbox.saveNow(key),
      saveAll: () => outbox.saveAll(),
      rebase: (key: string, base: S, value?: V, send?: boolean) => outbox.rebase(key, base, value, send),
      /** A row as it stands now (handlers read it without depending on every render's rows). */
      rowOf: (key: string): OutboxRow<V, S> | undefined => outbox.rows[key],
    }),
    [outbox],
  );
  /** What `LeaveGuard` needs. */
  const guard = useMemo(() => ({ unsaved: counts.unsaved, saving: counts.saving, flush: actions.saveAll }), [counts, actions]);

  return { rows, ...actions, ...counts, online, guard };
}

export type AutosaveRows<V, S> = ReturnType<typeof useAutosaveRows<V, S>>;

import { hashKey, type QueryKey } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { offlineScope } from './offline-session';

/**
 * A query whose answer is kept on this phone (issue 35.2, 35.5; docs/decisions/044): every answer
 * is put in the offline core's sheet cache under the signed-in account and term, and a request that
 * cannot reach the server (offline, a timeout) is answered from that copy instead. The copy is marked
 * (`keptAt`) so the screen says it is a saved copy and since when. Signed out, nothing is kept.
 * `networkMode: 'always'`: offline, the query still runs and meets its copy (TanStack would pause it).
 */
const kept = new WeakMap<object, number>();
// The sheet cache (IndexedDB, idb) is loaded with the first answer to keep, not with the first script.
const cache = () => import('./offline/sheet-cache').then((m) => m.sheetCache);

/** Whether a failure means the server was not reached (the copy answers), not that it refused. */
export const unreachable = (err: unknown) => err instanceof ApiError && (err.kind === 'network' || err.kind === 'timeout');

export function keptOffline<T>(kind: string, queryKey: QueryKey, fetch: (signal?: AbortSignal) => Promise<T>) {
  const sheet = hashKey(queryKey);
  return {
    queryFn: async ({ signal }: { signal?: AbortSignal } = {}): Promise<T> => {
      try {
        const data = await fetch(signal);
        const scope = offlineScope();
        if (scope) void cache().then((c) => c.put(scope, kind, sheet, data));
        return data;
      } catch (err) {
        const scope = unreachable(err) ? offlineScope() : null;
        const copy = scope ? await (await cache()).get<T>(scope, kind, sheet) : null;
        if (!copy) throw err;
        // A fresh object per read, so the mark never sticks to an answer that came from the server.
        const data = structuredClone(copy.data);
        if (data && typeof data === 'object') kept.set(data, copy.fetchedAt);
        return data;
      }
    },
    networkMode: 'always' as const,
    // The copy must stay the object marked (structural sharing would hand back the previous answer).
    structuralSharing: false,
  };
}

/** When the shown data was saved, if it is the kept copy (null: it came from the server). */
export function keptAt(data: unknown): number | null {
  return data && typeof data === 'object' ? (kept.get(data) ?? null) : null;
}

// Changes of kept copies go one after another (four saves may answer at once).
let keptWrites: Promise<void> = Promise.resolve();

/**
 * Changes the kept copy of a query (a row saved since the copy was made: its stored value and
 * version), so a reload offline starts from what the server stores. Nothing kept, nothing changed.
 */
export function updateKept<T>(kind: string, queryKey: QueryKey, update: (data: T) => T): Promise<void> {
  const scope = offlineScope();
  if (!scope) return Promise.resolve();
  const sheet = hashKey(queryKey);
  keptWrites = keptWrites
    .then(async () => {
      const c = await cache();
      const copy = await c.get<T>(scope, kind, sheet);
      if (copy) await c.put(scope, kind, sheet, update(copy.data), copy.fetchedAt);
    })
    .catch(() => undefined);
  return keptWrites;
}

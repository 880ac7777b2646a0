import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/**
 * The offline core's IndexedDB database (decision 044). Every record carries its partition: the
 * signed-in user (`role:publicId`) and the term (`sessionId:term`), so another user on the same
 * phone never reads it and a past term's data can be dropped. Two stores:
 * - `sheets`: a screen's data as last fetched, with the time it was fetched;
 * - `outbox`: rows typed and not yet stored by the server (value + the stored value it was made on),
 *   in the order they were queued; `sent`: the last answer per row, so a second tab holding the same
 *   queued row takes that answer instead of sending it again.
 */
export const OFFLINE_DB = 'portal-offline';
const VERSION = 1;

/** Whose data and which term: the partition of every record. */
export interface OfflineScope {
  /** `role:publicId` of the signed-in account. */
  user: string;
  /** `sessionId:term`, e.g. `3:1st`. */
  term: string;
}

export interface SheetRecord<T = unknown> {
  /** `user|term|kind|sheet` */
  id: string;
  user: string;
  term: string;
  kind: string;
  sheet: string;
  data: T;
  /** Milliseconds since the epoch when `data` came from the server. */
  fetchedAt: number;
}

export interface OutboxRecord<V = unknown, S = unknown> {
  /** `user|term|kind|sheet|row` */
  id: string;
  user: string;
  term: string;
  kind: string;
  sheet: string;
  /** `user|term|kind|sheet`: the index of one sheet's rows. */
  sheetId: string;
  row: string;
  value: V;
  base: S;
  /** Queue order (a counter across tabs: the time of the first unsent edit, then a tie-breaker). */
  order: number;
  updatedAt: number;
}

export interface SentRecord<V = unknown, S = unknown> {
  id: string;
  user: string;
  value: V;
  /** The stored value the sent one was made on. */
  base: S;
  stored: S;
  at: number;
}

interface OfflineSchema extends DBSchema {
  sheets: { key: string; value: SheetRecord; indexes: { user: string } };
  outbox: { key: string; value: OutboxRecord; indexes: { user: string; sheetId: string } };
  sent: { key: string; value: SentRecord; indexes: { user: string } };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;

let opening: Promise<OfflineDb> | null = null;

/** The database, opened once per page (null where IndexedDB is missing: private modes of old browsers). */
export function openOfflineStore(): Promise<OfflineDb> {
  if (typeof indexedDB === 'undefined') return Promise.reject(new Error('IndexedDB is not available'));
  opening ??= openDB<OfflineSchema>(OFFLINE_DB, VERSION, {
    upgrade(db) {
      db.createObjectStore('sheets', { keyPath: 'id' }).createIndex('user', 'user');
      const outbox = db.createObjectStore('outbox', { keyPath: 'id' });
      outbox.createIndex('user', 'user');
      outbox.createIndex('sheetId', 'sheetId');
      db.createObjectStore('sent', { keyPath: 'id' }).createIndex('user', 'user');
    },
    // Another tab opens a newer version (an update of the app): let it, this page reopens on next use.
    blocking() {
      void opening?.then((db) => db.close());
      opening = null;
    },
  }).catch((err: unknown) => {
    opening = null;
    throw err;
  });
  return opening;
}

/** For tests: forget the open connection (fake-indexeddb is reset between them). */
export async function closeOfflineStore(): Promise<void> {
  const db = await opening?.catch(() => null);
  db?.close();
  opening = null;
}

/** The scope of an account and a term. */
export const scopeOf = (session: { role: string; publicId: string }, sessionId: number | string, term: string): OfflineScope => ({
  user: `${session.role}:${session.publicId}`,
  term: `${sessionId}:${term}`,
});

export const sheetIdOf = (scope: OfflineScope, kind: string, sheet: string) => `${scope.user}|${scope.term}|${kind}|${sheet}`;
export const rowIdOf = (scope: OfflineScope, kind: string, sheet: string, row: string) => `${sheetIdOf(scope, kind, sheet)}|${row}`;

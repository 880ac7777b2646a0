import { notifyOfflineChange } from './changes';
import { openOfflineStore, sheetIdOf, type OfflineScope, type SheetRecord } from './store';

/**
 * A screen's data as last fetched online, with the time it was fetched: what the screen shows
 * offline. Writes never throw at the screen (a full or missing IndexedDB only loses the copy).
 */
export const sheetCache = {
  async put<T>(scope: OfflineScope, kind: string, sheet: string, data: T, fetchedAt = Date.now()): Promise<void> {
    try {
      const db = await openOfflineStore();
      const rec: SheetRecord<T> = { id: sheetIdOf(scope, kind, sheet), user: scope.user, term: scope.term, kind, sheet, data, fetchedAt };
      await db.put('sheets', rec);
      notifyOfflineChange();
    } catch {
      // No copy kept: the screen still works online.
    }
  },

  async get<T>(scope: OfflineScope, kind: string, sheet: string): Promise<{ data: T; fetchedAt: number } | null> {
    try {
      const db = await openOfflineStore();
      const rec = await db.get('sheets', sheetIdOf(scope, kind, sheet));
      return rec ? { data: rec.data as T, fetchedAt: rec.fetchedAt } : null;
    } catch {
      return null;
    }
  },

  /** Every kept sheet of a user (of one kind). */
  async list<T>(user: string, kind?: string): Promise<SheetRecord<T>[]> {
    try {
      const db = await openOfflineStore();
      const all = await db.getAllFromIndex('sheets', 'user', user);
      return (kind ? all.filter((r) => r.kind === kind) : all) as SheetRecord<T>[];
    } catch {
      return [];
    }
  },
};

import type { LoadedRow, OutboxStore, RowTransport } from '../autosave/row-outbox';
import { notifyOfflineChange } from './changes';
import { withRowLock } from './row-lock';
import { openOfflineStore, rowIdOf, sheetIdOf, type OfflineScope, type OutboxRecord, type SentRecord } from './store';

/** Values compared as stored (plain JSON: cells, ratings, marks). */
export const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Accounts signed out on this page (`accountSignedOut`). */
const signedOut = new Set<string>();

/** An account signed out (true) or in again (false) on this page: its stores keep nothing while it is out. */
export function accountSignedOut(user: string, out: boolean): void {
  if (out) signedOut.add(user);
  else signedOut.delete(user);
}

let counter = 0;
/** Queue order across tabs and reloads: the time first queued, a counter breaking ties. */
const nextOrder = () => Date.now() * 1000 + (counter++ % 1000);

/**
 * The row outbox's `store` seam on IndexedDB (decision 044): every row holding something unsent
 * is kept with the stored value it was made on, one record per row (a second edit replaces the
 * first: coalescing), in the order it was first queued. `put` is synchronous for the engine; the
 * writes are chained in order, `idle()` waits for them.
 */
export class PersistentOutboxStore<V, S> implements OutboxStore<V, S> {
  private chain: Promise<void> = Promise.resolve();
  private gate: Promise<void> = Promise.resolve();

  constructor(
    readonly scope: OfflineScope,
    readonly kind: string,
    readonly sheet: string,
  ) {}

  rowId(key: string): string {
    return rowIdOf(this.scope, this.kind, this.sheet, key);
  }

  put(key: string, entry: { value: V; base: S } | null): void {
    // After the account signed out on this page, an open sheet's last sends write nothing back
    // (lib/logout.ts has cleared the account's rows).
    if (signedOut.has(this.scope.user)) return;
    const id = this.rowId(key);
    this.chain = this.chain
      .then(async () => {
        const db = await openOfflineStore();
        const tx = db.transaction('outbox', 'readwrite');
        const cur = await tx.store.get(id);
        if (!entry) {
          if (cur) await tx.store.delete(id);
        } else if (!cur || !sameValue(cur.value, entry.value) || !sameValue(cur.base, entry.base)) {
          const rec: OutboxRecord<V, S> = {
            id,
            user: this.scope.user,
            term: this.scope.term,
            kind: this.kind,
            sheet: this.sheet,
            sheetId: sheetIdOf(this.scope, this.kind, this.sheet),
            row: key,
            value: entry.value,
            base: entry.base,
            order: cur?.order ?? nextOrder(),
            updatedAt: Date.now(),
          };
          await tx.store.put(rec);
        }
        await tx.done;
        if (!entry ? cur : true) notifyOfflineChange();
      })
      .catch(() => {
        // IndexedDB refused (full, private mode): the row stays in memory and is still sent.
      });
  }

  /** Every write asked so far is done. */
  idle(): Promise<void> {
    return this.chain;
  }

  /** The sheet's rows kept unsent, oldest first: restored into the sheet when it opens. */
  async load(): Promise<LoadedRow<V, S>[]> {
    await this.idle();
    try {
      const db = await openOfflineStore();
      const recs = await db.getAllFromIndex('outbox', 'sheetId', sheetIdOf(this.scope, this.kind, this.sheet));
      return recs.sort((a, b) => a.order - b.order).map((r) => ({ key: r.row, value: r.value as V, base: r.base as S }));
    } catch {
      return [];
    }
  }

  /**
   * A transport that sends a row under the row's lock (one tab at a time) and sends nothing when
   * another tab (or `flushOutbox`) has already sent this very value: its answer is taken instead.
   */
  guard(send: RowTransport<V, S>['send']): RowTransport<V, S>['send'] {
    return async (key, value, base) => {
      // Requests leave in the order the outbox asks (oldest edit first): each waits for the one
      // before it to be on the wire (not answered), outside the row's lock (no waiting in a circle across tabs).
      const before = this.gate;
      let issued!: () => void;
      const mine = new Promise<void>((resolve) => (issued = resolve));
      this.gate = before.then(() => mine);
      await before;
      try {
        return await sendOnce(
          this.rowId(key),
          this.scope.user,
          value,
          base,
          () => {
            const wire = send(key, value, base);
            issued();
            return wire;
          },
          () => this.idle(),
        );
      } finally {
        issued();
      }
    };
  }
}

/**
 * Sends one row at most once across tabs and reloads: under the row's lock, an answer kept for
 * this very value made on this very base means another tab (or `flushOutbox`) sent it already, and
 * that answer is taken instead of a second request. After an answer, it is kept and the queued
 * record dropped if it still holds this value (a newer edit stays queued).
 */
export async function sendOnce<V, S>(
  id: string,
  user: string,
  value: V,
  base: S,
  send: () => Promise<S>,
  before: () => Promise<void> = () => Promise.resolve(),
): Promise<S> {
  return withRowLock(id, async () => {
    await before();
    const db = await openOfflineStore().catch(() => null);
    const done = async (stored: S, keep: boolean) => {
      if (!db) return;
      try {
        const tx = db.transaction(['outbox', 'sent'], 'readwrite');
        if (keep) {
          const rec: SentRecord<V, S> = { id, user, value, base, stored, at: Date.now() };
          await tx.objectStore('sent').put(rec);
        }
        const queued = await tx.objectStore('outbox').get(id);
        if (queued && sameValue(queued.value, value)) await tx.objectStore('outbox').delete(id);
        await tx.done;
        notifyOfflineChange();
      } catch {
        // The answer is still the screen's; only the cross-tab record is lost.
      }
    };
    const sent = db ? await db.get('sent', id).catch(() => undefined) : undefined;
    if (sent && sameValue(sent.value, value) && sameValue(sent.base, base)) {
      await done(sent.stored as S, false);
      return sent.stored as S;
    }
    const stored = await send();
    await done(stored, true);
    return stored;
  });
}

// ---------- sending the queue with no sheet open ----------

/** How one kind of row is sent when its sheet is not open (`flushOutbox`): resolves to the row as stored. */
export type OutboxSender = (rec: OutboxRecord) => Promise<unknown>;
const senders = new Map<string, OutboxSender>();

/** A sheet kind's sender, registered by its feature (the score grid: 'score'). */
export function registerOutboxSender(kind: string, sender: OutboxSender): void {
  senders.set(kind, sender);
}

/** The users with rows queued on this browser (an account whose session ended keeps its queue). */
export async function queuedAccounts(): Promise<string[]> {
  try {
    const db = await openOfflineStore();
    return [...new Set((await db.getAll('outbox')).map((r) => r.user))];
  } catch {
    return [];
  }
}

/** Rows queued for a user, oldest first. */
export async function unsentRows(user: string): Promise<OutboxRecord[]> {
  try {
    const db = await openOfflineStore();
    return (await db.getAllFromIndex('outbox', 'user', user)).sort((a, b) => a.order - b.order);
  } catch {
    return [];
  }
}

export interface FlushResult {
  sent: number;
  /** Rows that stay queued: refused, in conflict, no network, or no sender for their kind. */
  failed: { record: OutboxRecord; error: unknown }[];
}

/**
 * Sends every queued row of the user, oldest first, one at a time, each under its lock (an open
 * sheet sending the same row waits and then takes this answer). A row that fails stays queued:
 * its sheet shows why when opened (a conflict with both values).
 */
export async function flushOutbox(user: string): Promise<FlushResult> {
  const out: FlushResult = { sent: 0, failed: [] };
  for (const rec of await unsentRows(user)) {
    const sender = senders.get(rec.kind);
    if (!sender) {
      out.failed.push({ record: rec, error: new Error(`No sender for ${rec.kind}`) });
      continue;
    }
    try {
      await sendOnce(rec.id, user, rec.value, rec.base, () => sender(rec));
      out.sent++;
    } catch (error) {
      out.failed.push({ record: rec, error });
    }
  }
  return out;
}

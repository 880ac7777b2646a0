import type { LoadedRow, OutboxStore, RowTransport } from '../autosave/row-outbox';
import { notifyOfflineChange } from './changes';
import { isOffline } from './online';
import { withRowLock } from './row-lock';
import { ApiError } from '../api-client';
import { openOfflineStore, rowIdOf, sheetIdOf, type OfflineDb, type OfflineScope, type OutboxRecord } from './store';

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

/** Several rows sent in one request: resolves to each row as stored, by key; throws the API's error. */
export type SendMany<V, S> = (rows: readonly LoadedRow<V, S>[]) => Promise<ReadonlyMap<string, S>>;

interface Waiting<V, S> {
  key: string;
  value: V;
  base: S;
  resolve: (s: S) => void;
  reject: (e: unknown) => void;
}

/**
 * The row outbox's `store` seam on IndexedDB (decision 044): every row holding something unsent
 * is kept with the stored value it was made on, one record per row (a second edit replaces the
 * first: coalescing), in the order it was first queued. `put` is synchronous for the engine: the
 * puts of one moment are written in one transaction, in order; `idle()` waits for them.
 */
export class PersistentOutboxStore<V, S> implements OutboxStore<V, S> {
  private chain: Promise<void> = Promise.resolve();
  private readonly pending = new Map<string, { value: V; base: S } | null>();
  private batch: Waiting<V, S>[] | null = null;

  constructor(
    readonly scope: OfflineScope,
    readonly kind: string,
    readonly sheet: string,
  ) {}

  rowId(key: string): string {
    return rowIdOf(this.scope, this.kind, this.sheet, key);
  }

  /** The lock every sender of this sheet's rows takes (this page's outbox, another tab's, flushOutbox). */
  get lockName(): string {
    return sheetIdOf(this.scope, this.kind, this.sheet);
  }

  put(key: string, entry: { value: V; base: S } | null): void {
    // After the account signed out on this page, an open sheet's last sends write nothing back
    // (lib/logout.ts has cleared the account's rows).
    if (signedOut.has(this.scope.user)) return;
    const first = this.pending.size === 0;
    this.pending.set(key, entry);
    if (first) this.chain = this.chain.then(() => this.write());
  }

  private async write(): Promise<void> {
    const puts = [...this.pending];
    this.pending.clear();
    try {
      const db = await openOfflineStore();
      // Signed out while these waited: sign-out's clearing must not be undone.
      if (signedOut.has(this.scope.user)) return;
      const tx = db.transaction('outbox', 'readwrite');
      let changed = false;
      for (const [key, entry] of puts) {
        const id = this.rowId(key);
        const cur = await tx.store.get(id);
        if (!entry) {
          if (cur) {
            await tx.store.delete(id);
            changed = true;
          }
        } else if (!cur || !sameValue(cur.value, entry.value) || !sameValue(cur.base, entry.base)) {
          const rec: OutboxRecord<V, S> = {
            id,
            user: this.scope.user,
            term: this.scope.term,
            kind: this.kind,
            sheet: this.sheet,
            sheetId: this.lockName,
            row: key,
            value: entry.value,
            base: entry.base,
            order: cur?.order ?? nextOrder(),
            updatedAt: Date.now(),
          };
          await tx.store.put(rec);
          changed = true;
        }
      }
      await tx.done;
      if (changed) notifyOfflineChange();
    } catch {
      // IndexedDB refused (full, private mode): the rows stay in memory and are still sent.
    }
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
      const recs = await db.getAllFromIndex('outbox', 'sheetId', this.lockName);
      return recs.sort((a, b) => a.order - b.order).map((r) => ({ key: r.row, value: r.value as V, base: r.base as S }));
    } catch {
      return [];
    }
  }

  /**
   * The transport the outbox uses: the rows it asks to send at one moment leave together (one
   * request through `sendMany` when given: 40 rows back online are one save, not 40), in the order
   * asked, under the sheet's lock (one sender at a time across tabs); a row whose very value made
   * on this very base was already sent (another tab, `flushOutbox`) takes that answer instead.
   */
  guard(send: RowTransport<V, S>['send'], sendMany?: SendMany<V, S>): RowTransport<V, S>['send'] {
    return (key, value, base) => {
      // Offline, nothing is queued behind the lock: a send that waited there could leave later, once
      // online, with a value typed since (the engine retries the row's latest value back online).
      if (isOffline()) return Promise.reject(new ApiError(0, null, 'network'));
      return new Promise<S>((resolve, reject) => {
        if (!this.batch) {
          this.batch = [];
          setTimeout(() => void this.flush(send, sendMany), 0);
        }
        this.batch.push({ key, value, base, resolve, reject });
      });
    };
  }

  private async flush(send: RowTransport<V, S>['send'], sendMany: SendMany<V, S> | undefined): Promise<void> {
    const items = this.batch ?? [];
    this.batch = null;
    await withRowLock(this.lockName, async () => {
      if (isOffline()) {
        for (const item of items) item.reject(new ApiError(0, null, 'network'));
        return;
      }
      await this.idle();
      const db = await openOfflineStore().catch(() => null);
      const todo: Waiting<V, S>[] = [];
      const done: { item: Waiting<V, S>; stored: S; fresh: boolean }[] = [];
      for (const item of items) {
        const sent = db ? await db.get('sent', this.rowId(item.key)).catch(() => undefined) : undefined;
        if (sent && sameValue(sent.value, item.value) && sameValue(sent.base, item.base))
          done.push({ item, stored: sent.stored as S, fresh: false });
        else todo.push(item);
      }
      let together: ReadonlyMap<string, S> | null = null;
      if (todo.length > 1 && sendMany) {
        try {
          together = await sendMany(todo.map(({ key, value, base }) => ({ key, value, base })));
        } catch (err) {
          // No network: every row failed alike. An answer (a conflict, a refused row): each row alone says which.
          if (!answered(err)) {
            for (const item of todo) item.reject(err);
            todo.length = 0;
          }
        }
      }
      const failed: { item: Waiting<V, S>; err: unknown }[] = [];
      for (const item of todo) {
        if (together?.has(item.key)) {
          done.push({ item, stored: together.get(item.key)!, fresh: true });
          continue;
        }
        try {
          done.push({ item, stored: await send(item.key, item.value, item.base), fresh: true });
        } catch (err) {
          failed.push({ item, err });
        }
      }
      if (db && done.length) await this.keep(db, done);
      for (const d of done) d.item.resolve(d.stored);
      for (const f of failed) f.item.reject(f.err);
    });
  }

  /** The answers kept (for other tabs), the queued records holding the sent values dropped. */
  private async keep(db: OfflineDb, done: { item: Waiting<V, S>; stored: S; fresh: boolean }[]): Promise<void> {
    try {
      const tx = db.transaction(['outbox', 'sent'], 'readwrite');
      for (const { item, stored, fresh } of done) {
        const id = this.rowId(item.key);
        if (fresh)
          await tx.objectStore('sent').put({ id, user: this.scope.user, value: item.value, base: item.base, stored, at: Date.now() });
        const queued = await tx.objectStore('outbox').get(id);
        if (queued && sameValue(queued.value, item.value)) await tx.objectStore('outbox').delete(id);
      }
      await tx.done;
      notifyOfflineChange();
    } catch {
      // The answers are still the screen's; only the cross-tab record is lost.
    }
  }
}

/** Whether the server answered (a refusal to look at row by row), not a lost request. */
function answered(err: unknown): boolean {
  return err instanceof ApiError && err.kind === 'http' && err.status < 500 && err.status !== 429;
}

/**
 * Sends one row at most once across tabs and reloads (flushOutbox, with no sheet open): under the
 * sheet's lock, an answer kept for this very value made on this very base means it was sent already.
 */
export async function sendOnce<V, S>(lock: string, id: string, user: string, value: V, base: S, send: () => Promise<S>): Promise<S> {
  return withRowLock(lock, async () => {
    const db = await openOfflineStore().catch(() => null);
    const drop = async (stored: S, keep: boolean) => {
      if (!db) return;
      try {
        const tx = db.transaction(['outbox', 'sent'], 'readwrite');
        if (keep) await tx.objectStore('sent').put({ id, user, value, base, stored, at: Date.now() });
        const queued = await tx.objectStore('outbox').get(id);
        if (queued && sameValue(queued.value, value)) await tx.objectStore('outbox').delete(id);
        await tx.done;
        notifyOfflineChange();
      } catch {
        // Only the cross-tab record is lost.
      }
    };
    const sent = db ? await db.get('sent', id).catch(() => undefined) : undefined;
    if (sent && sameValue(sent.value, value) && sameValue(sent.base, base)) {
      await drop(sent.stored as S, false);
      return sent.stored as S;
    }
    const stored = await send();
    await drop(stored, true);
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
      await sendOnce(rec.sheetId, rec.id, user, rec.value, rec.base, () => sender(rec));
      out.sent++;
    } catch (error) {
      out.failed.push({ record: rec, error });
    }
  }
  return out;
}

import { notifyOfflineChange } from './changes';
import { openOfflineStore } from './store';

/**
 * Removes the offline data of one user (every store), or of everyone on this browser. Sign-out
 * calls it after the warning about unsent rows (lib/logout.ts, issue 35.4). `keepUnsent`: the
 * user's queued rows stay (another account signing in: lib/offline-session.ts).
 */
export async function clearOfflineData(user?: string, { keepUnsent = false }: { keepUnsent?: boolean } = {}): Promise<void> {
  try {
    const db = await openOfflineStore();
    const tx = db.transaction(['sheets', 'outbox', 'sent'], 'readwrite');
    for (const name of keepUnsent ? (['sheets', 'sent'] as const) : (['sheets', 'outbox', 'sent'] as const)) {
      const store = tx.objectStore(name);
      if (user === undefined) await store.clear();
      else for (const key of await store.index('user').getAllKeys(user)) await store.delete(key);
    }
    await tx.done;
    notifyOfflineChange();
  } catch {
    // Nothing kept, nothing to clear.
  }
}

/**
 * Drops the data of every term but `currentTerm` (`sessionId:term`): kept sheets and answers.
 * Queued rows of an older term are kept unless `unsent: 'drop'`: they are a teacher's work not yet
 * stored (the badge shows them; flushOutbox still sends them, the server decides).
 */
export async function dropStale(currentTerm: string, { unsent = 'keep' }: { unsent?: 'keep' | 'drop' } = {}): Promise<number> {
  let dropped = 0;
  try {
    const db = await openOfflineStore();
    const names = unsent === 'drop' ? (['sheets', 'outbox'] as const) : (['sheets'] as const);
    const tx = db.transaction(['sheets', 'outbox', 'sent'], 'readwrite');
    for (const name of names) {
      let cursor = await tx.objectStore(name).openCursor();
      while (cursor) {
        if (cursor.value.term !== currentTerm) {
          await cursor.delete();
          dropped++;
        }
        cursor = await cursor.continue();
      }
    }
    // Answers are keyed `user|term|…`: the term is the id's second part.
    let sent = await tx.objectStore('sent').openCursor();
    while (sent) {
      if (sent.value.id.split('|')[1] !== currentTerm) await sent.delete();
      sent = await sent.continue();
    }
    await tx.done;
    if (dropped) notifyOfflineChange();
  } catch {
    // Nothing kept.
  }
  return dropped;
}

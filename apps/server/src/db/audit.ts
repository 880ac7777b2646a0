import type { Conn } from './index';
import { nowIso } from './index';
import { inSlices } from './slices';

export interface AuditEntry {
  actorUserId: number | null;
  action: string;
  entity: string;
  entityId: string | number;
  before?: unknown;
  after?: unknown;
}

/** Writes one audit row; call it inside the transaction that makes the change. */
export async function writeAudit(db: Conn, e: AuditEntry): Promise<void> {
  await writeAuditMany(db, [e]);
}

/**
 * Writes the audit row of a put to one term's row (its dates, its card's fields), under the entity id
 * "session id/term": 'create' when nothing was stored, else 'update', with `fields` of the row stored
 * before and of the values put.
 */
export async function writeTermPutAudit<T extends { session_id: number; term: string }, K extends keyof T>(
  db: Conn,
  actorUserId: number,
  entity: string,
  fields: readonly K[],
  before: Pick<T, K> | null | undefined,
  after: T,
): Promise<void> {
  const pick = (row: Pick<T, K>) => Object.fromEntries(fields.map((k) => [k, row[k]]));
  await writeAudit(db, {
    actorUserId,
    action: before ? 'update' : 'create',
    entity,
    entityId: `${after.session_id}/${after.term}`,
    before: before ? pick(before) : null,
    after: pick(after),
  });
}

export async function writeAuditMany(db: Conn, entries: AuditEntry[]): Promise<void> {
  if (!entries.length) return;
  const at = nowIso();
  await inSlices(
    entries,
    250,
    (slice) =>
      db
        .insertInto('audit_log')
        .values(
          slice.map((e) => ({
            actor_user_id: e.actorUserId,
            action: e.action,
            entity: e.entity,
            entity_id: String(e.entityId),
            before: e.before === undefined ? null : JSON.stringify(e.before),
            after: e.after === undefined ? null : JSON.stringify(e.after),
            created_at: at,
          })),
        )
        .execute(),
    { yieldBetween: true },
  );
}

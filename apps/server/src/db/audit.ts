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

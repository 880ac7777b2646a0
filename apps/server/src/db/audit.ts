import type { Conn } from './index';
import { nowIso } from './index';
import { yieldToEventLoop } from '../lib/yield';

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
  // Chunked so a bulk import stays under SQLite's bound-parameter limit.
  for (let i = 0; i < entries.length; i += 250) {
    if (i) await yieldToEventLoop();
    await db
      .insertInto('audit_log')
      .values(
        entries.slice(i, i + 250).map((e) => ({
          actor_user_id: e.actorUserId,
          action: e.action,
          entity: e.entity,
          entity_id: String(e.entityId),
          before: e.before === undefined ? null : JSON.stringify(e.before),
          after: e.after === undefined ? null : JSON.stringify(e.after),
          created_at: at,
        })),
      )
      .execute();
  }
}

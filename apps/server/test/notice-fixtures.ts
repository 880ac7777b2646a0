import { inTransaction, nowIso, type DB } from '../src/db/index';
import { queueNoticeMessages } from '../src/db/notice-outbox';
import type { NoticeKind } from '@portal/domain';
import '../src/modules/notices/notices.tables';
import '../src/modules/notices/templates.tables';
import { servicesOver, type TestContext } from './helpers';

let seq = 0;

/** A parent account linked to `studentIds` (no password anyone can use: the composer needs only the rows). */
export async function addParent(
  db: DB,
  p: {
    name: string;
    phone?: string | null;
    email?: string | null;
    studentIds: readonly number[];
    relationship?: 'father' | 'mother' | 'guardian';
  },
): Promise<{ userId: number; parentId: number; phone: string }> {
  const at = nowIso();
  const phone = p.phone ?? `+23480${String(10_000_000 + ++seq).padStart(8, '0')}`;
  const user = await db
    .insertInto('users')
    .values({
      role: 'parent',
      email: p.email ?? null,
      password_hash: 'x',
      must_change_password: 0,
      disabled: 0,
      token_version: 0,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const parent = await db
    .insertInto('parents')
    .values({ user_id: user.id, name: p.name, phone, email: p.email ?? null, created_at: at, invited_at: null, last_sign_in_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (p.studentIds.length)
    await db
      .insertInto('parent_links')
      .values(
        p.studentIds.map((s) => ({
          parent_id: parent.id,
          student_id: s,
          relationship: p.relationship ?? 'mother',
          source: 'admin',
          created_at: at,
        })),
      )
      .execute();
  return { userId: Number(user.id), parentId: Number(parent.id), phone };
}

/**
 * What the notices worker does first (notices-core's `expandEvents`), with the product's composer:
 * each unexpanded event composed and queued in one transaction, then marked expanded. Returns how
 * many events it expanded.
 */
export async function expandEvents(ctx: TestContext): Promise<number> {
  const composer = servicesOver(ctx).noticeComposer;
  const db = ctx.handle.db;
  const events = await db.selectFrom('notice_events').selectAll().where('expanded_at', 'is', null).orderBy('id').execute();
  for (const e of events) {
    await inTransaction(db, async (trx) => {
      const drafts = await composer.compose(trx, {
        id: e.id,
        kind: e.kind as NoticeKind,
        dedupeKey: e.dedupe_key,
        payload: JSON.parse(e.payload) as Record<string, unknown>,
        createdAt: e.created_at,
      });
      await queueNoticeMessages(
        trx,
        drafts.map((d) => ({ ...d, eventId: e.id })),
      );
      await trx.updateTable('notice_events').set({ expanded_at: nowIso() }).where('id', '=', e.id).execute();
    });
  }
  return events.length;
}

/** Every event of `kind`, oldest first, payload parsed. */
export async function eventsOf(ctx: TestContext, kind: NoticeKind) {
  const rows = await ctx.handle.db.selectFrom('notice_events').selectAll().where('kind', '=', kind).orderBy('id').execute();
  return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as Record<string, unknown> }));
}

/** Every message of `kind`, oldest first. */
export function messagesOf(ctx: TestContext, kind: NoticeKind) {
  return ctx.handle.db
    .selectFrom('notice_messages')
    .select(['id', 'event_id', 'blast_id', 'channel', 'recipient_user_id', 'to_address', 'subject', 'body', 'status'])
    .where('kind', '=', kind)
    .orderBy('id')
    .execute();
}

/** A blast of the admin's to every parent (a parent linked to `studentId` is added first), in `status`: its id. */
export async function freshBlast(
  ctx: TestContext,
  admin: { authorization: string },
  studentId: number,
  status: 'sending' | 'paused' = 'sending',
): Promise<number> {
  await addParent(ctx.handle.db, { name: 'Matrix Parent', studentIds: [studentId] });
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/notice-blasts/',
    headers: admin,
    payload: { audience: { kind: 'all' }, body: 'Matrix notice', channels: ['in_app'] },
  });
  if (res.statusCode !== 201) throw new Error(`blast: ${res.statusCode} ${res.body}`);
  const id = res.json<{ id: number }>().id;
  if (status === 'paused') await ctx.app.inject({ method: 'POST', url: `/api/notice-blasts/${id}/pause/`, headers: admin });
  return id;
}

/** A valid blast body for every parent, by SMS. */
export const BLAST_BODY = { audience: { kind: 'all' }, body: 'PTA meeting on Saturday', channels: ['sms'] };

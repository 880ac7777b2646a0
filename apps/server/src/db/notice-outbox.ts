import { PostgresAdapter, sql } from 'kysely';
import { cleanNoticeLine, cleanNoticeText, type NoticeChannel, type NoticeKind } from '@portal/domain';
import type { Conn } from './index';
import { nowIso } from './index';
import { inSlices } from './slices';

/**
 * The transactional outbox of notices (docs/decisions/036). An emitter (results released, a payment
 * received, a register saved...) calls `recordNoticeEvent` inside the transaction that makes its
 * change, so the event exists exactly when the change does; the notices worker later asks the
 * composer to expand it into messages and delivers them. Like `db/audit.ts`, a writer every module
 * may call without importing the notices module.
 */
export interface NoticeEventInput {
  kind: NoticeKind;
  /**
   * What makes this event one: recording the same key again writes nothing (a retried request, a
   * release pressed twice). E.g. `results_released:<session id>:<term>:<arm>`, `payment_received:<receipt no>`.
   */
  key: string;
  /** What the composer needs (ids, not rendered text): stored as JSON. */
  payload: Record<string, unknown>;
}

/**
 * Records an event in the caller's transaction; idempotent on `key`. Returns the event's id when
 * this call wrote it, null when the key was already recorded.
 */
export async function recordNoticeEvent(conn: Conn, e: NoticeEventInput, at: string = nowIso()): Promise<number | null> {
  const row = await conn
    .insertInto('notice_events')
    .values({ kind: e.kind, dedupe_key: e.key.slice(0, 200), payload: JSON.stringify(e.payload), created_at: at, expanded_at: null })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

/** One message to queue: a recipient on a channel, its text already rendered. */
export interface NoticeMessageDraft {
  kind: NoticeKind;
  channel: NoticeChannel;
  /** The account it is for (in-app notices need one; opt-outs and the daily cap read it). */
  recipientUserId?: number | null;
  /** Phone (+234…) for SMS, email address for email, '' for in-app. */
  toAddress: string;
  subject?: string;
  body: string;
  /** Sent through quiet hours and past the daily cap. */
  urgent?: boolean;
  eventId?: number | null;
  blastId?: number | null;
  /** Not before this instant (ISO); now by default. */
  notBefore?: string;
}

/** The key a message is unique by per event (or blast) and channel: the account, else the address. */
export function recipientKeyOf(d: Pick<NoticeMessageDraft, 'recipientUserId' | 'toAddress'>): string {
  return d.recipientUserId ? `u:${d.recipientUserId}` : cleanNoticeLine(d.toAddress).toLowerCase();
}

/**
 * Queues messages (the composer's fan-out of an event, a blast's recipients) in the caller's
 * transaction, in slices. A message already queued for the same event (or blast), channel and
 * recipient is left as it is, so a fan-out run twice writes nothing twice. Text is cleaned of control
 * characters here, once for every way in. Returns how many rows were written.
 *
 * A paused blast: its waiting rows go to status 'held' with `next_attempt_at` far ahead; the worker
 * claims only rows that are due, so they wait until resumed (`queued`, due now) or cancelled.
 */
export async function queueNoticeMessages(conn: Conn, drafts: readonly NoticeMessageDraft[], at: string = nowIso()): Promise<number> {
  const rows = drafts.map((d) => ({
    event_id: d.eventId ?? null,
    blast_id: d.blastId ?? null,
    kind: d.kind,
    channel: d.channel,
    recipient_user_id: d.recipientUserId ?? null,
    recipient_key: recipientKeyOf(d),
    to_address: cleanNoticeLine(d.toAddress).slice(0, 320),
    subject: cleanNoticeLine(d.subject ?? '').slice(0, 300),
    body: cleanNoticeText(d.body),
    urgent: d.urgent ? 1 : 0,
    next_attempt_at: d.notBefore ?? at,
  }));
  // PostgreSQL: one statement per 5,000 rows from column arrays (unnest), several times faster than
  // a VALUES list of 20,000 parameters (bench/notices.ts). SQLite: multi-row VALUES in slices.
  if (conn.getExecutor().adapter instanceof PostgresAdapter) {
    const written = await inSlices(rows, 5000, async (slice) => {
      const col = <K extends keyof (typeof rows)[number]>(k: K) => slice.map((r) => r[k]);
      const r = await sql`insert into notice_messages
          (event_id, blast_id, kind, channel, recipient_user_id, recipient_key, to_address, subject, body, urgent, next_attempt_at, created_at)
        select t.*, ${at} from unnest(${col('event_id')}::int[], ${col('blast_id')}::int[], ${col('kind')}::text[], ${col('channel')}::text[],
          ${col('recipient_user_id')}::int[], ${col('recipient_key')}::text[], ${col('to_address')}::text[], ${col('subject')}::text[],
          ${col('body')}::text[], ${col('urgent')}::int[], ${col('next_attempt_at')}::text[]) as t
        on conflict do nothing`.execute(conn);
      return [Number(r.numAffectedRows ?? 0)];
    });
    return written.reduce((a, b) => a + b, 0);
  }
  // 500 rows of 20 values: 10,000 parameters a statement, under SQLite's limit of 32,766.
  const written = await inSlices(
    rows,
    500,
    async (slice) => {
      const r = await conn
        .insertInto('notice_messages')
        .values(
          slice.map((row) => ({
            ...row,
            status: 'queued',
            attempts: 0,
            claimed_by: null,
            claimed_until: null,
            provider: null,
            provider_message_id: null,
            last_error: null,
            created_at: at,
            sent_at: null,
            delivered_at: null,
            read_at: null,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return [Number(r.numInsertedOrUpdatedRows ?? 0)];
    },
    { yieldBetween: true },
  );
  return written.reduce((a, b) => a + b, 0);
}

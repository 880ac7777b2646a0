import type { Selectable } from 'kysely';
import type { NoticeChannel, NoticeKind, NoticeStatus } from '@portal/domain';
import { countOf, Repository, type Conn, type Trx } from '../../db/index';
import type { NoticeEventsTable, NoticeMessagesTable } from './notices.tables';

export type NoticeMessageRow = Selectable<NoticeMessagesTable>;
export type NoticeEventRow = Selectable<NoticeEventsTable>;

/** What a message's delivery may be recorded as by the worker holding its claim. */
export type FinalStatus = Extract<NoticeStatus, 'failed' | 'dead' | 'unknown' | 'skipped'>;

/** Statuses a sent message counts in (the daily cap). */
const COUNTS_AS_SENT = ['sent', 'delivered', 'unknown'];

/**
 * The notices tables' SQL (migration 0033): the worker's claims and state changes, delivery
 * reports, the inbox, preferences, settings and the admin's log. Every state change of a message by
 * the worker is a compare-and-set on its claim (`claimed_by`), so a worker whose lease ran out and
 * whose rows another worker took changes nothing.
 */
export class NoticesRepository extends Repository {
  // ---- The outbox's events ----

  unexpandedEvents(limit: number): Promise<NoticeEventRow[]> {
    return this.db.selectFrom('notice_events').selectAll().where('expanded_at', 'is', null).orderBy('id').limit(limit).execute();
  }

  /** Takes an event to expand in `trx`: false when another worker holds it or it is already expanded. */
  async takeEvent(trx: Trx, id: number): Promise<boolean> {
    const row = await trx
      .selectFrom('notice_events')
      .select('id')
      .where('id', '=', id)
      .where('expanded_at', 'is', null)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate().skipLocked())
      .executeTakeFirst();
    return !!row;
  }

  async markExpanded(trx: Trx, id: number, at: string): Promise<void> {
    await trx.updateTable('notice_events').set({ expanded_at: at }).where('id', '=', id).execute();
  }

  // ---- The worker ----

  /** In-app notices need no provider: every due one is delivered in one statement. */
  async deliverInApp(at: string): Promise<number> {
    const r = await this.db
      .updateTable('notice_messages')
      .set({ status: 'sent', sent_at: at, attempts: 1, claimed_by: null, claimed_until: null })
      .where('channel', '=', 'in_app')
      .where('status', 'in', ['queued', 'held'])
      .where('next_attempt_at', '<=', at)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /**
   * Messages whose sender stopped while the provider had them (status 'sending', lease run out):
   * on a channel whose provider recognises a repeat they are queued again; on another they become
   * 'unknown' and are never sent again (docs/decisions/036).
   */
  async recoverStranded(at: string, channel: NoticeChannel, resend: boolean): Promise<number> {
    const r = await this.db
      .updateTable('notice_messages')
      .set(
        resend
          ? { status: 'queued', next_attempt_at: at, claimed_by: null, claimed_until: null }
          : { status: 'unknown', last_error: 'The worker stopped while the provider had this message: not sent again.' },
      )
      .where('channel', '=', channel)
      .where('status', '=', 'sending')
      .where('claimed_until', '<', at)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** SMS and emails that left since `since` (the send rate counts them across every instance). */
  sentSince(since: string): Promise<number> {
    return countOf(this.db.selectFrom('notice_messages').where('sent_at', '>=', since).where('channel', '!=', 'in_app'));
  }

  /**
   * Claims up to `limit` due SMS and email messages for `workerId` until `until`: on PostgreSQL the
   * rows are locked with SKIP LOCKED, so workers running at once take different rows; SQLite runs
   * one writer at a time. A row another worker claimed is due again only once its lease ran out.
   */
  claim(workerId: string, at: string, until: string, limit: number): Promise<NoticeMessageRow[]> {
    return this.db
      .updateTable('notice_messages')
      .set({ claimed_by: workerId, claimed_until: until })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('notice_messages')
          .select('id')
          .where('channel', 'in', ['sms', 'email'])
          .where('status', 'in', ['queued', 'held'])
          .where('next_attempt_at', '<=', at)
          .where((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<', at)]))
          .orderBy('urgent', 'desc')
          .orderBy('next_attempt_at')
          .orderBy('id')
          .limit(limit)
          .$if(this.dialect === 'postgres', (q) => q.forUpdate().skipLocked()),
      )
      .returningAll()
      .execute()
      .then((rows) => rows.sort((a, b) => b.urgent - a.urgent || a.next_attempt_at.localeCompare(b.next_attempt_at) || a.id - b.id));
  }

  /** Gives back what `workerId` claimed and did not start sending (a clean stop). */
  async releaseClaims(workerId: string): Promise<void> {
    await this.db
      .updateTable('notice_messages')
      .set({ claimed_by: null, claimed_until: null })
      .where('claimed_by', '=', workerId)
      .where('status', 'in', ['queued', 'held'])
      .execute();
  }

  /** The (user, kind) pairs among `userIds` opted out. */
  async optedOut(userIds: number[]): Promise<Set<string>> {
    if (!userIds.length) return new Set();
    const rows = await this.db
      .selectFrom('notice_preferences')
      .select(['user_id', 'kind'])
      .where('user_id', 'in', userIds)
      .where('opted_out', '=', 1)
      .execute();
    return new Set(rows.map((r) => `${r.user_id}:${r.kind}`));
  }

  /** How many messages each recipient got on each channel in [from, to): "<recipient key>|<channel>" → count. */
  async sentPerRecipient(keys: string[], from: string, to: string): Promise<Map<string, number>> {
    if (!keys.length) return new Map();
    const rows = await this.db
      .selectFrom('notice_messages')
      .select(['recipient_key', 'channel', (eb) => eb.fn.countAll<number>().as('n')])
      .where('recipient_key', 'in', keys)
      .where('status', 'in', COUNTS_AS_SENT)
      .where('sent_at', '>=', from)
      .where('sent_at', '<', to)
      .groupBy(['recipient_key', 'channel'])
      .execute();
    return new Map(rows.map((r) => [`${r.recipient_key}|${r.channel}`, Number(r.n)]));
  }

  /** The claim's last step before the provider: 'sending', with the send's own lease. False: not ours any more. */
  async markSending(id: number, workerId: string, leaseUntil: string): Promise<boolean> {
    const r = await this.db
      .updateTable('notice_messages')
      .set((eb) => ({ status: 'sending', attempts: eb('attempts', '+', 1), claimed_until: leaseUntil }))
      .where('id', '=', id)
      .where('claimed_by', '=', workerId)
      .where('status', 'in', ['queued', 'held'])
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async markSent(id: number, workerId: string, provider: string, providerMessageId: string, at: string): Promise<void> {
    await this.db
      .updateTable('notice_messages')
      .set({
        status: 'sent',
        provider,
        provider_message_id: providerMessageId.slice(0, 200),
        sent_at: at,
        last_error: null,
        claimed_until: null,
      })
      .where('id', '=', id)
      .where('claimed_by', '=', workerId)
      .where('status', 'in', ['sending', 'unknown'])
      .execute();
  }

  /** Back to the queue for another attempt at `nextAt`. */
  async markRetry(id: number, workerId: string, provider: string | null, nextAt: string, error: string): Promise<void> {
    await this.db
      .updateTable('notice_messages')
      .set({ status: 'queued', provider, next_attempt_at: nextAt, last_error: error.slice(0, 500), claimed_by: null, claimed_until: null })
      .where('id', '=', id)
      .where('claimed_by', '=', workerId)
      .where('status', '=', 'sending')
      .execute();
  }

  /** An end: failed (refused for good), dead (out of attempts), unknown, or skipped (before sending). */
  async markFinal(id: number, workerId: string, status: FinalStatus, provider: string | null, error: string): Promise<void> {
    await this.db
      .updateTable('notice_messages')
      .set({ status, provider, last_error: error.slice(0, 500), claimed_until: null })
      .where('id', '=', id)
      .where('claimed_by', '=', workerId)
      .where('status', 'in', status === 'skipped' ? ['queued', 'held'] : ['sending'])
      .execute();
  }

  /** Not now: waits until `until` (quiet hours, the daily cap), unclaimed. */
  async hold(id: number, workerId: string, until: string, reason: string): Promise<void> {
    await this.db
      .updateTable('notice_messages')
      .set({ status: 'held', next_attempt_at: until, last_error: reason, claimed_by: null, claimed_until: null })
      .where('id', '=', id)
      .where('claimed_by', '=', workerId)
      .where('status', 'in', ['queued', 'held'])
      .execute();
  }

  /** A provider's delivery report: the message it names becomes delivered or failed. Returns how many rows changed. */
  async applyReport(
    provider: string,
    providerMessageId: string,
    outcome: 'delivered' | 'failed',
    at: string,
    error?: string,
  ): Promise<number> {
    const r = await this.db
      .updateTable('notice_messages')
      .set(
        outcome === 'delivered'
          ? { status: 'delivered', delivered_at: at }
          : { status: 'failed', last_error: (error ?? 'failed').slice(0, 500) },
      )
      .where('provider', '=', provider)
      .where('provider_message_id', '=', providerMessageId)
      .where('status', 'in', ['sent', 'unknown', 'sending'])
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  // ---- Settings and preferences ----

  async readSettings(conn: Conn = this.db): Promise<string | null> {
    const row = await conn.selectFrom('notice_settings').select('value').where('id', '=', 1).executeTakeFirst();
    return row?.value ?? null;
  }

  async writeSettings(trx: Trx, value: string, by: number, at: string): Promise<void> {
    await trx
      .insertInto('notice_settings')
      .values({ id: 1, value, updated_by: by, updated_at: at })
      .onConflict((oc) => oc.column('id').doUpdateSet({ value, updated_by: by, updated_at: at }))
      .execute();
  }

  preferencesOf(userId: number): Promise<{ kind: string; opted_out: number }[]> {
    return this.db.selectFrom('notice_preferences').select(['kind', 'opted_out']).where('user_id', '=', userId).execute();
  }

  async putPreferences(trx: Trx, userId: number, rows: { kind: NoticeKind; opted_out: boolean }[], at: string): Promise<void> {
    for (const r of rows) {
      const opted = r.opted_out ? 1 : 0;
      await trx
        .insertInto('notice_preferences')
        .values({ user_id: userId, kind: r.kind, opted_out: opted, updated_at: at })
        .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ opted_out: opted, updated_at: at }))
        .execute();
    }
  }

  // ---- The inbox and the log ----

  private inbox(userId: number) {
    return this.db
      .selectFrom('notice_messages')
      .where('recipient_user_id', '=', userId)
      .where('channel', '=', 'in_app')
      .where('status', 'in', ['sent', 'delivered']);
  }

  async inboxPage(userId: number, offset: number, limit: number) {
    const [count, unread, results] = await Promise.all([
      countOf(this.inbox(userId)),
      countOf(this.inbox(userId).where('read_at', 'is', null)),
      this.inbox(userId)
        .select(['id', 'kind', 'subject', 'body', 'created_at', 'read_at'])
        .orderBy('id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute(),
    ]);
    return { count, unread, results };
  }

  /** Marks one of the user's in-app notices read (once: the first time stays). Null: not theirs. */
  async markRead(userId: number, id: number, at: string) {
    await this.inboxUpdate(userId, id, at);
    return this.inbox(userId).select(['id', 'kind', 'subject', 'body', 'created_at', 'read_at']).where('id', '=', id).executeTakeFirst();
  }

  private async inboxUpdate(userId: number, id: number, at: string): Promise<void> {
    await this.db
      .updateTable('notice_messages')
      .set({ read_at: at })
      .where('id', '=', id)
      .where('recipient_user_id', '=', userId)
      .where('channel', '=', 'in_app')
      .where('read_at', 'is', null)
      .execute();
  }

  async logPage(filter: { status?: NoticeStatus; kind?: NoticeKind }, offset: number, limit: number) {
    const base = this.db
      .selectFrom('notice_messages')
      .$if(!!filter.status, (q) => q.where('status', '=', filter.status!))
      .$if(!!filter.kind, (q) => q.where('kind', '=', filter.kind!));
    const [count, results] = await Promise.all([
      countOf(base),
      base
        .select([
          'id',
          'kind',
          'channel',
          'to_address',
          'subject',
          'status',
          'urgent',
          'attempts',
          'provider',
          'last_error',
          'created_at',
          'sent_at',
          'delivered_at',
          'next_attempt_at',
        ])
        .orderBy('id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute(),
    ]);
    return { count, results };
  }
}

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import {
  canOptOut,
  dayBoundsIn,
  nextMorning,
  quietHoursEnd,
  retryDelayMs,
  todayIn,
  type NoticeChannel,
  type NoticeKind,
  type NoticeSettings,
} from '@portal/domain';
import { queueNoticeMessages } from '../../db/notice-outbox';
import type { NoticeChannels } from './channels';
import type { NoticeSettingsService } from './notice-settings.service';
import type { NoticeComposer } from './notices.ports';
import type { NoticeMessageRow, NoticesRepository } from './notices.repository';
import type { SendOutcome } from './sms.channel';

declare module 'fastify' {
  interface FastifyInstance {
    /** The notices worker (main.ts starts it; closing the app stops it). */
    noticeDelivery: NoticeDelivery;
  }
}

/** The school's time zone, as the calendar's SchoolTime reads it. */
export interface SchoolZoneClock {
  timeZone(): Promise<string>;
}

export interface DeliveryOptions {
  /** How many messages one run claims at most. */
  batchSize: number;
  /** Provider calls at once within a run (a provider answers in ~0.3 s: one at a time caps a worker near 200 a minute). */
  concurrency: number;
  /** Time between runs (ms); the send rate is spread over them. */
  tickMs: number;
  /** How long a claim of queued messages holds (ms): a worker that stops leaves them to others after it. */
  claimLeaseMs: number;
  /** How long one provider call may take (ms). */
  sendTimeoutMs: number;
  /** A message in 'sending' is left alone this long after its provider call's timeout (ms). */
  sendLeaseMarginMs: number;
  /** Attempts before a message is dead. */
  maxAttempts: number;
  /** Retry backoff: first wait and the longest (ms). */
  retryBaseMs: number;
  retryMaxMs: number;
  /** This worker's name in `claimed_by`. */
  workerId: string;
  random: () => number;
}

export const DEFAULT_DELIVERY_OPTIONS: DeliveryOptions = {
  batchSize: 50,
  concurrency: 4,
  tickMs: 1000,
  claimLeaseMs: 120_000,
  sendTimeoutMs: 15_000,
  sendLeaseMarginMs: 30_000,
  maxAttempts: 5,
  retryBaseMs: 30_000,
  retryMaxMs: 3_600_000,
  workerId: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
  random: Math.random,
};

/** What one run did (tests and the bench read it). */
export interface DeliveryRun {
  expanded: number;
  inApp: number;
  recovered: number;
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
  dead: number;
  unknown: number;
  held: number;
  skipped: number;
  /** Claimed but taken by another worker before this one sent it (its lease ran out). */
  lost: number;
}

const emptyRun = (): DeliveryRun => ({
  expanded: 0,
  inApp: 0,
  recovered: 0,
  claimed: 0,
  sent: 0,
  retried: 0,
  failed: 0,
  dead: 0,
  unknown: 0,
  held: 0,
  skipped: 0,
  lost: 0,
});

const MESSAGES = {
  smsOff: 'SMS is not configured.',
  emailOff: 'Email is not configured.',
  optedOut: 'The recipient turned this kind of notice off.',
  noAddress: 'No address to send to.',
  quietHours: 'Quiet hours: held until the morning.',
  dailyCap: "The recipient's daily cap was reached: held until tomorrow.",
  threw: 'The channel failed unexpectedly.',
} as const;

/** Everything one run decides a batch by, read once per run. */
interface RunContext {
  now: number;
  settings: NoticeSettings;
  timeZone: string;
  optedOut: Set<string>;
  /** "<recipient key>|<channel>" → messages sent today. */
  sentToday: Map<string, number>;
}

/**
 * The notices worker (docs/decisions/036). Each run: expand new events into messages (the
 * composer, one transaction per event), deliver due in-app notices, recover messages stranded in
 * 'sending' by a worker that stopped, then claim a batch of due SMS and emails (SKIP LOCKED on
 * PostgreSQL, leases) within the send rate and send them one by one: opt-outs, quiet hours and the
 * daily cap decided first; each marked 'sending' with its own lease before the provider call, with
 * the message id as the provider's reference; then sent, retried with backoff and jitter, dead after
 * `maxAttempts`, failed, or unknown.
 *
 * What is guaranteed: a message is handed to a provider by one worker at a time, and never again
 * once the provider took it and the worker heard so. When the worker stops between the provider's
 * acceptance and recording it, the message is sent again only through a provider that recognises
 * the reference (the fake; `dedupesByReference`); through one that does not (Termii, Africa's
 * Talking, SMTP) it becomes 'unknown' and is never sent again: at most once.
 */
export class NoticeDelivery {
  private readonly opts: DeliveryOptions;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopping = false;
  private started = false;

  constructor(
    private readonly repo: NoticesRepository,
    private readonly composer: NoticeComposer,
    readonly channels: NoticeChannels,
    private readonly settings: NoticeSettingsService,
    private readonly zone: SchoolZoneClock,
    private readonly clock: () => number,
    private readonly log: FastifyBaseLogger,
    options: Partial<DeliveryOptions> = {},
  ) {
    this.opts = { ...DEFAULT_DELIVERY_OPTIONS, ...options };
  }

  get workerId(): string {
    return this.opts.workerId;
  }

  /** Starts the loop (main.ts, unless NOTICES_WORKER=off). */
  start(): void {
    if (this.timer || this.running) return;
    this.stopping = false;
    this.started = true;
    const loop = () => {
      this.timer = null;
      if (this.stopping) return;
      this.running = this.runOnce()
        .catch((err: unknown) => this.log.warn({ err }, 'notices worker run failed'))
        .finally(() => {
          this.running = null;
          if (!this.stopping) {
            this.timer = setTimeout(loop, this.opts.tickMs);
            this.timer.unref();
          }
        });
    };
    this.timer = setTimeout(loop, 0);
    this.timer.unref();
  }

  /** Stops the loop: the message in flight finishes, the rest of the batch is given back at once. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    this.channels.close();
    if (!this.started) return;
    this.started = false;
    await this.repo
      .releaseClaims(this.opts.workerId)
      .catch((err: unknown) => this.log.warn({ err }, 'notices worker: claims not given back'));
  }

  private iso(ms: number): string {
    return new Date(ms).toISOString();
  }

  /** Turns up to `limit` new events into messages through the composer, one transaction each. */
  async expandEvents(limit = this.opts.batchSize): Promise<number> {
    const events = await this.repo.unexpandedEvents(limit);
    let expanded = 0;
    for (const e of events) {
      try {
        const done = await this.repo.transaction(async (trx) => {
          if (!(await this.repo.takeEvent(trx, e.id))) return false;
          const at = this.iso(this.clock());
          const drafts = await this.composer.compose(trx, {
            id: e.id,
            kind: e.kind as NoticeKind,
            dedupeKey: e.dedupe_key,
            payload: JSON.parse(e.payload) as Record<string, unknown>,
            createdAt: e.created_at,
          });
          await queueNoticeMessages(
            trx,
            drafts.map((d) => ({ ...d, eventId: e.id, blastId: null })),
            at,
          );
          await this.repo.markExpanded(trx, e.id, at);
          return true;
        });
        if (done) expanded += 1;
      } catch (err) {
        // Left unexpanded: the next run tries again.
        this.log.warn({ err, eventId: e.id, kind: e.kind }, 'notice event could not be expanded');
      }
    }
    return expanded;
  }

  /** One run of the worker (the loop calls it every `tickMs`; tests call it with their clock). */
  async runOnce(): Promise<DeliveryRun> {
    const run = emptyRun();
    run.expanded = await this.expandEvents();
    const now = this.clock();
    const at = this.iso(now);
    run.inApp = await this.repo.deliverInApp(at);
    for (const channel of ['sms', 'email'] as const) {
      run.recovered += await this.repo.recoverStranded(at, channel, this.channels.resends(channel));
    }
    const settings = await this.settings.get();
    const rate = settings.send_rate_per_minute;
    const perRun = Math.max(1, Math.ceil((rate * this.opts.tickMs) / 60_000));
    const budget = rate - (await this.repo.sentSince(this.iso(now - 60_000)));
    const limit = Math.min(this.opts.batchSize, perRun, budget);
    if (limit <= 0 || this.stopping) return run;
    const claimed = await this.repo.claim(this.opts.workerId, at, this.iso(now + this.opts.claimLeaseMs), limit);
    run.claimed = claimed.length;
    if (!claimed.length) return run;

    const timeZone = await this.zone.timeZone();
    const day = dayBoundsIn(todayIn(timeZone, new Date(now)), timeZone);
    const userIds = [...new Set(claimed.flatMap((m) => (m.recipient_user_id ? [m.recipient_user_id] : [])))];
    const ctx: RunContext = {
      now,
      settings,
      timeZone,
      optedOut: await this.repo.optedOut(userIds),
      sentToday: await this.repo.sentPerRecipient([...new Set(claimed.map((m) => m.recipient_key))], day.from, day.to),
    };
    // `concurrency` lanes take the claimed messages in order; each message is its own compare-and-set.
    let nextIndex = 0;
    const lane = async () => {
      while (nextIndex < claimed.length) {
        // Stopping: the rest of the batch is given back by stop().
        if (this.stopping) return;
        const m = claimed[nextIndex++]!;
        run[await this.deliver(m, ctx)] += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(this.opts.concurrency, claimed.length)) }, lane));
    return run;
  }

  /** Why a message is not sent now: skipped for good, or held until an instant. */
  private refusal(m: NoticeMessageRow, ctx: RunContext): { skip: string } | { holdUntil: Date; reason: string } | null {
    const kind = m.kind as NoticeKind;
    if (m.channel === 'sms' && !this.channels.sms) return { skip: MESSAGES.smsOff };
    if (m.channel === 'email' && !this.channels.email) return { skip: MESSAGES.emailOff };
    if (!m.to_address) return { skip: MESSAGES.noAddress };
    if (m.recipient_user_id && canOptOut(kind) && ctx.optedOut.has(`${m.recipient_user_id}:${kind}`)) return { skip: MESSAGES.optedOut };
    if (m.urgent) return null;
    const instant = new Date(ctx.now);
    if (m.channel === 'sms') {
      const quietEnd = quietHoursEnd(instant, ctx.timeZone, ctx.settings.quiet_start, ctx.settings.quiet_end);
      if (quietEnd) return { holdUntil: quietEnd, reason: MESSAGES.quietHours };
    }
    // Receipts and invitations are not counted against the cap, and never held by it.
    if (canOptOut(kind) && (ctx.sentToday.get(`${m.recipient_key}|${m.channel}`) ?? 0) >= ctx.settings.daily_cap_per_parent) {
      return { holdUntil: nextMorning(instant, ctx.timeZone, ctx.settings.quiet_end), reason: MESSAGES.dailyCap };
    }
    return null;
  }

  private async deliver(m: NoticeMessageRow, ctx: RunContext): Promise<keyof DeliveryRun> {
    const worker = this.opts.workerId;
    const refusal = this.refusal(m, ctx);
    if (refusal && 'skip' in refusal) {
      await this.repo.markFinal(m.id, worker, 'skipped', null, refusal.skip);
      return 'skipped';
    }
    if (refusal) {
      await this.repo.hold(m.id, worker, refusal.holdUntil.toISOString(), refusal.reason);
      return 'held';
    }
    const channel = m.channel as Exclude<NoticeChannel, 'in_app'>;
    const adapter = channel === 'sms' ? this.channels.sms! : this.channels.email!;
    // The cap's count is reserved now (no await since it was checked), given back unless sent.
    const capKey = `${m.recipient_key}|${m.channel}`;
    ctx.sentToday.set(capKey, (ctx.sentToday.get(capKey) ?? 0) + 1);
    const unreserve = () => ctx.sentToday.set(capKey, (ctx.sentToday.get(capKey) ?? 1) - 1);
    // The last step before the provider: 'sending' with this send's own lease, committed first.
    const lease = this.iso(this.clock() + this.opts.sendTimeoutMs + this.opts.sendLeaseMarginMs);
    if (!(await this.repo.markSending(m.id, worker, lease))) {
      unreserve();
      return 'lost';
    }
    const reference = `notice-${m.id}`;
    let outcome: SendOutcome;
    try {
      const signal = AbortSignal.timeout(this.opts.sendTimeoutMs);
      outcome =
        channel === 'sms'
          ? await this.channels.sms!.send({ reference, to: m.to_address, body: m.body, senderId: ctx.settings.sender_id }, signal)
          : await this.channels.email!.send({ reference, to: m.to_address, subject: m.subject, body: m.body }, signal);
    } catch (err) {
      this.log.warn({ err, noticeId: m.id }, 'notice channel threw');
      outcome = { kind: 'unknown', error: MESSAGES.threw };
    }
    const doneAt = this.clock();
    const attempts = m.attempts + 1;
    if (outcome.kind === 'accepted') {
      await this.repo.markSent(m.id, worker, adapter.name, outcome.providerMessageId, this.iso(doneAt));
      return 'sent';
    }
    // An unknown outcome may have been sent: it keeps its place under the cap.
    if (outcome.kind === 'rejected') unreserve();
    // An unknown outcome is retried only where the provider recognises the reference.
    const retryable = outcome.kind === 'rejected' ? outcome.retryable : this.channels.resends(channel);
    if (outcome.kind === 'unknown' && !retryable) {
      await this.repo.markFinal(m.id, worker, 'unknown', adapter.name, outcome.error);
      return 'unknown';
    }
    if (!retryable) {
      await this.repo.markFinal(m.id, worker, 'failed', adapter.name, outcome.error);
      return 'failed';
    }
    if (attempts >= this.opts.maxAttempts) {
      await this.repo.markFinal(m.id, worker, 'dead', adapter.name, `${attempts} attempts: ${outcome.error}`);
      return 'dead';
    }
    const wait = retryDelayMs(attempts, this.opts.random, this.opts.retryBaseMs, this.opts.retryMaxMs);
    await this.repo.markRetry(m.id, worker, adapter.name, this.iso(doneAt + wait), outcome.error);
    return 'retried';
  }
}

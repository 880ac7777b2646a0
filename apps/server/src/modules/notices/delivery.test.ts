import { afterEach, beforeEach, expect, it } from 'vitest';
import { DEFAULT_NOTICE_SETTINGS, type NoticeSettings } from '@portal/domain';
import { createDatabase, type DatabaseHandle } from '../../db/index';
import { createAdmin } from '../../db/factories';
import { queueNoticeMessages, recordNoticeEvent, type NoticeMessageDraft } from '../../db/notice-outbox';
import { createTestContext, describeEachDatabase, TEST_PASSWORD, type TestContext } from '../../../test/helpers';
import { noticeChannelsFor } from './channels';
import { NoticeDelivery, type DeliveryOptions } from './delivery.service';
import { FakeEmail } from './email.channel';
import { NoticeSettingsService } from './notice-settings.service';
import { silentComposer, type NoticeComposer } from './notices.ports';
import { NoticesRepository } from './notices.repository';
import { FakeSmsProvider, type OutgoingSms, type SendOutcome, type SmsAdapter } from './sms.channel';
import './notices.tables';

/** 11:00 in Lagos on a Monday: outside quiet hours. */
const MORNING = Date.parse('2026-11-23T10:00:00.000Z');

describeEachDatabase('notices worker', (dialect) => {
  let ctx: TestContext;
  let t = MORNING;
  const clock = () => t;
  let adminId: number;

  beforeEach(async () => {
    t = MORNING;
    ctx = await createTestContext(dialect, {}, { now: clock });
    adminId = (await createAdmin(ctx.handle.db, { email: 'w-admin@test.school', password: TEST_PASSWORD, username: 'wadmin' })).userId;
  });
  afterEach(() => ctx.close());

  function worker(
    sms: SmsAdapter | null,
    opts: Partial<DeliveryOptions> & { email?: FakeEmail | null; handle?: DatabaseHandle; composer?: NoticeComposer } = {},
  ) {
    const handle = opts.handle ?? ctx.handle;
    const repo = new NoticesRepository(handle.db, handle.dialect);
    const channels = noticeChannelsFor(ctx.config.notices, { sms, email: opts.email === undefined ? new FakeEmail() : opts.email });
    const settings = new NoticeSettingsService(repo, channels, clock);
    const w = new NoticeDelivery(
      repo,
      opts.composer ?? silentComposer,
      channels,
      settings,
      { timeZone: () => Promise.resolve('Africa/Lagos') },
      clock,
      ctx.app.log,
      { tickMs: 60_000, random: () => 0.5, workerId: 'w1', concurrency: 1, ...opts },
    );
    return { w, settings, repo, channels };
  }

  async function saveSettings(over: Partial<NoticeSettings>) {
    const { settings } = worker(null);
    await settings.put(adminId, { ...DEFAULT_NOTICE_SETTINGS, ...over });
  }

  function sms(n: number, over: Partial<NoticeMessageDraft> = {}): NoticeMessageDraft[] {
    return Array.from({ length: n }, (_, i) => ({
      kind: 'custom' as const,
      channel: 'sms' as const,
      toAddress: `+23480300000${String(i).padStart(2, '0')}`,
      body: `Message ${i}`,
      blastId: 1,
      ...over,
    }));
  }

  /** Queues at the test's clock (due now). */
  const queue = (drafts: NoticeMessageDraft[]) => queueNoticeMessages(ctx.handle.db, drafts, new Date(t).toISOString());
  const rows = () => ctx.handle.db.selectFrom('notice_messages').selectAll().orderBy('id').execute();
  const statusOf = async (id: number) =>
    (await ctx.handle.db.selectFrom('notice_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow()).status;

  /** Runs until a run claims nothing. */
  async function drain(w: NoticeDelivery) {
    for (let i = 0; i < 100; i++) if ((await w.runOnce()).claimed === 0) return;
  }

  it('sends SMS and email once each, delivers in-app at once, escapes HTML and strips control characters', async () => {
    const fake = new FakeSmsProvider();
    const email = new FakeEmail();
    const { w } = worker(fake, { email });
    await queue([
      ...sms(2),
      {
        kind: 'custom',
        channel: 'email',
        toAddress: 'ada@test.school',
        subject: 'Fees\r\nBcc: evil@x.test',
        body: '<script>alert(1)</script> & "quotes"\u0007\u202E',
        blastId: 1,
      },
      { kind: 'custom', channel: 'in_app', recipientUserId: adminId, toAddress: '', subject: 'Hello', body: 'In the app', blastId: 1 },
    ]);
    const run = await w.runOnce();
    expect(run).toMatchObject({ inApp: 1, claimed: 3, sent: 3 });
    await drain(w);
    expect(fake.sent.map((m) => m.to)).toEqual(['+2348030000000', '+2348030000001']);
    expect(fake.sent[0]!.senderId).toBe(DEFAULT_NOTICE_SETTINGS.sender_id);
    expect(email.sent).toHaveLength(1);
    const mail = email.sent[0]!;
    expect(mail.subject).toBe('Fees Bcc: evil@x.test');
    expect(mail.html).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;</p>');
    expect(mail.text).toBe('<script>alert(1)</script> & "quotes"');
    expect(mail.messageId).toMatch(/^<notice-\d+@school\.invalid>$/);
    const all = await rows();
    expect(all.map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
    expect(all[0]).toMatchObject({ provider: 'fake', provider_message_id: 'fake-1', attempts: 1, claimed_until: null });
  });

  it('killed mid-batch after the provider took a message: a second worker after the lease sends the rest, nothing twice (provider dedupes by reference)', async () => {
    const provider = new FakeSmsProvider({ dedupe: true });
    await queue(sms(10));
    // Worker A: the 4th send reaches the provider, which takes it, and then the process "dies":
    // the call never returns and nothing after it runs.
    let calls = 0;
    const dying: SmsAdapter = {
      name: 'fake',
      dedupesByReference: true,
      send(m: OutgoingSms, signal: AbortSignal): Promise<SendOutcome> {
        calls += 1;
        if (calls < 4) return provider.send(m, signal);
        void provider.send(m, signal);
        return new Promise<SendOutcome>(() => undefined);
      },
    };
    const a = worker(dying, { workerId: 'A' }).w;
    void a.runOnce();
    await expect.poll(() => provider.sent.length).toBe(4);
    expect((await rows()).map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sending', ...Array(6).fill('queued')]);

    // Worker B, before A's leases ran out: takes nothing.
    const b = worker(provider, { workerId: 'B' }).w;
    expect(await b.runOnce()).toMatchObject({ claimed: 0, recovered: 0 });
    // After them: the stranded 4th is sent again under its reference (the provider takes it once), the rest once.
    t += 3 * 60_000;
    const run = await b.runOnce();
    expect(run).toMatchObject({ recovered: 1, claimed: 7, sent: 7 });
    expect(provider.sent).toHaveLength(10);
    expect(new Set(provider.sent.map((m) => m.reference)).size).toBe(10);
    expect((await rows()).every((r) => r.status === 'sent')).toBe(true);
  });

  it('killed mid-batch with a provider that cannot dedupe (Termii, SMTP): the stranded message becomes unknown and is never sent again', async () => {
    const provider = new FakeSmsProvider({ dedupe: false });
    expect(await queue(sms(10))).toBe(10);
    let calls = 0;
    const dying: SmsAdapter = {
      name: 'fake',
      dedupesByReference: false,
      send(m: OutgoingSms, signal: AbortSignal): Promise<SendOutcome> {
        calls += 1;
        if (calls < 4) return provider.send(m, signal);
        void provider.send(m, signal);
        return new Promise<SendOutcome>(() => undefined);
      },
    };
    void worker(dying, { workerId: 'A' }).w.runOnce();
    await expect.poll(() => provider.sent.length).toBe(4);
    t += 3 * 60_000;
    const b = worker(provider, { workerId: 'B' }).w;
    await drain(b);
    // Each message reached the provider exactly once; the 4th is 'unknown', not sent twice.
    expect(provider.calls).toBe(10);
    expect(provider.sent.map((m) => m.body)).toEqual(Array.from({ length: 10 }, (_, i) => `Message ${i}`));
    const all = await rows();
    expect(all.map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'unknown', ...Array(6).fill('sent')]);
    expect(all[3]!.last_error).toMatch(/not sent again/);
  });

  it('two workers at once (two connection pools on PostgreSQL) send every message exactly once', async () => {
    const provider = new FakeSmsProvider({ dedupe: false });
    provider.latencyMs = 2;
    await queue(sms(60));
    // On PostgreSQL the second worker has its own pool on the same schema; SQLite has one writer.
    const second =
      dialect === 'postgres'
        ? createDatabase(process.env.TEST_DATABASE_URL!, { pgSchema: ctx.handle.pgSchema, pgPoolSize: 3 })
        : ctx.handle;
    try {
      const a = worker(provider, { workerId: 'A', batchSize: 7, concurrency: 3 }).w;
      const b = worker(provider, { workerId: 'B', batchSize: 7, concurrency: 3, handle: second }).w;
      const sentBy = { A: 0, B: 0 };
      const loop = async (w: NoticeDelivery, name: 'A' | 'B') => {
        for (let i = 0; i < 50; i++) {
          const run = await w.runOnce();
          sentBy[name] += run.sent;
          if (run.claimed === 0) return;
        }
      };
      await Promise.all([loop(a, 'A'), loop(b, 'B')]);
      expect(provider.calls).toBe(60);
      expect(new Set(provider.sent.map((m) => m.reference)).size).toBe(60);
      expect(sentBy.A + sentBy.B).toBe(60);
      expect(sentBy.A).toBeGreaterThan(0);
      expect(sentBy.B).toBeGreaterThan(0);
      expect((await rows()).every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    } finally {
      if (second !== ctx.handle) await second.destroy();
    }
  });

  it('retries errors with exponential backoff and jitter, then a dead letter after the last attempt', async () => {
    const provider = new FakeSmsProvider();
    provider.otherwise = 'error';
    const { w } = worker(provider, { maxAttempts: 4, retryBaseMs: 30_000 });
    await queue(sms(1));
    const id = (await rows())[0]!.id;
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const run = await w.runOnce();
      expect(run.claimed).toBe(1);
      const row = (await rows())[0]!;
      expect(row.attempts).toBe(attempt);
      if (attempt < 4) {
        expect(row.status).toBe('queued');
        waits.push(Date.parse(row.next_attempt_at) - t);
        // Not due before its time.
        expect((await w.runOnce()).claimed).toBe(0);
        t = Date.parse(row.next_attempt_at);
      }
    }
    // random() = 0.5: three quarters of 30 s, 60 s, 120 s.
    expect(waits).toEqual([22_500, 45_000, 90_000]);
    expect(await statusOf(id)).toBe('dead');
    expect((await rows())[0]!.last_error).toMatch(/^4 attempts: fake 500/);
    expect(provider.sent).toHaveLength(0);
  });

  it('a permanent refusal fails at once; a timeout is retried where the provider dedupes and unknown where it does not', async () => {
    const dedupes = new FakeSmsProvider({ dedupe: true }).answer('reject', 'timeout', 'accept_then_timeout');
    const { w } = worker(dedupes, { sendTimeoutMs: 20 });
    await queue(sms(3));
    const run = await w.runOnce();
    expect(run).toMatchObject({ failed: 1, retried: 2 });
    t += 10 * 60_000;
    await drain(w);
    // The one taken before its timeout was sent again under its reference: taken once.
    expect(dedupes.sent.map((m) => m.body)).toEqual(['Message 2', 'Message 1']);
    expect((await rows()).map((r) => r.status)).toEqual(['failed', 'sent', 'sent']);

    await ctx.handle.db.deleteFrom('notice_messages').execute();
    const plain = new FakeSmsProvider({ dedupe: false }).answer('timeout', 'accept_then_error');
    await queue(sms(2, { blastId: 2 }));
    expect(await worker(plain, { sendTimeoutMs: 20 }).w.runOnce()).toMatchObject({ unknown: 2 });
    t += 10 * 60_000;
    expect(await worker(plain).w.runOnce()).toMatchObject({ claimed: 0 });
    expect(plain.calls).toBe(2);
  });

  it('holds non-urgent SMS in quiet hours until 07:00 in the school zone; urgent SMS and email go at once', async () => {
    // 22:30 in Lagos.
    t = Date.parse('2026-11-23T21:30:00.000Z');
    const provider = new FakeSmsProvider();
    const email = new FakeEmail();
    const { w } = worker(provider, { email });
    await queue([
      ...sms(1),
      ...sms(1, { urgent: true, toAddress: '+2348039999999' }),
      { kind: 'custom', channel: 'email', toAddress: 'ada@test.school', subject: 'S', body: 'B', blastId: 1 },
    ]);
    expect(await w.runOnce()).toMatchObject({ held: 1, sent: 2 });
    const held = (await rows())[0]!;
    expect(held).toMatchObject({ status: 'held', next_attempt_at: '2026-11-24T06:00:00.000Z', claimed_by: null });
    t = Date.parse('2026-11-24T05:59:00.000Z');
    expect((await w.runOnce()).claimed).toBe(0);
    t = Date.parse('2026-11-24T06:00:00.000Z');
    expect(await w.runOnce()).toMatchObject({ sent: 1 });
    expect(provider.sent.map((m) => m.to)).toEqual(['+2348039999999', '+2348030000000']);
  });

  it('the daily cap per parent holds the rest until tomorrow morning; receipts are not capped', async () => {
    await saveSettings({ daily_cap_per_parent: 2 });
    const provider = new FakeSmsProvider();
    // Four sends at once: the cap is reserved before each send, so it holds within a run too.
    const { w } = worker(provider, { concurrency: 4 });
    const parent = { recipientUserId: adminId, toAddress: '+2348031111111' };
    await queue([
      ...[1, 2, 3].map((n) => ({ kind: 'custom' as const, channel: 'sms' as const, ...parent, body: `Custom ${n}`, blastId: n })),
      { kind: 'payment_received', channel: 'sms', ...parent, body: 'Receipt R-000001', eventId: null, blastId: 9 },
    ]);
    const run = await w.runOnce();
    expect(run).toMatchObject({ sent: 3, held: 1 });
    expect(provider.sent.map((m) => m.body)).toEqual(['Custom 1', 'Custom 2', 'Receipt R-000001']);
    const held = (await rows()).find((r) => r.status === 'held')!;
    expect(held.body).toBe('Custom 3');
    expect(held.next_attempt_at).toBe('2026-11-24T06:00:00.000Z');
    t = Date.parse('2026-11-24T06:00:00.000Z');
    expect(await w.runOnce()).toMatchObject({ sent: 1 });
  });

  it('skips what a person opted out of (SMS and email; the inbox still has it) and never a receipt', async () => {
    const provider = new FakeSmsProvider();
    const { w, repo } = worker(provider);
    await repo.transaction((trx) =>
      repo.putPreferences(
        trx,
        adminId,
        [
          { kind: 'custom', opted_out: true },
          { kind: 'payment_received', opted_out: true },
        ],
        new Date(t).toISOString(),
      ),
    );
    const parent = { recipientUserId: adminId, toAddress: '+2348031111111', blastId: 1 };
    await queue([
      { kind: 'custom', channel: 'sms', ...parent, body: 'A custom notice' },
      { kind: 'custom', channel: 'in_app', ...parent, toAddress: '', body: 'A custom notice' },
      { kind: 'payment_received', channel: 'sms', ...parent, blastId: 2, body: 'Receipt' },
    ]);
    expect(await w.runOnce()).toMatchObject({ skipped: 1, sent: 1, inApp: 1 });
    expect(provider.sent.map((m) => m.body)).toEqual(['Receipt']);
    const all = await rows();
    expect(all.map((r) => r.status)).toEqual(['skipped', 'sent', 'sent']);
    expect(all[0]!.last_error).toMatch(/turned this kind of notice off/);
  });

  it('a channel that is off skips its messages; the send rate bounds each run', async () => {
    await saveSettings({ send_rate_per_minute: 5 });
    const { w } = worker(null, { email: null });
    await queue([...sms(1), { kind: 'custom', channel: 'email', toAddress: 'a@test.school', body: 'B', blastId: 1 }]);
    expect(await w.runOnce()).toMatchObject({ skipped: 2 });
    expect((await rows()).map((r) => r.last_error)).toEqual(['SMS is not configured.', 'Email is not configured.']);

    const provider = new FakeSmsProvider();
    const limited = worker(provider).w;
    await queue(sms(12, { blastId: 3 }));
    expect(await limited.runOnce()).toMatchObject({ sent: 5 });
    // Within the same minute the rate is spent, across every worker.
    t += 30_000;
    expect(await limited.runOnce()).toMatchObject({ claimed: 0 });
    t += 31_000;
    expect(await limited.runOnce()).toMatchObject({ sent: 5 });
  });

  it("expands each event once through the composer, in the event's transaction", async () => {
    let composed = 0;
    const composer: NoticeComposer = {
      compose: (_trx, event) => {
        composed += 1;
        return Promise.resolve([
          {
            kind: event.kind,
            channel: 'in_app',
            recipientUserId: adminId,
            toAddress: '',
            subject: 'Results',
            body: `Arm ${String(event.payload.arm)}`,
          },
          { kind: event.kind, channel: 'sms', recipientUserId: adminId, toAddress: '+2348031111111', body: 'Results are out' },
        ]);
      },
    };
    const first = await recordNoticeEvent(ctx.handle.db, {
      kind: 'results_released',
      key: 'results_released:1:1st:JSS 1A',
      payload: { arm: 'JSS 1A' },
    });
    expect(
      await recordNoticeEvent(ctx.handle.db, { kind: 'results_released', key: 'results_released:1:1st:JSS 1A', payload: {} }),
    ).toBeNull();
    const provider = new FakeSmsProvider();
    const { w } = worker(provider, { composer });
    expect(await w.runOnce()).toMatchObject({ expanded: 1, inApp: 1, sent: 1 });
    expect(await w.runOnce()).toMatchObject({ expanded: 0, claimed: 0 });
    expect(composed).toBe(1);
    expect((await rows()).map((r) => [r.event_id, r.channel, r.status])).toEqual([
      [first, 'in_app', 'sent'],
      [first, 'sms', 'sent'],
    ]);
    // A composer that throws leaves its event for the next run.
    await recordNoticeEvent(ctx.handle.db, { kind: 'custom', key: 'custom:2', payload: {} });
    const failing = worker(provider, { composer: { compose: () => Promise.reject(new Error('no template')) } }).w;
    expect(await failing.expandEvents()).toBe(0);
    expect(await w.expandEvents()).toBe(1);
  });

  it('start and stop: the loop sends, and stopping gives back what it claimed', async () => {
    const provider = new FakeSmsProvider();
    const { w } = worker(provider, { tickMs: 10 });
    await queue(sms(3));
    w.start();
    await expect.poll(() => provider.sent.length).toBe(3);
    await w.stop();
    expect((await rows()).every((r) => r.claimed_by === null || r.status === 'sent')).toBe(true);
  });
});

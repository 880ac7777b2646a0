/**
 * Notices (issue 33 budgets): queueing 2,000 notices for a school-wide release in under 1 s, and the
 * worker's send rate. A script, never a timed test:
 *
 *   npm run bench:notices
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:notices
 *
 * 1. queue: one transaction writes 2,000 SMS drafts (`queueNoticeMessages`, what a composer or a
 *    blast does) on a database file; then an event expanded into 2,000 SMS and 2,000 email rows by
 *    a composer, as the worker runs it (event taken, drafts queued, event marked, one transaction).
 * 2. send: the worker against the fake provider at a given latency (0 ms, 50 ms, 300 ms ≈ a real
 *    provider), rate 6,000 a minute, batches of 100, the clock stepped a second per run so the rate
 *    does not bind: messages sent per second of wall time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_NOTICE_SETTINGS } from '@portal/domain';
import { inTransaction } from '../apps/server/src/db/index';
import { queueNoticeMessages, recordNoticeEvent, type NoticeMessageDraft } from '../apps/server/src/db/notice-outbox';
import { noticeChannelsFor } from '../apps/server/src/modules/notices/channels';
import { NoticeDelivery } from '../apps/server/src/modules/notices/delivery.service';
import { NoticeSettingsService } from '../apps/server/src/modules/notices/notice-settings.service';
import type { NoticeComposer } from '../apps/server/src/modules/notices/notices.ports';
import { NoticesRepository } from '../apps/server/src/modules/notices/notices.repository';
import { FakeSmsProvider } from '../apps/server/src/modules/notices/sms.channel';
import { createAdmin } from '../apps/server/src/db/factories';
import { createTestContext, TEST_PASSWORD } from '../apps/server/test/helpers';
import '../apps/server/src/modules/notices/notices.tables';

const N = Number(process.env.BENCH_NOTICES ?? 2000);

function drafts(n: number, blastId: number): NoticeMessageDraft[] {
  return Array.from({ length: n }, (_, i) => ({
    kind: 'results_released' as const,
    channel: 'sms' as const,
    toAddress: `+234803${String(1_000_000 + i).slice(-7)}`,
    body: `Dear parent, the 1st term results of child ${i} are released. Sign in to read the report card.`,
    blastId,
  }));
}

async function main() {
  const dialect = process.env.BENCH_DATABASE_URL ? 'postgres' : 'sqlite';
  if (dialect === 'postgres') process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const dir = mkdtempSync(path.join(tmpdir(), 'notices-bench-'));
  let t = Date.parse('2026-11-23T09:00:00.000Z');
  const clock = () => t;
  const ctx = await createTestContext(dialect, {}, { sqliteFile: path.join(dir, 'bench.db'), now: clock });
  try {
    const db = ctx.handle.db;
    const admin = await createAdmin(db, { email: 'bench@test.school', password: TEST_PASSWORD, username: 'benchadmin' });

    // 1a. One transaction, 2,000 SMS rows.
    let t0 = performance.now();
    await inTransaction(db, (trx) => queueNoticeMessages(trx, drafts(N, 1), new Date(t).toISOString()));
    const queueMs = performance.now() - t0;
    console.log(`${dialect}: queued ${N} SMS in one transaction: ${queueMs.toFixed(0)} ms`);

    // 1b. An event expanded by a composer into N SMS + N in-app rows, as the worker runs it.
    const repo = new NoticesRepository(db, ctx.handle.dialect);
    const composer: NoticeComposer = {
      compose: () =>
        Promise.resolve(
          drafts(N, 0).flatMap((d, i) => [
            { ...d, blastId: null },
            { ...d, blastId: null, channel: 'email' as const, toAddress: `parent${i}@bench.school`, subject: `Results ${i}` },
          ]),
        ),
    };
    const silentSms = new FakeSmsProvider();
    const channels = noticeChannelsFor(ctx.config.notices, { sms: silentSms });
    const settings = new NoticeSettingsService(repo, channels, clock);
    await settings.put(admin.userId, { ...DEFAULT_NOTICE_SETTINGS, send_rate_per_minute: 6000, daily_cap_per_parent: 100 });
    const zone = { timeZone: () => Promise.resolve('Africa/Lagos') };
    await recordNoticeEvent(db, { kind: 'results_released', key: 'bench:release', payload: {} });
    const expander = new NoticeDelivery(repo, composer, channels, settings, zone, clock, ctx.app.log);
    t0 = performance.now();
    const expanded = await expander.expandEvents();
    const expandMs = performance.now() - t0;
    const rows = await db
      .selectFrom('notice_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    console.log(`${dialect}: expanded ${expanded} event into ${Number(rows.n) - N} rows (SMS and email) in ${expandMs.toFixed(0)} ms`);
    await db.deleteFrom('notice_messages').execute();

    // 2. The send rate at provider latencies (BENCH_SEND=0 skips it).
    if (process.env.BENCH_SEND === '0') return;
    for (const latencyMs of [0, 50, 300]) {
      for (const concurrency of latencyMs ? [1, 4] : [4]) {
        const n = latencyMs >= 300 ? 200 : latencyMs ? 400 : N;
        await db.deleteFrom('notice_messages').execute();
        await queueNoticeMessages(db, drafts(n, 100 + latencyMs + concurrency), new Date(t).toISOString());
        const fake = new FakeSmsProvider();
        fake.latencyMs = latencyMs;
        const worker = new NoticeDelivery(
          repo,
          composer,
          noticeChannelsFor(ctx.config.notices, { sms: fake }),
          settings,
          zone,
          clock,
          ctx.app.log,
          {
            batchSize: 100,
            concurrency,
            tickMs: 1000,
            workerId: `bench-${latencyMs}-${concurrency}`,
          },
        );
        t0 = performance.now();
        for (;;) {
          t += 61_000;
          if ((await worker.runOnce()).claimed === 0) break;
        }
        const s = (performance.now() - t0) / 1000;
        console.log(
          `${dialect}: sent ${fake.sent.length} SMS at ${latencyMs} ms provider latency, ${concurrency} at once: ${s.toFixed(2)} s, ${Math.round(fake.sent.length / s)}/s (${Math.round((60 * fake.sent.length) / s)}/min)`,
        );
      }
    }
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();

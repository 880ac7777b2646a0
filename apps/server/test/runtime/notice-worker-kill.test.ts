import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, expect, it } from 'vitest';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../../src/db/index';
import { queueNoticeMessages } from '../../src/db/notice-outbox';
import { noticeChannelsFor } from '../../src/modules/notices/channels';
import { NoticeDelivery } from '../../src/modules/notices/delivery.service';
import { NoticeSettingsService } from '../../src/modules/notices/notice-settings.service';
import { silentComposer } from '../../src/modules/notices/notices.ports';
import { NoticesRepository } from '../../src/modules/notices/notices.repository';
import { TermiiSms } from '../../src/modules/notices/sms.channel';
import '../../src/modules/notices/notices.tables';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * Exactly once under a real kill: a worker process sends through a Termii stand-in; when the
 * stand-in has taken the 4th SMS it kills the worker with SIGKILL before answering. A second worker
 * (this process) after the leases sends the other six; the 4th, whose fate the first worker never
 * heard, is 'unknown' and not sent again (Termii has no idempotency key): the stand-in got each of
 * the ten SMS exactly once.
 */
it('a worker killed with SIGKILL after the provider took an SMS: every SMS reaches the provider exactly once', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'notice-kill-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'portal.db');
  const handle: DatabaseHandle = createDatabase(`sqlite:${file}`);
  cleanups.push(() => handle.destroy());
  await migrateToLatest(handle);
  // Urgent: quiet hours do not hold them, whatever the hour the test runs.
  await queueNoticeMessages(
    handle.db,
    Array.from({ length: 10 }, (_, i) => ({
      kind: 'custom' as const,
      channel: 'sms' as const,
      toAddress: `+23480300000${i}0`,
      body: `SMS ${i}`,
      urgent: true,
      blastId: 1,
    })),
  );

  // The worker process, once forked (the stand-in kills it).
  const worker: { child?: ChildProcess } = {};
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push((JSON.parse(body) as { sms: string }).sms);
      if (bodies.length === 4 && worker.child) {
        // The provider has it; the worker dies before hearing so.
        worker.child.kill('SIGKILL');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'ok', message_id: `termii-${bodies.length}`, message: 'Successfully Sent' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const child = fork(path.join(__dirname, 'notice-worker-child.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, NOTICE_DB: file, NOTICE_SMS_BASE: base },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  worker.child = child;
  const exited = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_code, signal) => r(signal)));
  cleanups.push(() => child.kill('SIGKILL'));
  expect(await exited).toBe('SIGKILL');
  const status = async () => (await handle.db.selectFrom('notice_messages').select('status').orderBy('id').execute()).map((r) => r.status);
  expect(await status()).toEqual(['sent', 'sent', 'sent', 'sending', ...Array(6).fill('queued')]);

  // The second worker, once the dead one's leases ran out (its clock 10 minutes on).
  const repo = new NoticesRepository(handle.db, handle.dialect);
  const channels = noticeChannelsFor({ worker: true, sms: null, email: null }, { sms: new TermiiSms('key', base) });
  const later = () => Date.now() + 10 * 60_000;
  const second = new NoticeDelivery(
    repo,
    silentComposer,
    channels,
    new NoticeSettingsService(repo, channels, later),
    { timeZone: () => Promise.resolve('Africa/Lagos') },
    later,
    pino({ level: 'silent' }),
    { workerId: 'second', tickMs: 60_000 },
  );
  expect(await second.runOnce()).toMatchObject({ recovered: 1, claimed: 6, sent: 6 });
  expect(await second.runOnce()).toMatchObject({ claimed: 0 });
  expect(bodies.slice().sort()).toEqual(Array.from({ length: 10 }, (_, i) => `SMS ${i}`));
  expect(await status()).toEqual(['sent', 'sent', 'sent', 'unknown', ...Array(6).fill('sent')]);
}, 60_000);

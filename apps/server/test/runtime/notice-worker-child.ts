/**
 * A notices worker in a process of its own, for `notice-worker-kill.test.ts` to kill with SIGKILL
 * mid-batch: the database file (NOTICE_DB) and a Termii stand-in (NOTICE_SMS_BASE) from the
 * environment, one send at a time, the real clock.
 */
import pino from 'pino';
import { createDatabase } from '../../src/db/index';
import { noticeChannelsFor } from '../../src/modules/notices/channels';
import { NoticeDelivery } from '../../src/modules/notices/delivery.service';
import { NoticeSettingsService } from '../../src/modules/notices/notice-settings.service';
import { silentComposer } from '../../src/modules/notices/notices.ports';
import { NoticesRepository } from '../../src/modules/notices/notices.repository';
import { TermiiSms } from '../../src/modules/notices/sms.channel';

const handle = createDatabase(`sqlite:${process.env.NOTICE_DB!}`);
const repo = new NoticesRepository(handle.db, handle.dialect);
const channels = noticeChannelsFor(
  { worker: true, sms: null, email: null },
  { sms: new TermiiSms('child-key', process.env.NOTICE_SMS_BASE) },
);
const settings = new NoticeSettingsService(repo, channels);
const worker = new NoticeDelivery(
  repo,
  silentComposer,
  channels,
  settings,
  { timeZone: () => Promise.resolve('Africa/Lagos') },
  Date.now,
  pino({ level: 'silent' }),
  { concurrency: 1, tickMs: 20, workerId: 'child' },
);
worker.start();
// The loop's timers do not hold the process open (main.ts has its server for that): this does.
setInterval(() => undefined, 1000);
process.send?.('started');

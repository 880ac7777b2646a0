import { beforeAll, expect, it } from 'vitest';
import { DEFAULT_NOTICE_SETTINGS, NOTICE_MESSAGES, TEXT_MESSAGES } from '@portal/domain';
import { queueNoticeMessages } from '../../db/notice-outbox';
import { redactUrl } from '../../http/log-redaction';
import { testConfig } from '../../config';
import {
  auditRow,
  describeEachDatabase,
  signInAdmin,
  signInStaff,
  signInStudent,
  withTestContext,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { FakeSmsProvider } from './sms.channel';
import './notices.tables';

const SECRET = 'delivery-report-secret-0123456789';

describeEachDatabase('notices routes', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  let staff: SignedIn;
  let student: SignedIn;
  withTestContext(
    dialect,
    async (c) => {
      ctx = c;
      admin = await signInAdmin(ctx);
      staff = await signInStaff(ctx);
      student = await signInStudent(ctx);
    },
    { notices: { ...testConfig().notices, webhookSecret: SECRET } },
  );

  const get = (url: string, who?: SignedIn) => ctx.app.inject({ method: 'GET', url, headers: who?.auth ?? {} });
  const send = (method: 'POST' | 'PUT', url: string, payload: unknown, who?: SignedIn) =>
    ctx.app.inject({ method, url, headers: who?.auth ?? {}, payload: payload as object });

  beforeAll(async () => {
    const inApp = (userId: number, blastId: number, subject: string) => ({
      kind: 'custom' as const,
      channel: 'in_app' as const,
      recipientUserId: userId,
      toAddress: '',
      subject,
      body: `${subject} body`,
      blastId,
    });
    await queueNoticeMessages(ctx.handle.db, [
      inApp(student.userId, 1, 'First'),
      inApp(student.userId, 2, 'Second'),
      inApp(staff.userId, 1, 'For staff'),
      // Urgent: sent whatever the hour (quiet hours hold the others).
      {
        kind: 'custom',
        channel: 'sms',
        recipientUserId: student.userId,
        toAddress: '+2348031234567',
        body: 'By SMS',
        blastId: 1,
        urgent: true,
      },
    ]);
    await ctx.app.noticeDelivery.runOnce();
  });

  it('the inbox lists my in-app notices only, newest first, with the unread count; anonymous 401', async () => {
    const res = await get('/api/notices/', student);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ count: number; unread: number; next: number | null; results: { subject: string }[] }>();
    expect(body).toMatchObject({ count: 2, unread: 2, next: null });
    expect(body.results.map((r) => r.subject)).toEqual(['Second', 'First']);
    expect((await get('/api/notices/', staff)).json<{ count: number }>().count).toBe(1);
    expect((await get('/api/notices/')).statusCode).toBe(401);
    expect((await get('/api/notices/?page=0', student)).statusCode).toBe(400);
  });

  it("marks my notice read once; another person's notice is not found", async () => {
    const staffNotice = (await get('/api/notices/', staff)).json<{ results: { id: number }[] }>().results[0]!;
    expect((await send('POST', `/api/notices/${staffNotice.id}/read/`, {}, student)).statusCode).toBe(404);
    const mine = (await get('/api/notices/', student)).json<{ results: { id: number }[] }>().results[1]!;
    const read = await send('POST', `/api/notices/${mine.id}/read/`, {}, student);
    expect(read.statusCode).toBe(200);
    const readAt = read.json<{ read_at: string }>().read_at;
    expect(readAt).toBeTruthy();
    expect((await send('POST', `/api/notices/${mine.id}/read/`, {}, student)).json<{ read_at: string }>().read_at).toBe(readAt);
    expect((await get('/api/notices/', student)).json<{ unread: number }>().unread).toBe(1);
    expect((await send('POST', '/api/notices/abc/read/', {}, student)).statusCode).toBe(400);
  });

  it('preferences: kinds turned off and on; receipts can never be turned off (400, nothing saved)', async () => {
    const before = (await get('/api/notice-preferences/', student)).json<{
      kinds: { kind: string; opted_out: boolean; can_opt_out: boolean }[];
    }>();
    expect(before.kinds.find((k) => k.kind === 'payment_received')).toMatchObject({ opted_out: false, can_opt_out: false });
    expect(before.kinds.some((k) => k.kind === 'parent_invited')).toBe(false);
    const refused = await send(
      'PUT',
      '/api/notice-preferences/',
      {
        kinds: [
          { kind: 'custom', opted_out: true },
          { kind: 'payment_received', opted_out: true },
        ],
      },
      student,
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ kinds: [NOTICE_MESSAGES.cannotOptOut('Payment received')] });
    expect((await get('/api/notice-preferences/', student)).json<typeof before>().kinds.find((k) => k.kind === 'custom')!.opted_out).toBe(
      false,
    );
    const saved = await send('PUT', '/api/notice-preferences/', { kinds: [{ kind: 'custom', opted_out: true }] }, student);
    expect(saved.statusCode).toBe(200);
    expect(saved.json<typeof before>().kinds.find((k) => k.kind === 'custom')!.opted_out).toBe(true);
    expect((await send('PUT', '/api/notice-preferences/', { kinds: [{ kind: 'nope', opted_out: true }] }, student)).statusCode).toBe(400);
  });

  it('settings: the admin reads them with the channels, saves valid ones (audited); bad values are 400 with field messages', async () => {
    const view = await get('/api/notice-settings/', admin);
    expect(view.json()).toEqual({
      ...DEFAULT_NOTICE_SETTINGS,
      channels: { sms: { configured: true, provider: 'fake' }, email: { configured: true } },
    });
    expect((await get('/api/notice-settings/', staff)).statusCode).toBe(403);
    const bad = await send(
      'PUT',
      '/api/notice-settings/',
      {
        ...DEFAULT_NOTICE_SETTINGS,
        sender_id: 'Bad\u0007Sender',
        quiet_start: '25:00',
        daily_cap_per_parent: 0,
        send_rate_per_minute: 1.5,
      },
      admin,
    );
    expect(bad.statusCode).toBe(400);
    const errors = bad.json<Record<string, string[]>>();
    expect(errors.sender_id).toContain(TEXT_MESSAGES.notAllowed('Sender ID'));
    expect(errors.quiet_start).toEqual([NOTICE_MESSAGES.clock]);
    expect(errors.daily_cap_per_parent).toEqual([NOTICE_MESSAGES.dailyCap]);
    expect(errors.send_rate_per_minute).toEqual([NOTICE_MESSAGES.sendRate]);
    const next = { ...DEFAULT_NOTICE_SETTINGS, sender_id: 'RoyalCol', quiet_start: '20:30', daily_cap_per_parent: 3 };
    const ok = await send('PUT', '/api/notice-settings/', next, admin);
    expect(ok.statusCode).toBe(200);
    expect((await get('/api/notice-settings/', admin)).json()).toMatchObject(next);
    expect(await auditRow(ctx, 'settings', 'notices', 'update')).toBeTruthy();
    await send('PUT', '/api/notice-settings/', DEFAULT_NOTICE_SETTINGS, admin);
  });

  it('the message log: the admin filters by status and kind; a bad filter is 400', async () => {
    const log = await get('/api/notice-messages/?status=sent&kind=custom', admin);
    expect(log.statusCode).toBe(200);
    const body = log.json<{ count: number; results: { channel: string; status: string; provider: string | null }[] }>();
    expect(body.count).toBe(4);
    expect(body.results.find((r) => r.channel === 'sms')).toMatchObject({ status: 'sent', provider: 'fake' });
    expect((await get('/api/notice-messages/?status=bogus', admin)).statusCode).toBe(400);
    expect((await get('/api/notice-messages/', student)).statusCode).toBe(403);
  });

  it('delivery reports: refused without the secret (constant-time compare), applied with it (header or query), per provider', async () => {
    const sms = await ctx.handle.db.selectFrom('notice_messages').selectAll().where('channel', '=', 'sms').executeTakeFirstOrThrow();
    expect(sms.provider_message_id).toBeTruthy();
    const report = { message_id: sms.provider_message_id, status: 'delivered' };
    const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json', ...headers } });
    expect((await post('/api/notices/delivery/fake/', JSON.stringify(report))).statusCode).toBe(403);
    const wrong = await post('/api/notices/delivery/fake/?secret=wrong', JSON.stringify(report));
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ detail: NOTICE_MESSAGES.badWebhookSecret });
    expect((await post('/api/notices/delivery/fake/', JSON.stringify(report), { 'x-notice-secret': `${SECRET}x` })).statusCode).toBe(403);
    expect((await post('/api/notices/delivery/smoke-signals/', '{}', { 'x-notice-secret': SECRET })).statusCode).toBe(404);
    const ok = await post('/api/notices/delivery/fake/', JSON.stringify(report), { 'x-notice-secret': SECRET });
    expect(ok.json()).toEqual({ status: 'ok', updated: 1 });
    const after = await ctx.handle.db.selectFrom('notice_messages').selectAll().where('id', '=', sms.id).executeTakeFirstOrThrow();
    expect(after.status).toBe('delivered');
    expect(after.delivered_at).toBeTruthy();
    // Garbage is answered 200 with nothing changed (providers retry non-2xx forever).
    expect((await post(`/api/notices/delivery/fake/?secret=${SECRET}`, 'not json')).json()).toEqual({ status: 'ok', updated: 0 });
    // Africa's Talking posts form fields; an id nobody has changes nothing.
    const form = await ctx.app.inject({
      method: 'POST',
      url: `/api/notices/delivery/africastalking/?secret=${SECRET}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'id=ATXid_unknown&status=Failed&failureReason=InsufficientCredit',
    });
    expect(form.json()).toEqual({ status: 'ok', updated: 0 });
    expect(redactUrl(`/api/notices/delivery/fake/?secret=${SECRET}`)).toBe('/api/notices/delivery/fake/?secret=[redacted]');
  });

  it("the configured fake provider is the app's SMS channel outside production", () => {
    expect(ctx.app.noticeDelivery.channels.sms).toBeInstanceOf(FakeSmsProvider);
  });
});

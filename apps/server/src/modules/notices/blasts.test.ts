import { expect, it } from 'vitest';
import { NOTICE_TEMPLATE_MESSAGES as M } from '@portal/domain';
import { createFeeItems } from '../../db/factories';
import { addStudent, describeEachDatabase, signInStaff, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import { addParent } from '../../../test/notice-fixtures';
import type { BlastPage, BlastView } from './blasts.service';

describeEachDatabase('notice blasts: estimate, send, progress, pause, resume, cancel', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  let sessionId: number;
  const parents: { userId: number; phone: string }[] = [];
  withSchool(dialect, { sessions: ['2025/2026'] }, async (s) => {
    ({ ctx, admin, sessionId } = s);
    const a = await addStudent(ctx, 'JSS 1A', 'Ada', 'Obi');
    const b = await addStudent(ctx, 'JSS 1A', 'Bola', 'Ade');
    const c = await addStudent(ctx, 'JSS 2A', 'Chidi', 'Eze');
    const d = await addStudent(ctx, 'JSS 3B', 'Dayo', 'Ola');
    parents.push(await addParent(ctx.handle.db, { name: 'Mrs Obi', email: 'obi@example.ng', studentIds: [a.id, c.id] }));
    parents.push(await addParent(ctx.handle.db, { name: 'Mr Ade', studentIds: [b.id] }));
    parents.push(await addParent(ctx.handle.db, { name: 'Mrs Ola', studentIds: [d.id] }));
    // JSS 3B owes fees that have fallen due; nobody else has fees.
    await createFeeItems(ctx.handle.db, [
      { arm: 'JSS 3B', sessionId, term: '1st', name: 'Tuition', amountKobo: 1_000_000, createdAt: '2025-01-01T00:00:00.000Z' },
    ]);
  });

  const post = (url: string, payload?: object, who: SignedIn = admin) =>
    ctx.app.inject({ method: 'POST', url, headers: who.auth, ...(payload ? { payload } : {}) });
  const get = (url: string, who: SignedIn = admin) => ctx.app.inject({ method: 'GET', url, headers: who.auth });
  const body = (over: object = {}) => ({
    audience: { kind: 'all' },
    body: 'PTA meeting on Saturday at 10am, {parent_name}.',
    channels: ['sms', 'in_app'],
    ...over,
  });
  const blastCount = async () =>
    (
      await ctx.handle.db
        .selectFrom('notice_blasts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;

  it('estimates recipients, SMS units and cost before sending (every message rendered, the school’s custom wrapper included)', async () => {
    const res = await post('/api/notice-blasts/estimate/', body());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      recipients: 3,
      sms: { encoding: 'GSM-7', characters: expect.any(Number), units_per_message: 1, total_units: 3, cost_kobo: 1200 },
    });
    const naira = await post('/api/notice-blasts/estimate/', body({ body: 'Levy: ₦5,000 '.repeat(6) }));
    expect(naira.json()).toMatchObject({
      recipients: 3,
      sms: { encoding: 'UCS-2', units_per_message: 2, total_units: 6, cost_kobo: 2400 },
    });
    const emailOnly = await post('/api/notice-blasts/estimate/', body({ channels: ['email'] }));
    expect(emailOnly.json()).toMatchObject({ recipients: 3, sms: { total_units: 0, cost_kobo: 0 } });
  });

  it('audiences: an arm’s parents, a level’s, the debtors’ (fees fallen due only)', async () => {
    const recipients = async (audience: object) =>
      (await post('/api/notice-blasts/estimate/', body({ audience }))).json<{ recipients: number }>().recipients;
    expect(await recipients({ kind: 'arm', arm: 'JSS 1A' })).toBe(2);
    expect(await recipients({ kind: 'arm', arm: 'JSS 2A' })).toBe(1);
    expect(await recipients({ kind: 'level', level: 'JSS 3' })).toBe(1);
    expect(await recipients({ kind: 'debtors' })).toBe(1);
    const unknown = await post('/api/notice-blasts/estimate/', body({ audience: { kind: 'arm', arm: 'SSS 3Z' } }));
    expect(unknown.statusCode).toBe(400);
    const none = await post('/api/notice-blasts/', body({ audience: { kind: 'level', level: 'SSS 3' } }));
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ audience: [M.noRecipients] });
  });

  it('refuses hostile or bad input with field messages, storing nothing', async () => {
    const before = await blastCount();
    const cases: [object, string][] = [
      [body({ body: 'Hello\u0007there' }), 'body'],
      [body({ body: 'Pay {balance} now' }), 'body'],
      [body({ body: 'x'.repeat(919) }), 'body'],
      [body({ body: 'x'.repeat(5001), channels: ['email'] }), 'body'],
      [body({ channels: [] }), 'channels'],
      [body({ channels: ['fax'] }), 'channels.0'],
      [body({ subject: 'Hi\u202Eexe' }), 'subject'],
      [body({ audience: { kind: 'arm' } }), 'audience.arm'],
    ];
    for (const [payload, field] of cases) {
      const res = await post('/api/notice-blasts/', payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(Object.keys(res.json()), res.body).toContain(field);
    }
    expect(await blastCount()).toBe(before);
  });

  let blastId: number;
  it('sends: one message per parent and channel, queued at once; progress counts them; HTML stays text', async () => {
    const res = await post('/api/notice-blasts/', body({ channels: ['sms', 'email', 'in_app'], subject: 'PTA <b>meeting</b>' }));
    expect(res.statusCode, res.body).toBe(201);
    blastId = res.json<{ id: number }>().id;
    const msgs = await ctx.handle.db.selectFrom('notice_messages').selectAll().where('blast_id', '=', blastId).orderBy('id').execute();
    expect(msgs.map((m) => m.channel).sort()).toEqual(['email', 'in_app', 'in_app', 'in_app', 'sms', 'sms', 'sms']);
    const sms = msgs.find((m) => m.channel === 'sms' && m.to_address === parents[0]!.phone)!;
    expect(sms.body).toMatch(/^.+: PTA meeting on Saturday at 10am, Mrs Obi\.$/);
    const email = msgs.find((m) => m.channel === 'email')!;
    expect(email).toMatchObject({ to_address: 'obi@example.ng', subject: 'PTA <b>meeting</b>' });
    const view = (await get(`/api/notice-blasts/${blastId}/`)).json<BlastView>();
    expect(view).toMatchObject({
      id: blastId,
      status: 'sending',
      recipients: 3,
      audience: { kind: 'all' },
      channels: ['sms', 'email', 'in_app'],
    });
    expect(view.counts).toEqual({ queued: 7, sent: 0, delivered: 0, failed: 0, skipped: 0, held: 0, cancelled: 0 });
  });

  it('pause holds what waits, resume releases it, cancel stops what was not sent (what was sent stays)', async () => {
    const paused = await post(`/api/notice-blasts/${blastId}/pause/`);
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json<BlastView>()).toMatchObject({ status: 'paused', counts: { queued: 0, held: 7 } });
    expect((await post(`/api/notice-blasts/${blastId}/pause/`)).statusCode).toBe(409);
    const resumed = await post(`/api/notice-blasts/${blastId}/resume/`);
    expect(resumed.json<BlastView>()).toMatchObject({ status: 'sending', counts: { queued: 7, held: 0 } });
    // The worker sent two meanwhile.
    const ids = (
      await ctx.handle.db.selectFrom('notice_messages').select('id').where('blast_id', '=', blastId).orderBy('id').limit(2).execute()
    ).map((r) => r.id);
    await ctx.handle.db.updateTable('notice_messages').set({ status: 'sent' }).where('id', '=', ids[0]!).execute();
    await ctx.handle.db.updateTable('notice_messages').set({ status: 'delivered' }).where('id', '=', ids[1]!).execute();
    const cancelled = await post(`/api/notice-blasts/${blastId}/cancel/`);
    expect(cancelled.json<BlastView>()).toMatchObject({ status: 'cancelled', counts: { queued: 0, sent: 1, delivered: 1, cancelled: 5 } });
    expect(cancelled.json<BlastView>().finished_at).not.toBeNull();
    for (const action of ['pause', 'resume', 'cancel'])
      expect((await post(`/api/notice-blasts/${blastId}/${action}/`)).statusCode).toBe(409);
    expect((await post('/api/notice-blasts/999999/pause/')).statusCode).toBe(404);
  });

  it('a blast whose messages have all left the queue is done; the list is newest first with progress', async () => {
    const res = await post('/api/notice-blasts/', body({ audience: { kind: 'arm', arm: 'JSS 2A' }, channels: ['in_app'] }));
    const id = res.json<{ id: number }>().id;
    await ctx.handle.db.updateTable('notice_messages').set({ status: 'delivered' }).where('blast_id', '=', id).execute();
    const page = (await get('/api/notice-blasts/')).json<BlastPage>();
    expect(page.results.map((b) => b.id)).toEqual([id, blastId]);
    expect(page.results[0]).toMatchObject({ status: 'done', counts: { delivered: 1 } });
    expect(page.results[0]!.finished_at).not.toBeNull();
    expect(page).toMatchObject({ count: 2, next: null });
  });

  it('admin only', async () => {
    const staff = await signInStaff(ctx);
    for (const [method, url] of [
      ['GET', '/api/notice-blasts/'],
      ['POST', '/api/notice-blasts/estimate/'],
      ['POST', '/api/notice-blasts/'],
      ['GET', `/api/notice-blasts/${blastId}/`],
      ['POST', `/api/notice-blasts/${blastId}/cancel/`],
    ] as const) {
      const res = await ctx.app.inject({ method, url, headers: staff.auth, ...(method === 'POST' ? { payload: body() } : {}) });
      expect(res.statusCode, url).toBe(403);
    }
  });
});

import { expect, it } from 'vitest';
import { DEFAULT_NOTICE_TEMPLATES, NOTICE_KIND_PLACEHOLDERS, NOTICE_TEMPLATE_MESSAGES as M, type NoticeTemplateView } from '@portal/domain';
import { auditRow, describeEachDatabase, signInStaff, withAdmin, type SignedIn, type TestContext } from '../../../test/helpers';

describeEachDatabase('notice templates and reminder days', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  withAdmin(dialect, (s) => {
    ctx = s.ctx;
    admin = s.admin;
  });
  const list = async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/notice-templates/', headers: admin.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<NoticeTemplateView[]>();
  };
  const put = (kind: string, payload: object) =>
    ctx.app.inject({ method: 'PUT', url: `/api/notice-templates/${kind}/`, headers: admin.auth, payload });

  it('lists every kind with its defaults, placeholders and the SMS length of a sample', async () => {
    const views = await list();
    expect(views.map((v) => v.kind)).toEqual(Object.keys(DEFAULT_NOTICE_TEMPLATES));
    const absent = views.find((v) => v.kind === 'absent_today')!;
    expect(absent).toMatchObject({ ...DEFAULT_NOTICE_TEMPLATES.absent_today, is_default: true, updated_at: null });
    expect(absent.placeholders.map((p) => p.name)).toEqual(NOTICE_KIND_PLACEHOLDERS.absent_today);
    expect(absent.sms).toMatchObject({ encoding: 'GSM-7', units: 1 });
    expect(absent.sms.preview).toContain('Chidera Okafor (JSS 2B) was marked absent');
  });

  it('saves a template whose placeholders are the kind’s, with an audit row; the list shows it', async () => {
    const body = {
      sms_body: '{school}: {student_name} absent on {date}. ₦',
      email_subject: 'Absent: {student_name}',
      email_body: 'Dear {parent_name},\n\nAbsent.',
    };
    const res = await put('absent_today', body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<NoticeTemplateView>()).toMatchObject({ ...body, is_default: false, sms: { encoding: 'UCS-2' } });
    expect((await list()).find((v) => v.kind === 'absent_today')).toMatchObject(body);
    const audit = await auditRow(ctx, 'notice_template', 'absent_today', 'update');
    expect(audit.actor_user_id).toBe(admin.userId);
    // Reset: the defaults put back.
    expect((await put('absent_today', DEFAULT_NOTICE_TEMPLATES.absent_today)).statusCode).toBe(200);
  });

  it('refuses an unknown or malformed placeholder naming it, control characters and a huge body; nothing stored', async () => {
    const res = await put('absent_today', { sms_body: 'Paid {amount} {student_name', email_subject: 'Hi\u0007', email_body: 'ok' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      sms_body: [M.unknownPlaceholder('amount', NOTICE_KIND_PLACEHOLDERS.absent_today), M.malformedPlaceholder('{student_name')],
      email_subject: ['The subject must not contain control characters or text-direction overrides'],
    });
    const huge = await put('absent_today', { sms_body: 'ok', email_subject: 'ok', email_body: 'x'.repeat(5001) });
    expect(huge.json()).toEqual({ email_body: [M.tooLong(5000)] });
    expect((await put('no_such_kind', DEFAULT_NOTICE_TEMPLATES.custom)).statusCode).toBe(400);
    expect((await put('custom', { sms_body: '   ', email_subject: 's', email_body: 'b' })).json()).toEqual({ sms_body: [M.bodyRequired] });
    expect((await list()).find((v) => v.kind === 'absent_today')?.is_default).toBe(false);
    expect((await list()).find((v) => v.kind === 'custom')?.is_default).toBe(true);
  });

  it('reminder days: sorted, distinct, 1 to 365, at most 6; admin only', async () => {
    const get = () => ctx.app.inject({ method: 'GET', url: '/api/notice-reminders/', headers: admin.auth });
    expect((await get()).json()).toEqual({ days_after_due: [] });
    const ok = await ctx.app.inject({
      method: 'PUT',
      url: '/api/notice-reminders/',
      headers: admin.auth,
      payload: { days_after_due: [30, 7, 14] },
    });
    expect(ok.json()).toEqual({ days_after_due: [7, 14, 30] });
    expect((await get()).json()).toEqual({ days_after_due: [7, 14, 30] });
    for (const bad of [[0], [366], [7, 7], [1, 2, 3, 4, 5, 6, 7], [1.5], ['7']]) {
      const r = await ctx.app.inject({
        method: 'PUT',
        url: '/api/notice-reminders/',
        headers: admin.auth,
        payload: { days_after_due: bad },
      });
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await get()).json()).toEqual({ days_after_due: [7, 14, 30] });
    const staff = await signInStaff(ctx);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/notice-reminders/', headers: staff.auth })).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/notice-templates/', headers: staff.auth })).statusCode).toBe(403);
  });
});

import { expect, it } from 'vitest';
import { noticeHtml, SUBJECTS } from '@portal/domain';
import { createResults } from '../../db/factories';
import { addStudent, describeEachDatabase, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import { addParent, eventsOf, expandEvents, messagesOf } from '../../../test/notice-fixtures';
import { signInBursar, recordPayment, lagosDay } from '../../../test/payments-fixtures';

describeEachDatabase('notice events: results released, payment received, and what parents get', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  let sessionId: number;
  const kids: Record<string, { id: number; userId: number; admissionNumber: string }> = {};
  let mum: { userId: number; phone: string };
  let dad: { userId: number; phone: string };
  withSchool(dialect, { sessions: ['2025/2026'] }, async (s) => {
    ({ ctx, admin, sessionId } = s);
    for (const [key, first, arm] of [
      ['ada', 'Ada', 'JSS 1A'],
      ['chidi', 'Chidi', 'JSS 1A'],
      ['emeka', 'Emeka', 'JSS 1A'],
      ['femi', 'Femi', 'JSS 2A'],
    ] as const) {
      kids[key] = await addStudent(ctx, arm, first, key === 'femi' ? 'Ade' : 'Obi');
    }
    // Mrs Obi: Ada and Chidi (same arm) and Femi's guardian too, with an email; Mr Obi: Chidi, phone only. Emeka has no parent.
    mum = await addParent(ctx.handle.db, {
      name: 'Mrs Ngozi Obi',
      email: 'ngozi@example.ng',
      studentIds: [kids.ada!.id, kids.chidi!.id, kids.femi!.id],
    });
    dad = await addParent(ctx.handle.db, { name: 'Mr <b>Obi</b>', studentIds: [kids.chidi!.id], relationship: 'father' });
    await createResults(
      ctx.handle.db,
      Object.values(kids).map((k, i) => ({
        studentId: k.id,
        sessionId,
        term: '1st',
        arm: i < 3 ? 'JSS 1A' : 'JSS 2A',
        subject: SUBJECTS[0],
        score: 60,
      })),
    );
  });
  const release = (student_class: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/results/publications/',
      headers: admin.auth,
      payload: { session_id: sessionId, term: '1st', student_class },
    });

  it('a release records one event per arm in its transaction; the composer writes each parent one message per channel, children named together', async () => {
    const res = await release('JSS 1A');
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect((await eventsOf(ctx, 'results_released')).map((e) => e.dedupe_key)).toEqual([`results_released:${sessionId}:1st:JSS 1A`]);
    expect(await expandEvents(ctx)).toBe(1);
    const msgs = await messagesOf(ctx, 'results_released');
    const toMum = msgs.filter((m) => m.recipient_user_id === mum.userId);
    expect(toMum.map((m) => m.channel).sort()).toEqual(['email', 'in_app', 'sms']);
    const sms = toMum.find((m) => m.channel === 'sms')!;
    expect(sms.to_address).toBe(mum.phone);
    expect(sms.body).toContain("Ada Obi and Chidi Obi's 1st term results (JSS 1A, 2025/2026) are out");
    expect(sms.body).not.toContain('Femi');
    const email = toMum.find((m) => m.channel === 'email')!;
    expect(email).toMatchObject({ to_address: 'ngozi@example.ng', subject: "Ada Obi and Chidi Obi's 1st term results are out" });
    expect(email.body).toMatch(/^Dear Mrs Ngozi Obi,/);
    // Dad: phone only: SMS and in-app.
    expect(
      msgs
        .filter((m) => m.recipient_user_id === dad.userId)
        .map((m) => m.channel)
        .sort(),
    ).toEqual(['in_app', 'sms']);
    // Every student of the arm (Emeka without a parent too) gets their own in-app notice.
    const students = msgs.filter((m) => [kids.ada, kids.chidi, kids.emeka].some((k) => k!.userId === m.recipient_user_id));
    expect(students.map((m) => m.channel)).toEqual(['in_app', 'in_app', 'in_app']);
    expect(students[0]!.subject).toBe('Your 1st term results are out');
    expect(msgs).toHaveLength(3 + 2 + 3);
  });

  it('releasing again, or expanding again, writes nothing twice', async () => {
    const before = (await messagesOf(ctx, 'results_released')).length;
    await release('JSS 1A');
    expect(await eventsOf(ctx, 'results_released')).toHaveLength(1);
    expect(await expandEvents(ctx)).toBe(0);
    // The same event composed a second time (a worker killed before marking it) is refused by the unique key.
    await ctx.handle.db.updateTable('notice_events').set({ expanded_at: null }).execute();
    expect(await expandEvents(ctx)).toBe(1);
    expect(await messagesOf(ctx, 'results_released')).toHaveLength(before);
  });

  it("a name's markup stays text in the message, and the email's HTML escapes it", async () => {
    const toDad = (await messagesOf(ctx, 'results_released')).find((m) => m.recipient_user_id === dad.userId && m.channel === 'in_app')!;
    expect(toDad.body).toContain('Chidi Obi');
    const html = noticeHtml('Dear Mr <b>Obi</b>,\n\nline');
    expect(html).toBe('<p>Dear Mr &lt;b&gt;Obi&lt;/b&gt;,</p>\n<p>line</p>');
  });

  it('an offline payment records "payment received" with its receipt number; parents and the student are told, in NGN', async () => {
    const bursar = await signInBursar(ctx, admin);
    const entry = await recordPayment(ctx, bursar, {
      admission_number: kids.femi!.admissionNumber,
      session_id: sessionId,
      amount: 45000,
      bank_reference: 'FBN-NOTICE-1',
      paid_on: lagosDay(-1),
      term: '1st',
    });
    const events = await eventsOf(ctx, 'payment_received');
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({
      student_id: kids.femi!.id,
      receipt_number: entry.receipt_number,
      amount_kobo: 4_500_000,
      term: '1st',
    });
    await expandEvents(ctx);
    const msgs = await messagesOf(ctx, 'payment_received');
    const sms = msgs.find((m) => m.channel === 'sms')!;
    expect(sms.to_address).toBe(mum.phone);
    expect(sms.body).toContain(`we received NGN 45,000.00 for Femi Ade, 1st term. Receipt ${entry.receipt_number}.`);
    expect(msgs.find((m) => m.recipient_user_id === kids.femi!.userId)?.body).toBe(
      `NGN 45,000.00 was received for your 1st term fees. Receipt ${entry.receipt_number}.`,
    );
  });

  it("the school's edited template is what the composer renders", async () => {
    const put = await ctx.app.inject({
      method: 'PUT',
      url: '/api/notice-templates/results_released/',
      headers: admin.auth,
      payload: { sms_body: 'RESULTS {student_name} {arm}', email_subject: 'R {student_name}', email_body: 'B' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await release('JSS 2A')).statusCode).toBeLessThan(300);
    await expandEvents(ctx);
    const sms = (await messagesOf(ctx, 'results_released')).filter((m) => m.channel === 'sms').at(-1)!;
    expect(sms.body).toBe('RESULTS Femi Ade JSS 2A');
  });
});

import { expect, it } from 'vitest';
import { createFeeItems } from '../../db/factories';
import { describeEachDatabase, servicesOver, type SignedIn, type TestContext } from '../../../test/helpers';
import { attendanceArm, saveRegister, testClock, withRegisterSchool } from '../../../test/attendance-fixtures';
import { addParent, eventsOf, expandEvents, messagesOf } from '../../../test/notice-fixtures';
import { reminderDue } from './reminders.service';

describeEachDatabase("notice events: today's register and fees overdue", (dialect) => {
  const clock = testClock('2025-10-06'); // a Monday of the first term (15 Sep - 19 Dec 2025)
  let ctx: TestContext;
  let admin: SignedIn;
  let teacher: SignedIn & { id: number };
  let sessionId: number;
  withRegisterSchool(dialect, clock, (school) => ({ ctx, admin, sessionId, teacher } = school));

  const save = (cls: string, date: string, marks: { admissionNumber: string; status: string }[], version: number, period = 'morning') =>
    saveRegister(ctx, teacher, {
      student_class: cls,
      date,
      period,
      version,
      marks: marks.map((m) => ({ admission_number: m.admissionNumber, status: m.status })),
    });

  it('a saved register of today tells the parents of each absent child once a day; a three-day streak once; a past day nobody', async () => {
    const { cls, kids } = await attendanceArm(ctx, sessionId, teacher.id, ['Ada Eze', 'Bola Ade', 'Chidi Obi']);
    const [ada, bola, chidi] = kids as [(typeof kids)[number], (typeof kids)[number], (typeof kids)[number]];
    const mum = await addParent(ctx.handle.db, { name: 'Mrs Eze', studentIds: [ada.id] });
    await addParent(ctx.handle.db, { name: 'Mr Ade', studentIds: [bola.id] });

    // A past day saved by the admin (a correction) tells nobody.
    clock.at('2025-10-06');
    const mon = await save(
      cls,
      '2025-10-06',
      [
        { ...ada, status: 'absent' },
        { ...bola, status: 'present' },
        { ...chidi, status: 'absent' },
      ],
      0,
    );
    expect(mon.statusCode, mon.body).toBe(200);
    clock.at('2025-10-07');
    expect(
      (
        await save(
          cls,
          '2025-10-07',
          [
            { ...ada, status: 'absent' },
            { ...bola, status: 'absent' },
            { ...chidi, status: 'present' },
          ],
          0,
        )
      ).statusCode,
    ).toBe(200);
    clock.at('2025-10-08');
    const past = await saveRegister(ctx, admin, {
      student_class: cls,
      date: '2025-10-07',
      period: 'morning',
      version: 1,
      marks: [ada, bola, chidi].map((k) => ({ admission_number: k.admissionNumber, status: 'absent' })),
    });
    expect(past.statusCode, past.body).toBe(200);
    expect((await eventsOf(ctx, 'absent_today')).map((e) => e.dedupe_key)).toEqual([
      `absent_today:${ada.id}:2025-10-06`,
      `absent_today:${chidi.id}:2025-10-06`,
      `absent_today:${ada.id}:2025-10-07`,
      `absent_today:${bola.id}:2025-10-07`,
    ]);

    // Wednesday: Ada's third day absent in a row. Saved twice: still one event each.
    const wed = await save(
      cls,
      '2025-10-08',
      [
        { ...ada, status: 'absent' },
        { ...bola, status: 'present' },
        { ...chidi, status: 'late' },
      ],
      0,
    );
    expect(wed.statusCode, wed.body).toBe(200);
    expect(
      (
        await save(
          cls,
          '2025-10-08',
          [
            { ...ada, status: 'absent' },
            { ...bola, status: 'absent' },
            { ...chidi, status: 'late' },
          ],
          1,
        )
      ).statusCode,
    ).toBe(200);
    const today = (await eventsOf(ctx, 'absent_today')).filter((e) => e.payload.date === '2025-10-08');
    expect(today.map((e) => e.payload.student_id)).toEqual([ada.id, bola.id]);
    const streaks = await eventsOf(ctx, 'absent_streak');
    expect(streaks.map((e) => e.dedupe_key)).toEqual([`absent_streak:${ada.id}:2025-10-08`]);
    expect(streaks[0]!.payload).toMatchObject({ days: 3, date: '2025-10-08' });

    await expandEvents(ctx);
    const sms = (await messagesOf(ctx, 'absent_streak')).filter((m) => m.channel === 'sms');
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({ to_address: mum.phone, recipient_user_id: mum.userId });
    expect(sms[0]!.body).toContain('Ada Eze (' + cls + ') has been absent 3 school days in a row, up to 8 Oct 2025.');
    // Chidi has no parent: no message about him, and students get no absence notice of their own.
    const absent = await messagesOf(ctx, 'absent_today');
    expect(absent.every((m) => !m.body.includes('Chidi'))).toBe(true);
    // Ada on three days, Bola on two.
    expect(absent.filter((m) => m.channel === 'sms')).toHaveLength(5);
  });

  it('fees overdue: debtors only, never an item not yet due; the largest reminder day reached, once', async () => {
    clock.at('2025-10-08');
    const { cls, kids } = await attendanceArm(ctx, sessionId, teacher.id, ['Dayo Owe', 'Efe Paid']);
    const [dayo, efe] = kids as [(typeof kids)[number], (typeof kids)[number]];
    const later = await attendanceArm(ctx, sessionId, teacher.id, ['Funmi Later']);
    const funmi = later.kids[0]!;
    for (const k of [dayo, efe, funmi]) await addParent(ctx.handle.db, { name: `Parent of ${k.name}`, studentIds: [k.id] });
    await createFeeItems(ctx.handle.db, [
      { arm: cls, sessionId, term: '1st', name: 'Tuition', amountKobo: 2_000_000 },
      { arm: later.cls, sessionId, term: '1st', name: 'Tuition', amountKobo: 2_000_000 },
    ]);
    // Funmi's arm's tuition falls due in November: upcoming, not owed.
    await ctx.handle.db.updateTable('fee_items').set({ due_on: '2025-11-03' }).where('student_class', '=', later.cls).execute();
    // Efe paid in full.
    const bursarPay = await ctx.app.inject({
      method: 'POST',
      url: '/api/bursary/payments/',
      headers: admin.auth,
      payload: {
        admission_number: efe.admissionNumber,
        session_id: sessionId,
        term: '1st',
        amount: 20000,
        method: 'cash',
        paid_on: '2025-10-01',
        confirm: true,
      },
    });
    expect(bursarPay.statusCode, bursarPay.body).toBe(201);

    const reminders = servicesOver(ctx, ctx.handle.db, { now: clock.now }).feeReminders;
    // No reminder days set: nothing.
    expect(await reminders.run()).toBe(0);
    const put = await ctx.app.inject({
      method: 'PUT',
      url: '/api/notice-reminders/',
      headers: admin.auth,
      payload: { days_after_due: [7, 14, 30] },
    });
    expect(put.statusCode).toBe(200);
    // 8 Oct: the 1st term began 15 Sep, 23 days ago: the 14-day reminder (not 7 as well).
    expect(await reminders.tick('2025-10-08')).toBe(1);
    expect(await reminders.tick('2025-10-08')).toBe(0);
    expect(await reminders.run()).toBe(0);
    const [event] = await eventsOf(ctx, 'fees_overdue');
    expect(event!.dedupe_key).toBe(`fees_overdue:${sessionId}:${dayo.id}:2025-09-15:14`);
    expect(event!.payload).toMatchObject({ student_id: dayo.id, balance_kobo: 2_000_000, days: 23, term: '1st' });
    await expandEvents(ctx);
    const sms = (await messagesOf(ctx, 'fees_overdue')).filter((m) => m.channel === 'sms');
    expect(sms.map((m) => m.body)).toEqual([expect.stringContaining("Dayo Owe's school fees of NGN 20,000.00 are 23 days overdue.")]);

    // 16 Oct: 31 days: the 30-day reminder, once.
    clock.at('2025-10-16');
    expect(await reminders.tick('2025-10-16')).toBe(1);
    expect((await eventsOf(ctx, 'fees_overdue')).map((e) => e.dedupe_key.split(':').at(-1))).toEqual(['14', '30']);
  });

  it('reminderDue: the largest day reached, or none', () => {
    expect(reminderDue(6, [7, 14, 30])).toBeNull();
    expect(reminderDue(7, [7, 14, 30])).toBe(7);
    expect(reminderDue(29, [30, 7, 14])).toBe(14);
    expect(reminderDue(400, [7])).toBe(7);
    expect(reminderDue(10, [])).toBeNull();
  });
});

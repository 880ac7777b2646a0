import { expect, it } from 'vitest';
import { ATTENDANCE_MESSAGES, DEFAULT_ATTENDANCE_SETTINGS, type SchoolCalendarView } from '@portal/domain';
import { auditRow, describeEachDatabase, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import {
  addEvent,
  attendanceArm,
  firstTermCalendar,
  putAttendanceSettings,
  putTermDates,
  saveRegister,
  testClock,
} from '../../../test/attendance-fixtures';

/** The school calendar: term dates, holidays and breaks, extra school days, registers a day. */
describeEachDatabase('school calendar', (dialect) => {
  const clock = testClock('2025-10-08');
  let ctx: TestContext;
  let admin: SignedIn;
  let teacher: SignedIn & { id: number };
  let sessionId: number;
  let previousSessionId: number;

  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'], now: clock.now }, async (school) => {
    ({ ctx, admin, sessionId, previousSessionId } = school);
    teacher = school.staff;
    await firstTermCalendar(ctx.app, admin.auth, sessionId);
  });

  /** The admin sets a term's dates. */
  const termDates = (session_id: number, term: string, starts_on: string, ends_on: string) =>
    putTermDates(ctx, admin, { session_id, term, starts_on, ends_on });
  const calendar = (id: number, who: SignedIn = admin) =>
    ctx.app.inject({ method: 'GET', url: `/api/attendance/calendar/?session_id=${id}`, headers: who.auth });
  const saveAll = async (cls: string, kids: { admissionNumber: string }[], date: string) => {
    clock.at(date);
    const res = await saveRegister(ctx, teacher, {
      student_class: cls,
      date,
      period: 'morning',
      version: 0,
      marks: kids.map((k) => ({ admission_number: k.admissionNumber, status: 'present' })),
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('shows three terms with their school days, registers and events, and today', async () => {
    clock.at('2025-10-08');
    const res = await calendar(sessionId, teacher);
    expect(res.statusCode).toBe(200);
    const view = res.json<SchoolCalendarView>();
    expect(view).toMatchObject({
      session_id: sessionId,
      session_name: '2025/2026',
      settings: DEFAULT_ATTENDANCE_SETTINGS,
      today: '2025-10-08',
    });
    // 14 weeks of weekdays (70) less Independence Day and a 5-day break.
    expect(view.terms.map((t) => [t.term, t.starts_on, t.ends_on, t.school_days])).toEqual([
      ['1st', '2025-09-15', '2025-12-19', 64],
      ['2nd', null, null, null],
      ['3rd', null, null, null],
    ]);
    expect(view.events.map((e) => e.name)).toEqual(['Independence Day', 'Mid-term break']);
    const bad = await calendar(999999);
    expect(bad.statusCode).toBe(400);
  });

  it('refuses term dates that overlap another term, break the order or leave registers outside (audited when saved)', async () => {
    const overlap = await termDates(previousSessionId, '3rd', '2025-07-01', '2025-09-20');
    expect(overlap.statusCode).toBe(400);
    expect(overlap.json()).toEqual({ starts_on: [ATTENDANCE_MESSAGES.termOverlaps('First Term of 2025/2026')] });
    const order = await termDates(sessionId, '2nd', '2025-01-12', '2025-04-02');
    expect(order.json()).toEqual({ starts_on: [ATTENDANCE_MESSAGES.termOrder('First Term of 2025/2026')] });
    const ok = await termDates(sessionId, '2nd', '2026-01-12', '2026-04-02');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ session_id: sessionId, term: '2nd', starts_on: '2026-01-12', ends_on: '2026-04-02' });
    await auditRow(ctx, 'school_term', `${sessionId}/2nd`, 'create');
    const before = await termDates(previousSessionId, '1st', '2025-08-01', '2025-08-30');
    expect(before.statusCode).toBe(200);
    const reorder = await termDates(previousSessionId, '2nd', '2025-06-01', '2025-06-30');
    expect(reorder.json()).toEqual({ starts_on: [ATTENDANCE_MESSAGES.termOrder('First Term of 2024/2025')] });
    const tooLong = await termDates(sessionId, '3rd', '2026-04-27', '2026-12-24');
    expect(tooLong.json()).toEqual({ ends_on: [ATTENDANCE_MESSAGES.termTooLong] });

    const { cls, kids } = await attendanceArm(ctx, sessionId, teacher.id, ['Ada Eze']);
    await saveAll(cls, kids, '2025-09-16');
    await saveAll(cls, kids, '2025-09-17');
    await saveAll(cls, kids, '2025-09-18');
    const outside = await termDates(sessionId, '1st', '2025-09-18', '2025-12-19');
    expect(outside.json()).toEqual({ starts_on: [ATTENDANCE_MESSAGES.termMarksOutside('2025-09-16', 2)] });
    const moved = await termDates(sessionId, '1st', '2025-09-15', '2025-12-18');
    expect(moved.statusCode).toBe(200);
    await auditRow(ctx, 'school_term', `${sessionId}/1st`, 'update');
    expect((await termDates(sessionId, '1st', '2025-09-15', '2025-12-19')).statusCode).toBe(200);
  });

  it("never lets a session's terms overlap another session's, its holidays between terms included", async () => {
    // 2025/2026 runs from its 1st term's start to its 2nd's end (set above): the holiday between them is its own.
    expect((await termDates(sessionId, '2nd', '2026-01-12', '2026-04-02')).statusCode).toBe(200);
    const inHoliday = await termDates(previousSessionId, '3rd', '2025-12-22', '2026-01-09');
    expect(inHoliday.statusCode).toBe(400);
    expect(inHoliday.json()).toEqual({ starts_on: [ATTENDANCE_MESSAGES.termInOtherSession('2025/2026', '2025-09-15', '2026-04-02')] });
    // Nor may a session stretch around another: 2024/2025 from August 2025 to May 2026 would hold all of 2025/2026.
    expect((await termDates(previousSessionId, '1st', '2025-08-01', '2025-08-30')).statusCode).toBe(200);
    const around = await termDates(previousSessionId, '2nd', '2026-05-01', '2026-06-30');
    expect(around.json()).toEqual({ starts_on: [ATTENDANCE_MESSAGES.termInOtherSession('2025/2026', '2025-09-15', '2026-04-02')] });
    // Nothing was saved by the refusals.
    const view = (await calendar(previousSessionId)).json<SchoolCalendarView>();
    expect(view.terms.map((t) => [t.term, t.starts_on])).toEqual([
      ['1st', '2025-08-01'],
      ['2nd', null],
      ['3rd', null],
    ]);
  });

  it('refuses a holiday over marked days and removing an extra school day that was marked; 404 for an unknown event', async () => {
    const { cls, kids } = await attendanceArm(ctx, sessionId, teacher.id, ['Ada Eze']);
    await saveAll(cls, kids, '2025-11-05');
    const holiday = await addEvent(ctx, admin, { name: 'Strike', kind: 'holiday', starts_on: '2025-11-04', ends_on: '2025-11-06' });
    expect(holiday.statusCode).toBe(400);
    expect(holiday.json()).toEqual({ starts_on: [ATTENDANCE_MESSAGES.eventMarksInside('2025-11-05', 'Strike')] });

    const extra = await addEvent(ctx, admin, { name: 'Sports day', kind: 'school_day', starts_on: '2025-11-08', ends_on: '2025-11-08' });
    expect(extra.statusCode).toBe(201);
    const id = extra.json<{ id: number }>().id;
    await auditRow(ctx, 'calendar_event', String(id), 'create');
    await saveAll(cls, kids, '2025-11-08');
    const remove = await ctx.app.inject({ method: 'DELETE', url: `/api/attendance/events/${id}/`, headers: admin.auth });
    expect(remove.statusCode).toBe(400);
    expect(remove.json()).toEqual({ non_field_errors: [ATTENDANCE_MESSAGES.eventMarksOnRemove('2025-11-08')] });

    const spare = await addEvent(ctx, admin, { name: 'Open day', kind: 'school_day', starts_on: '2025-11-15', ends_on: '2025-11-15' });
    const spareId = spare.json<{ id: number }>().id;
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/attendance/events/${spareId}/`, headers: admin.auth })).statusCode).toBe(
      204,
    );
    await auditRow(ctx, 'calendar_event', String(spareId), 'delete');
    const gone = await ctx.app.inject({ method: 'DELETE', url: `/api/attendance/events/${spareId}/`, headers: admin.auth });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ detail: ATTENDANCE_MESSAGES.eventNotFound });

    const unnamed = await addEvent(ctx, admin, { name: '  ', kind: 'holiday', starts_on: '2025-11-20', ends_on: '2025-11-20' });
    expect(unnamed.json()).toEqual({ name: [ATTENDANCE_MESSAGES.eventNameRequired] });
    const backwards = await addEvent(ctx, admin, { name: 'X', kind: 'holiday', starts_on: '2025-11-20', ends_on: '2025-11-19' });
    expect(backwards.json()).toEqual({ ends_on: [ATTENDANCE_MESSAGES.eventEndBeforeStart] });
  });

  it('locks registers a day while the term holding today has registers (audited otherwise)', async () => {
    clock.at('2025-10-08');
    const { cls, kids } = await attendanceArm(ctx, sessionId, teacher.id, ['Ada Eze']);
    await saveAll(cls, kids, '2025-10-08');
    const put = (periods: number) => putAttendanceSettings(ctx, admin, { periods_per_day: periods, saturday_classes: false });
    const locked = await put(2);
    expect(locked.statusCode).toBe(400);
    expect(locked.json()).toEqual({ periods_per_day: [ATTENDANCE_MESSAGES.periodsLocked] });
    // Between terms (no term holds today) it may change.
    clock.at('2025-12-29');
    expect((await put(2)).statusCode).toBe(200);
    await auditRow(ctx, 'settings', 'attendance', 'update');
    expect((await put(1)).statusCode).toBe(200);
  });
});

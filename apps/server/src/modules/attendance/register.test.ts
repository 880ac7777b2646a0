import { expect, it, onTestFinished } from 'vitest';
import { ATTENDANCE_CODES, ATTENDANCE_MESSAGES, SESSION_CLOSED_CODE, TEACHING_MESSAGES, type Register } from '@portal/domain';
import { auditRow, createSession, describeEachDatabase, signInStudent, type SignedIn, type TestContext } from '../../../test/helpers';
import {
  addEvent,
  attendanceArm,
  putAttendanceSettings,
  saveRegister,
  testClock,
  withRegisterSchool,
} from '../../../test/attendance-fixtures';

/**
 * The form teacher's daily register with a fixed clock in the first term of 2025/2026:
 * which days can be marked, who may mark, the save's checks, its lock and the correction rule.
 */
describeEachDatabase('attendance register', (dialect) => {
  const clock = testClock('2025-10-08'); // a Wednesday
  let ctx: TestContext;
  let admin: SignedIn;
  let teacher: SignedIn & { id: number };
  let other: SignedIn & { id: number };
  let sessionId: number;

  withRegisterSchool(dialect, clock, (school) => ({ ctx, admin, sessionId, teacher, other } = school));

  const arm = (names = ['Ada Eze', 'Bola Ade', 'Chidi Obi']) => attendanceArm(ctx, sessionId, teacher.id, names);
  const get = (who: SignedIn, cls: string, date: string, period = 'morning') =>
    ctx.app.inject({
      method: 'GET',
      url: `/api/attendance/register/?student_class=${encodeURIComponent(cls)}&date=${date}&period=${period}`,
      headers: who.auth,
    });
  const put = (who: SignedIn, payload: Record<string, unknown>) => saveRegister(ctx, who, payload);
  const marksOf = (kids: { admissionNumber: string }[], status = 'present') =>
    kids.map((k) => ({ admission_number: k.admissionNumber, status }));
  const save = (
    who: SignedIn,
    cls: string,
    date: string,
    marks: { admission_number: string; status: string }[],
    version = 0,
    period = 'morning',
  ) => put(who, { student_class: cls, date, period, marks, version });

  it("lists the arm's students in surname order, unmarked, for the form teacher to mark today", async () => {
    clock.at('2025-10-08');
    const { cls } = await arm(['Ada Eze', 'Bola Ade', 'Chidi Eze']);
    const res = await get(teacher, cls, '2025-10-08');
    expect(res.statusCode).toBe(200);
    const reg = res.json<Register>();
    expect(reg.rows.map((r) => r.name)).toEqual(['Bola Ade', 'Ada Eze', 'Chidi Eze']);
    expect(reg.rows.every((r) => r.status === null && r.absent_before === 0)).toBe(true);
    expect(reg).toMatchObject({
      saved: null,
      may_edit: true,
      refusal: null,
      today: '2025-10-08',
      periods_per_day: 1,
      form_teacher: 'Grace Okafor',
      day: { school_day: true, session_id: sessionId, term: '1st' },
    });
  });

  it('shows why a day cannot be marked: weekend, holiday, break, outside the term, future, afternoon', async () => {
    clock.at('2025-10-08');
    const { cls, kids } = await arm();
    const cases: [string, string, string][] = [
      ['2025-10-04', 'morning', ATTENDANCE_MESSAGES.weekend('2025-10-04', 'Saturday')],
      ['2025-10-05', 'morning', ATTENDANCE_MESSAGES.weekend('2025-10-05', 'Sunday')],
      ['2025-10-01', 'morning', ATTENDANCE_MESSAGES.holiday('2025-10-01', 'Independence Day')],
      ['2025-09-12', 'morning', ATTENDANCE_MESSAGES.outsideTerm('2025-09-12')],
      ['2025-10-09', 'morning', ATTENDANCE_MESSAGES.futureDate],
      ['2025-10-08', 'afternoon', ATTENDANCE_MESSAGES.periodNotMarked],
    ];
    for (const [date, period, message] of cases) {
      const res = await get(teacher, cls, date, period);
      expect(res.statusCode, date).toBe(200);
      expect(res.json<Register>()).toMatchObject({ may_edit: false, refusal: message });
      expect(res.json<Register>().rows).toHaveLength(3);
      const saved = await save(teacher, cls, date, marksOf(kids), 0, period);
      expect(saved.statusCode, date).toBe(400);
      expect(saved.json()).toEqual(period === 'afternoon' ? { period: [message] } : { date: [message] });
    }
    // The mid-term break.
    const res = await get(admin, cls, '2025-10-28');
    expect(res.json<Register>().refusal).toBe(ATTENDANCE_MESSAGES.holiday('2025-10-28', 'Mid-term break'));
  });

  it('refuses anyone but the form teacher and the admin', async () => {
    clock.at('2025-10-08');
    const { cls, kids } = await arm();
    const res = await get(other, cls, '2025-10-08');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: ATTENDANCE_MESSAGES.formTeacherOnly(cls) });
    expect((await save(other, cls, '2025-10-08', marksOf(kids))).statusCode).toBe(403);
    expect((await get(admin, cls, '2025-10-08')).statusCode).toBe(200);
    const student = await signInStudent(ctx, { arm: cls });
    expect((await get(student, cls, '2025-10-08')).statusCode).toBe(403);
    const unknown = await get(admin, 'JSS 1 Nowhere', '2025-10-08');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ student_class: [TEACHING_MESSAGES.classUnknown('JSS 1 Nowhere')] });
  });

  it('saves a register (audited), then refuses a stale version', async () => {
    clock.at('2025-10-08');
    const { cls, kids } = await arm();
    const res = await save(teacher, cls, '2025-10-08', [
      { admission_number: kids[0]!.admissionNumber, status: 'present' },
      { admission_number: kids[1]!.admissionNumber, status: 'late' },
      { admission_number: kids[2]!.admissionNumber.toLowerCase(), status: 'absent' },
    ]);
    expect(res.statusCode).toBe(200);
    const reg = res.json<Register>();
    expect(reg.saved).toMatchObject({
      version: 1,
      marked_by: 'Grace Okafor',
      updated_by: 'Grace Okafor',
      marked_at: '2025-10-08T09:00:00.000Z',
    });
    expect(Object.fromEntries(reg.rows.map((r) => [r.name, r.status]))).toEqual({
      'Ada Eze': 'present',
      'Bola Ade': 'late',
      'Chidi Obi': 'absent',
    });
    expect(reg.may_edit).toBe(true);
    const audit = await auditRow(ctx, 'attendance_register', `${cls}/2025-10-08/morning`, 'create');
    expect(JSON.parse(audit.after!)).toEqual({
      [kids[0]!.admissionNumber]: 'present',
      [kids[1]!.admissionNumber]: 'late',
      [kids[2]!.admissionNumber]: 'absent',
    });

    const stale = await save(teacher, cls, '2025-10-08', marksOf(kids), 0);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ detail: ATTENDANCE_MESSAGES.changedByOther, code: ATTENDANCE_CODES.changed });

    // The same day, the form teacher corrects it: only the changed mark is audited.
    const fixed = await save(
      teacher,
      cls,
      '2025-10-08',
      [...marksOf(kids.slice(0, 2)), { admission_number: kids[2]!.admissionNumber, status: 'excused' }].map((m, i) =>
        i === 1 ? { ...m, status: 'late' } : m,
      ),
      1,
    );
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json<Register>().saved!.version).toBe(2);
    // A save answers the register as a fresh read shows it (the marks it wrote are not read again).
    expect(fixed.json<Register>()).toEqual((await get(teacher, cls, '2025-10-08')).json<Register>());
    const update = await auditRow(ctx, 'attendance_register', `${cls}/2025-10-08/morning`, 'update');
    expect(JSON.parse(update.before!)).toEqual({ [kids[2]!.admissionNumber]: 'absent' });
    expect(JSON.parse(update.after!)).toEqual({ [kids[2]!.admissionNumber]: 'excused' });
  });

  it('checks the marks are exactly the register students', async () => {
    clock.at('2025-10-08');
    const { cls, kids } = await arm();
    const missing = await save(teacher, cls, '2025-10-08', marksOf(kids.slice(0, 1)));
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ marks: [ATTENDANCE_MESSAGES.everyStudent(2)] });
    const one = await save(teacher, cls, '2025-10-08', marksOf(kids.slice(0, 2)));
    expect(one.json()).toEqual({ marks: [ATTENDANCE_MESSAGES.everyStudent(1)] });
    const unknown = await save(teacher, cls, '2025-10-08', [...marksOf(kids), { admission_number: 'STU-9999', status: 'present' }]);
    expect(unknown.json()).toEqual({ 'marks.3.admission_number': [ATTENDANCE_MESSAGES.markStudentMissing('STU-9999')] });
    const twice = await save(teacher, cls, '2025-10-08', [...marksOf(kids), marksOf(kids)[0]!]);
    expect(twice.json()).toEqual({ 'marks.3.admission_number': [ATTENDANCE_MESSAGES.markDuplicate(kids[0]!.admissionNumber)] });
    expect((await get(teacher, cls, '2025-10-08')).json<Register>().saved).toBeNull();
  });

  it('closes a register to staff the day after it was first saved; the admin corrects it (audited as a correction)', async () => {
    clock.at('2025-10-08');
    const { cls, kids } = await arm();
    expect((await save(teacher, cls, '2025-10-08', marksOf(kids))).statusCode).toBe(200);
    clock.at('2025-10-09');
    const view = (await get(teacher, cls, '2025-10-08')).json<Register>();
    expect(view).toMatchObject({ may_edit: false, refusal: ATTENDANCE_MESSAGES.correctionClosed('2025-10-08') });
    const refused = await save(teacher, cls, '2025-10-08', marksOf(kids, 'late'), 1);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ detail: ATTENDANCE_MESSAGES.correctionClosed('2025-10-08'), code: ATTENDANCE_CODES.closed });
    expect((await get(admin, cls, '2025-10-08')).json<Register>().may_edit).toBe(true);
    const corrected = await save(admin, cls, '2025-10-08', marksOf(kids, 'late'), 1);
    expect(corrected.statusCode).toBe(200);
    expect(corrected.json<Register>().saved).toMatchObject({ version: 2, marked_by: 'Grace Okafor', updated_by: expect.any(String) });
    const audit = await auditRow(ctx, 'attendance_register', `${cls}/2025-10-08/morning`, 'correct');
    expect(audit.actor_user_id).toBe(admin.userId);
    // A day the form teacher missed can still be filled in.
    const missed = await save(teacher, cls, '2025-10-07', marksOf(kids));
    expect(missed.statusCode).toBe(200);
    // ...and corrected the day it was filled in, late in the evening in Lagos (22:30 UTC is 23:30 WAT).
    clock.at('2025-10-09', '22:30:00');
    expect((await save(teacher, cls, '2025-10-07', marksOf(kids, 'late'), 1)).statusCode).toBe(200);
    // After midnight in Lagos it is the next school day there, though still the 9th in UTC.
    clock.at('2025-10-09', '23:30:00');
    expect((await save(teacher, cls, '2025-10-07', marksOf(kids), 2)).statusCode).toBe(409);
  });

  it('counts absent school days in a row before the date across weekends and holidays', async () => {
    const { cls, kids } = await arm(['Ada Eze', 'Bola Ade']);
    const [ada, bola] = kids as [(typeof kids)[0], (typeof kids)[0]];
    const day = async (date: string, adaStatus: string, bolaStatus: string) => {
      clock.at(date);
      const res = await save(teacher, cls, date, [
        { admission_number: ada.admissionNumber, status: adaStatus },
        { admission_number: bola.admissionNumber, status: bolaStatus },
      ]);
      expect(res.statusCode, date).toBe(200);
    };
    // Tue 30 Sep, (Wed 1 Oct holiday), Thu 2, Fri 3, (weekend), Mon 6.
    await day('2025-09-29', 'absent', 'absent');
    await day('2025-09-30', 'absent', 'present');
    await day('2025-10-02', 'excused', 'absent');
    await day('2025-10-03', 'absent', 'late');
    clock.at('2025-10-06');
    const reg = (await get(teacher, cls, '2025-10-06')).json<Register>();
    expect(Object.fromEntries(reg.rows.map((r) => [r.name, r.absent_before]))).toEqual({ 'Ada Eze': 4, 'Bola Ade': 0 });
  });

  it('answers two racing first saves with one 200 and one 409, never a 500', async () => {
    clock.at('2025-10-08');
    const { cls, kids } = await arm();
    const [a, b] = await Promise.all([
      save(teacher, cls, '2025-10-08', marksOf(kids)),
      save(admin, cls, '2025-10-08', marksOf(kids, 'late')),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect((a.statusCode === 409 ? a : b).json()).toEqual({ detail: ATTENDANCE_MESSAGES.changedByOther, code: ATTENDANCE_CODES.changed });
  });

  /** The register's audit rows and notices of the day: a replay adds none. */
  const writesOf = async (cls: string, date: string) => ({
    audits: (
      await ctx.handle.db
        .selectFrom('audit_log')
        .select('action')
        .where('entity', '=', 'attendance_register')
        .where('entity_id', '=', `${cls}/${date}/morning`)
        .execute()
    )
      .map((a) => a.action)
      .sort(),
    version: (await get(teacher, cls, date)).json<Register>().saved?.version ?? 0,
  });

  it('answers a replay (the same marks sent again on the version they were made on) 200, written once', async () => {
    clock.at('2025-10-08');
    const { cls, kids } = await arm();
    const marks = [...marksOf(kids.slice(0, 2)), { admission_number: kids[2]!.admissionNumber, status: 'absent' }];
    const first = await save(teacher, cls, '2025-10-08', marks, 0);
    expect(first.statusCode).toBe(200);
    // The answer was lost offline: the outbox sends the same save again, on version 0 (admission numbers in any case).
    const replay = await save(
      teacher,
      cls,
      '2025-10-08',
      [...marks].reverse().map((m) => ({ ...m, admission_number: m.admission_number.toLowerCase() })),
      0,
    );
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json<Register>()).toEqual(first.json<Register>());
    // Sent again on the stored version, unchanged: nothing written either.
    expect((await save(teacher, cls, '2025-10-08', marks, 1)).statusCode).toBe(200);
    expect(await writesOf(cls, '2025-10-08')).toEqual({ audits: ['create'], version: 1 });
    // Different marks on the old version still meet the conflict: nothing is overwritten silently.
    const other = await save(teacher, cls, '2025-10-08', marksOf(kids), 0);
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({ detail: ATTENDANCE_MESSAGES.changedByOther, code: ATTENDANCE_CODES.changed });
    // One student fewer is not the same register.
    expect((await save(teacher, cls, '2025-10-08', marks.slice(0, 2), 0)).statusCode).toBe(400);
    expect(await writesOf(cls, '2025-10-08')).toEqual({ audits: ['create'], version: 1 });
  });

  it('answers a replay 200 after the register closed to staff (sent the next day), a change 409', async () => {
    clock.at('2025-10-08');
    const { cls, kids } = await arm();
    expect((await save(teacher, cls, '2025-10-08', marksOf(kids), 0)).statusCode).toBe(200);
    clock.at('2025-10-09');
    const replay = await save(teacher, cls, '2025-10-08', marksOf(kids), 0);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json<Register>()).toMatchObject({ saved: { version: 1 }, may_edit: false });
    const change = await save(teacher, cls, '2025-10-08', marksOf(kids, 'late'), 1);
    expect(change.statusCode).toBe(409);
    expect(change.json()).toEqual({ detail: ATTENDANCE_MESSAGES.correctionClosed('2025-10-08'), code: ATTENDANCE_CODES.closed });
    expect(await writesOf(cls, '2025-10-08')).toEqual({ audits: ['create'], version: 1 });
  });

  it('answers the same first save sent twice at once (two tabs, a retry) 200 twice, written once', async () => {
    clock.at('2025-10-08');
    const { cls, kids } = await arm();
    const [a, b] = await Promise.all([save(teacher, cls, '2025-10-08', marksOf(kids)), save(teacher, cls, '2025-10-08', marksOf(kids))]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json<Register>().saved!.version).toBe(1);
    expect(b.json<Register>().saved!.version).toBe(1);
    expect(await writesOf(cls, '2025-10-08')).toEqual({ audits: ['create'], version: 1 });
    // The same correction sent twice at once on version 1: written once, both answered 200.
    const late = marksOf(kids, 'late');
    const [c, d] = await Promise.all([save(teacher, cls, '2025-10-08', late, 1), save(teacher, cls, '2025-10-08', late, 1)]);
    expect([c.statusCode, d.statusCode]).toEqual([200, 200]);
    expect(await writesOf(cls, '2025-10-08')).toEqual({ audits: ['create', 'update'], version: 2 });
  });

  it('marks an extra school day on a Saturday, and every Saturday with Saturday classes', async () => {
    const { cls, kids } = await arm();
    const event = await addEvent(ctx, admin, {
      name: 'Inter-house sports',
      kind: 'school_day',
      starts_on: '2025-10-11',
      ends_on: '2025-10-11',
    });
    expect(event.statusCode).toBe(201);
    clock.at('2025-10-11');
    expect((await get(teacher, cls, '2025-10-11')).json<Register>().day.school_day).toBe(true);
    expect((await save(teacher, cls, '2025-10-11', marksOf(kids))).statusCode).toBe(200);
    clock.at('2025-10-18');
    expect((await get(teacher, cls, '2025-10-18')).json<Register>().day.school_day).toBe(false);
    const settings = await putAttendanceSettings(ctx, admin, { periods_per_day: 1, saturday_classes: true });
    expect(settings.statusCode).toBe(200);
    expect((await get(teacher, cls, '2025-10-18')).json<Register>().day.school_day).toBe(true);
    await putAttendanceSettings(ctx, admin, { periods_per_day: 1, saturday_classes: false });
  });

  it('a past day of a session that is not the current one is closed to the form teacher (30.8), not to the admin; today stays theirs', async () => {
    clock.at('2025-10-08');
    const { cls, kids } = await arm();
    // The school moved on: 2026/2027 is current; 2025-10-07 is a day of 2025/2026.
    const next = await createSession(ctx.handle.db, '2026/2027', true);
    onTestFinished(async () => {
      await ctx.handle.db.updateTable('academic_sessions').set({ is_current: 0 }).where('id', '=', next.id).execute();
      await ctx.handle.db.updateTable('academic_sessions').set({ is_current: 1 }).where('id', '=', sessionId).execute();
    });
    // The register says so before any marking, and the save is refused.
    expect((await get(teacher, cls, '2025-10-07')).json<Register>()).toMatchObject({
      may_edit: false,
      refusal: TEACHING_MESSAGES.sessionClosed,
    });
    const res = await save(teacher, cls, '2025-10-07', marksOf(kids));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: TEACHING_MESSAGES.sessionClosed, code: SESSION_CLOSED_CODE });
    const byAdmin = await save(admin, cls, '2025-10-07', marksOf(kids));
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    // Today's register is the form teacher's whichever session is marked current.
    expect((await save(teacher, cls, '2025-10-08', marksOf(kids))).statusCode).toBe(200);
  });
});

import { expect, it } from 'vitest';
import {
  ATTENDANCE_LABELS,
  ATTENDANCE_MESSAGES,
  REPORT_MESSAGES,
  type Register,
  type AbsentToday,
  type CarriedImportPreview,
  type CommentSheet,
  type MonthGrid,
  type ReportCard,
  type StudentAttendance,
  type TermTotals,
} from '@portal/domain';
import { createResults } from '../../db/factories';
import { pdfText } from '../../../test/pdf-text';
import { renderReportCards } from '../results/pdf';
import { describeEachDatabase, signInStudent, type SignedIn, type TestContext } from '../../../test/helpers';
import {
  attendanceArm,
  putAttendanceSettings,
  putReportTerm,
  putTermDates,
  saveRegister,
  testClock,
  withRegisterSchool,
} from '../../../test/attendance-fixtures';

/**
 * The views over the register (month grid, a student's term, absent today, term totals), the
 * carried-in import, twice-a-day counting and the report card's attendance from the register. One
 * arm, marked Monday 6 to Friday 10 October 2025, runs through the file.
 */
describeEachDatabase('attendance views and totals', (dialect) => {
  const clock = testClock('2025-10-10');
  let ctx: TestContext;
  let admin: SignedIn;
  let teacher: SignedIn & { id: number };
  let other: SignedIn & { id: number };
  let sessionId: number;
  let cls: string;
  let ada: SignedIn & { admissionNumber: string; id: number };
  let bola: { admissionNumber: string; id: number };

  withRegisterSchool(dialect, clock, async (school) => {
    ({ ctx, admin, sessionId, teacher, other } = school);
    const arm = await attendanceArm(ctx, sessionId, teacher.id, ['Bola Ade']);
    cls = arm.cls;
    bola = arm.kids[0]!;
    ada = await signInStudent(ctx, { arm: cls, firstName: 'Ada', lastName: 'Eze' });
    const week: [string, string, string][] = [
      ['2025-10-06', 'absent', 'present'],
      ['2025-10-07', 'absent', 'present'],
      ['2025-10-08', 'absent', 'excused'],
      ['2025-10-09', 'late', 'absent'],
      ['2025-10-10', 'present', 'present'],
    ];
    for (const [date, a, b] of week) {
      clock.at(date);
      const res = await save(date, 'morning', a, b);
      if (res.statusCode !== 200) throw new Error(res.body);
    }
  });

  const save = (date: string, period: string, a: string, b: string, version = 0) =>
    saveRegister(ctx, teacher, {
      student_class: cls,
      date,
      period,
      version,
      marks: [
        { admission_number: ada.admissionNumber, status: a },
        { admission_number: bola.admissionNumber, status: b },
      ],
    });
  const get = (who: SignedIn, url: string) => ctx.app.inject({ method: 'GET', url, headers: who.auth });
  const enc = encodeURIComponent;
  /** The admin imports carried-in totals for the 1st term (a dry run, or applied). */
  const post = (csv: string, dry_run: boolean) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/attendance/carried/import/',
      headers: admin.auth,
      payload: { session_id: sessionId, term: '1st', csv, dry_run },
    });

  it("shows an arm's month: days, marks, counts and the flagged streak", async () => {
    clock.at('2025-10-10');
    const res = await get(teacher, `/api/attendance/month/?student_class=${enc(cls)}&month=2025-10`);
    expect(res.statusCode).toBe(200);
    const grid = res.json<MonthGrid>();
    expect(grid.days).toHaveLength(31);
    expect(grid.days[0]).toEqual({
      date: '2025-10-01',
      school_day: false,
      note: ATTENDANCE_MESSAGES.holiday('2025-10-01', 'Independence Day'),
      registers: 0,
    });
    expect(grid.days[5]).toMatchObject({ date: '2025-10-06', school_day: true, registers: 1 });
    const [bolaRow, adaRow] = grid.rows;
    expect(adaRow).toMatchObject({
      name: 'Ada Eze',
      counts: { present: 1, late: 1, absent: 3, excused: 0 },
      longest_streak: 3,
      flagged: true,
    });
    expect(adaRow!.marks['2025-10-06']).toEqual(['absent']);
    expect(bolaRow).toMatchObject({ name: 'Bola Ade', longest_streak: 2, flagged: false });
    const refused = await get(other, `/api/attendance/month/?student_class=${enc(cls)}&month=2025-10`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: ATTENDANCE_MESSAGES.viewFormTeacherOnly(cls) });
  });

  it("shows a student's term: times opened so far, counts, days not present newest first; students see only their own", async () => {
    clock.at('2025-10-10');
    const own = await get(ada, `/api/attendance/student/?admission_number=${bola.admissionNumber}`);
    expect(own.statusCode).toBe(200);
    const view = own.json<StudentAttendance>();
    // 19 school days from 15 Sep to 10 Oct (Independence Day off).
    expect(view).toMatchObject({
      admission_number: ada.admissionNumber,
      session_id: sessionId,
      term: '1st',
      times_opened: 19,
      counts: { present: 1, late: 1, absent: 3, excused: 0 },
      carried: null,
      present: 2,
      absent: 3,
      current_streak: 0,
      flagged: false,
    });
    expect(view.days.map((d) => [d.date, d.status])).toEqual([
      ['2025-10-09', 'late'],
      ['2025-10-08', 'absent'],
      ['2025-10-07', 'absent'],
      ['2025-10-06', 'absent'],
    ]);
    expect((await get(teacher, `/api/attendance/student/?admission_number=${bola.admissionNumber}`)).json<StudentAttendance>().absent).toBe(
      2,
    );
    const refused = await get(other, `/api/attendance/student/?admission_number=${bola.admissionNumber}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: ATTENDANCE_MESSAGES.notStudentOfYours });
    clock.at('2025-10-08');
    expect((await get(admin, `/api/attendance/student/?admission_number=${ada.admissionNumber}`)).json<StudentAttendance>()).toMatchObject({
      times_opened: 17,
      current_streak: 3,
      flagged: true,
    });
  });

  it('lists who is absent on a day with their streaks, and the arms not marked', async () => {
    clock.at('2025-10-08');
    const res = await get(admin, '/api/attendance/absent/');
    expect(res.statusCode).toBe(200);
    const absent = res.json<AbsentToday>();
    expect(absent.date).toBe('2025-10-08');
    expect(absent.absentees.map((a) => [a.name, a.status, a.streak, a.flagged])).toEqual([
      ['Bola Ade', 'excused', 1, false],
      ['Ada Eze', 'absent', 3, true],
    ]);
    expect(absent.arms_not_marked).not.toContain(cls);
    expect(absent.arms_marked).toBe(1);
    const other = (await get(admin, '/api/attendance/absent/?date=2025-10-13')).json<AbsentToday>();
    expect(other.absentees).toEqual([]);
    expect(other.arms_not_marked).toContain(cls);
    expect((await get(teacher, '/api/attendance/absent/')).statusCode).toBe(403);
  });

  it("gives term totals to the admin (arm or school) and the arm's form teacher only", async () => {
    clock.at('2025-10-10');
    const q = `session_id=${sessionId}&term=1st`;
    const res = await get(teacher, `/api/attendance/totals/?${q}&student_class=${enc(cls)}`);
    expect(res.statusCode).toBe(200);
    const totals = res.json<TermTotals>();
    expect(totals.times_opened).toBe(19);
    expect(totals.rows.map((r) => [r.name, r.present, r.absent])).toEqual([
      ['Bola Ade', 3, 2],
      ['Ada Eze', 2, 3],
    ]);
    expect(
      (await get(admin, `/api/attendance/totals/?${q}`)).json<TermTotals>().rows.some((r) => r.admission_number === ada.admissionNumber),
    ).toBe(true);
    expect((await get(other, `/api/attendance/totals/?${q}&student_class=${enc(cls)}`)).statusCode).toBe(403);
    expect((await get(teacher, `/api/attendance/totals/?${q}`)).statusCode).toBe(403);
  });

  it('imports carried-in totals: a dry run previews with per-line errors; applying adds them to the totals', async () => {
    clock.at('2025-10-10');
    // Applying a file with errors is a 400 carrying the preview (the client shows it); nothing is saved.
    const badCsv = `admission_number,name,days_present,days_absent\n${ada.admissionNumber},Ada,10,2\nSTU-9999,X,1,1\n${ada.admissionNumber},Ada,1,1\n${bola.admissionNumber},B,x,1\n`;
    const bad = await post(badCsv, false);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<CarriedImportPreview>().applied).toBe(false);
    expect(bad.json<CarriedImportPreview>().errors).toEqual([
      { line: 3, column: 'admission_number', message: ATTENDANCE_MESSAGES.csvUnknownStudent('STU-9999') },
      { line: 4, column: 'admission_number', message: ATTENDANCE_MESSAGES.csvDuplicate(ada.admissionNumber) },
      { line: 5, column: 'days_present', message: ATTENDANCE_MESSAGES.csvDays },
    ]);
    expect((await post(badCsv, true)).statusCode).toBe(200);
    const empty = await post('', false);
    expect(empty.statusCode).toBe(400);
    expect(empty.json<CarriedImportPreview>().errors).toEqual([{ line: 1, column: null, message: ATTENDANCE_MESSAGES.csvEmpty }]);
    expect((await post('', true)).json<CarriedImportPreview>().errors).toEqual([
      { line: 1, column: null, message: ATTENDANCE_MESSAGES.csvEmpty },
    ]);
    expect((await post('a,b\n1,2\n', true)).json<CarriedImportPreview>().errors).toEqual([
      { line: 1, column: null, message: ATTENDANCE_MESSAGES.csvHeader },
    ]);
    const csv = `admission_number,days_present,days_absent\n${ada.admissionNumber},10,2\n`;
    const preview = (await post(csv, true)).json<CarriedImportPreview>();
    expect(preview).toMatchObject({
      applied: false,
      errors: [],
      rows: [{ line: 2, admission_number: ada.admissionNumber, days_present: 10, days_absent: 2, change: 'new' }],
    });
    const applied = (await post(csv, false)).json<CarriedImportPreview>();
    expect(applied.applied).toBe(true);
    expect((await post(csv, true)).json<CarriedImportPreview>().rows[0]!.change).toBe('same');
    const totals = (
      await get(admin, `/api/attendance/totals/?session_id=${sessionId}&term=1st&student_class=${enc(cls)}`)
    ).json<TermTotals>();
    expect(totals.rows.find((r) => r.name === 'Ada Eze')).toMatchObject({ carried: { present: 10, absent: 2 }, present: 12, absent: 5 });
  });

  it('refuses carried-in totals above the times school opened, naming the line, as typed totals are', async () => {
    clock.at('2025-10-10');
    // The calendar counts 19 times opened so far; 200 + 200 cannot be right.
    const csv = `admission_number,days_present,days_absent\n${bola.admissionNumber},10,9\n${ada.admissionNumber},200,200\n`;
    const bad = await post(csv, false);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<CarriedImportPreview>()).toMatchObject({
      applied: false,
      errors: [{ line: 3, column: 'days_present', message: REPORT_MESSAGES.attendanceOverOpened(19) }],
    });
    expect((await post(csv, true)).json<CarriedImportPreview>().errors).toHaveLength(1);
    const totals = (
      await get(admin, `/api/attendance/totals/?session_id=${sessionId}&term=1st&student_class=${enc(cls)}`)
    ).json<TermTotals>();
    expect(totals.rows.find((r) => r.name === 'Bola Ade')!.carried).toBeNull();
    // The typed times opened is the bound when set (as on the comment sheet).
    const typed = await putReportTerm(ctx, admin, { session_id: sessionId, term: '1st', next_term_begins: null, times_opened: 64 });
    expect(typed.statusCode).toBe(200);
    expect(
      (await post(`admission_number,days_present,days_absent\n${bola.admissionNumber},40,20\n`, true)).json<CarriedImportPreview>().errors,
    ).toEqual([]);
    expect(
      (await post(`admission_number,days_present,days_absent\n${bola.admissionNumber},40,25\n`, true)).json<CarriedImportPreview>().errors,
    ).toEqual([{ line: 2, column: 'days_present', message: REPORT_MESSAGES.attendanceOverOpened(64) }]);
    await putReportTerm(ctx, admin, { session_id: sessionId, term: '1st', next_term_begins: null, times_opened: null });
  });

  it('says what the register never marked: the card (JSON and PDF), the comment sheet and the register page', async () => {
    clock.at('2025-10-10');
    await createResults(ctx.handle.db, [{ studentId: bola.id, sessionId, term: '1st', arm: cls, subject: 'Mathematics', score: 64 }]);
    // 19 times opened (15 Sep to 10 Oct); Bola's register has 3 present and 2 absent: 14 were never marked.
    const card = (
      await get(admin, `/api/report-card/?admission_number=${bola.admissionNumber}&session_id=${sessionId}&term=1st`)
    ).json<ReportCard>();
    expect(card.attendance).toEqual({ times_opened: 19, present: 3, absent: 2, source: 'register', unmarked: 14 });
    const pdf = await get(admin, `/api/report-card/pdf/?admission_number=${bola.admissionNumber}&session_id=${sessionId}&term=1st`);
    expect(pdf.statusCode).toBe(200);
    // The PDF the route sends draws this card (read back uncompressed).
    expect(pdfText(await renderReportCards([card], { compress: false })).replace(/\s+/g, ' ')).toContain(
      `${ATTENDANCE_LABELS.timesNotMarked} 14`,
    );
    const sheet = (
      await get(teacher, `/api/class-comments/?session_id=${sessionId}&term=1st&student_class=${enc(cls)}`)
    ).json<CommentSheet>();
    expect(sheet.rows.find((r) => r.name === 'Bola Ade')!.unmarked).toBe(14);
    // Ada's 10 + 2 carried in count as marked: 19 - 12 - 5.
    expect(sheet.rows.find((r) => r.name === 'Ada Eze')!.unmarked).toBe(2);
    // The register page lists the term's past school days nobody marked (1 October was a holiday; 6-9 October marked).
    const reg = (await get(teacher, `/api/attendance/register/?student_class=${enc(cls)}&date=2025-10-10`)).json<Register>();
    expect(reg.unmarked_days).toEqual([
      '2025-09-15',
      '2025-09-16',
      '2025-09-17',
      '2025-09-18',
      '2025-09-19',
      '2025-09-22',
      '2025-09-23',
      '2025-09-24',
      '2025-09-25',
      '2025-09-26',
      '2025-09-29',
      '2025-09-30',
      '2025-10-02',
      '2025-10-03',
    ]);
  });

  it("fills the report card and the comment sheet from the register; the form teacher's totals and the typed times opened win", async () => {
    clock.at('2025-10-10');
    await createResults(ctx.handle.db, [{ studentId: ada.id, sessionId, term: '1st', arm: cls, subject: 'Mathematics', score: 70 }]);
    const card = async () =>
      (await get(admin, `/api/report-card/?admission_number=${ada.admissionNumber}&session_id=${sessionId}&term=1st`)).json<ReportCard>()
        .attendance;
    expect(await card()).toEqual({ times_opened: 19, present: 12, absent: 5, source: 'register', unmarked: 2 });
    const sheet = (
      await get(teacher, `/api/class-comments/?session_id=${sessionId}&term=1st&student_class=${enc(cls)}`)
    ).json<CommentSheet>();
    expect(sheet.times_opened).toBe(19);
    expect(sheet.rows.find((r) => r.name === 'Ada Eze')!.register).toEqual({ present: 12, absent: 5 });
    expect(sheet.rows.find((r) => r.name === 'Bola Ade')!.register).toEqual({ present: 3, absent: 2 });

    const typed = await putReportTerm(ctx, admin, { session_id: sessionId, term: '1st', next_term_begins: null, times_opened: 60 });
    expect(typed.statusCode).toBe(200);
    expect((await card()).times_opened).toBe(60);
    const override = await ctx.app.inject({
      method: 'PUT',
      url: '/api/class-comments/',
      headers: teacher.auth,
      payload: {
        session_id: sessionId,
        term: '1st',
        student_class: cls,
        rows: [{ admission_number: ada.admissionNumber, days_present: 50, days_absent: 1, version: 0 }],
      },
    });
    expect(override.statusCode, override.body).toBe(200);
    expect(await card()).toEqual({ times_opened: 60, present: 50, absent: 1, source: 'form_teacher', unmarked: null });
  });

  it('counts morning and afternoon when the school marks twice a day', async () => {
    const term2 = await putTermDates(ctx, admin, { session_id: sessionId, term: '2nd', starts_on: '2026-01-12', ends_on: '2026-04-02' });
    expect(term2.statusCode).toBe(200);
    clock.at('2026-01-20');
    const settings = await putAttendanceSettings(ctx, admin, { periods_per_day: 2, saturday_classes: false });
    expect(settings.statusCode).toBe(200);
    expect((await save('2026-01-20', 'morning', 'absent', 'present')).statusCode).toBe(200);
    expect((await save('2026-01-20', 'afternoon', 'present', 'present')).statusCode).toBe(200);
    const totals = (
      await get(admin, `/api/attendance/totals/?session_id=${sessionId}&term=2nd&student_class=${enc(cls)}`)
    ).json<TermTotals>();
    // 7 school days from 12 Jan to 20 Jan, two registers each.
    expect(totals.times_opened).toBe(14);
    expect(totals.rows.find((r) => r.name === 'Ada Eze')).toMatchObject({ present: 1, absent: 1 });
    const grid = (await get(teacher, `/api/attendance/month/?student_class=${enc(cls)}&month=2026-01`)).json<MonthGrid>();
    expect(grid.rows.find((r) => r.name === 'Ada Eze')!.marks['2026-01-20']).toEqual(['absent', 'present']);
  });
});

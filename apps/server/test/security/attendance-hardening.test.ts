import { expect, it } from 'vitest';
import {
  ATTENDANCE_CODES,
  ATTENDANCE_MESSAGES,
  CARRIED_MAX_ROWS,
  GENERAL_MESSAGES,
  MAX_REGISTER_ROWS,
  REPORT_MESSAGES,
  RESULT_MESSAGES,
  TEACHING_MESSAGES,
  TEXT_MESSAGES,
  type CarriedImportPreview,
  type Register,
  type StudentAttendance,
} from '@portal/domain';
import '../../src/modules/attendance/attendance.tables';
import { addEvent, attendanceArm, saveRegister, testClock, withRegisterSchool } from '../attendance-fixtures';
import { describeEachDatabase, signInStudent, type SignedIn, type TestContext } from '../helpers';
import { tableRows } from '../migrations';

/**
 * The attendance register attacked: staff who are not the arm's form teacher, a student
 * reaching for staff endpoints or another student's attendance, hostile text in calendar names,
 * oversized bodies, ids and dates that do not exist, racing saves, a staff correction after the
 * day, and spreadsheet formulas in the carried-in CSV. Every refusal leaves the tables as they were.
 */

/** Everything attendance writes, with the audit log: a refused request leaves all of it as it was. */
const WRITTEN = [
  'attendance_registers',
  'attendance_marks',
  'attendance_carried',
  'calendar_events',
  'school_terms',
  'settings',
  'audit_log',
] as const;

type Kid = { admissionNumber: string; id: number };

describeEachDatabase('attendance hardening', (dialect) => {
  const clock = testClock('2025-10-08'); // a Wednesday of the first term
  let ctx: TestContext;
  let admin: SignedIn;
  let teacher: SignedIn & { id: number };
  let stranger: SignedIn & { id: number };
  let student: SignedIn & Kid;
  let sessionId: number;
  /** The teacher's arm (the student and two classmates) and the stranger's. */
  let cls: string;
  let kids: Kid[];
  let strangerCls: string;
  let strangerKid: Kid;

  withRegisterSchool(dialect, clock, async (school) => {
    ({ ctx, admin, sessionId, teacher, other: stranger } = school);
    const mine = await attendanceArm(ctx, sessionId, teacher.id, ['Bola Ade', 'Chidi Obi']);
    cls = mine.cls;
    student = await signInStudent(ctx, { arm: cls, firstName: 'Ada', lastName: 'Eze' });
    kids = [student, ...mine.kids];
    const theirs = await attendanceArm(ctx, sessionId, stranger.id, ['Emeka Nwosu']);
    strangerCls = theirs.cls;
    strangerKid = theirs.kids[0]!;
  });

  const state = () => tableRows(ctx.handle, WRITTEN);
  const enc = encodeURIComponent;
  const get = (who: SignedIn, url: string) => ctx.app.inject({ method: 'GET', url, headers: who.auth });
  const marksOf = (of: Kid[], status = 'present') => of.map((k) => ({ admission_number: k.admissionNumber, status }));
  const save = (who: SignedIn, body: { cls?: string; date: string; marks: unknown[]; version?: number }) =>
    saveRegister(ctx, who, { student_class: body.cls ?? cls, date: body.date, marks: body.marks, version: body.version ?? 0 });
  const storedMarks = async (armName: string, date: string) => {
    const rows = await ctx.handle.db
      .selectFrom('attendance_marks')
      .innerJoin('attendance_registers', 'attendance_registers.id', 'attendance_marks.register_id')
      .innerJoin('students', 'students.id', 'attendance_marks.student_id')
      .select(['students.admission_number', 'attendance_marks.status'])
      .where('attendance_registers.student_class', '=', armName)
      .where('attendance_registers.date', '=', date)
      .execute();
    return Object.fromEntries(rows.map((r) => [r.admission_number, r.status]));
  };
  const importCsv = (csv: string, dryRun: boolean) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/attendance/carried/import/',
      headers: admin.auth,
      payload: { session_id: sessionId, term: '1st', csv, dry_run: dryRun },
    });

  it("refuses a staff member who is not the arm's form teacher everything about it (403), and a refused save changes nothing", async () => {
    clock.at('2025-10-08');
    const first = await save(teacher, { date: '2025-10-08', marks: marksOf(kids) });
    expect(first.statusCode, first.body).toBe(200);
    const before = await state();

    const register = await get(stranger, `/api/attendance/register/?student_class=${enc(cls)}&date=2025-10-08`);
    expect(register.statusCode).toBe(403);
    expect(register.json()).toEqual({ detail: ATTENDANCE_MESSAGES.formTeacherOnly(cls) });
    for (const version of [0, 1]) {
      const refused = await save(stranger, { date: '2025-10-08', marks: marksOf(kids, 'absent'), version });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail: ATTENDANCE_MESSAGES.formTeacherOnly(cls) });
    }
    // A day not marked yet: still refused, and no register appears.
    const fresh = await save(stranger, { date: '2025-10-07', marks: marksOf(kids, 'absent') });
    expect(fresh.statusCode).toBe(403);
    const month = await get(stranger, `/api/attendance/month/?student_class=${enc(cls)}&month=2025-10`);
    expect(month.statusCode).toBe(403);
    expect(month.json()).toEqual({ detail: ATTENDANCE_MESSAGES.viewFormTeacherOnly(cls) });
    const totals = await get(stranger, `/api/attendance/totals/?session_id=${sessionId}&term=1st&student_class=${enc(cls)}`);
    expect(totals.statusCode).toBe(403);
    expect(totals.json()).toEqual({ detail: ATTENDANCE_MESSAGES.viewFormTeacherOnly(cls) });
    // The whole school's totals are the admin's.
    const school = await get(stranger, `/api/attendance/totals/?session_id=${sessionId}&term=1st`);
    expect(school.statusCode).toBe(403);
    for (const k of kids) {
      const one = await get(stranger, `/api/attendance/student/?admission_number=${k.admissionNumber}&session_id=${sessionId}`);
      expect(one.statusCode, k.admissionNumber).toBe(403);
      expect(one.json()).toEqual({ detail: ATTENDANCE_MESSAGES.notStudentOfYours });
    }
    expect(await state()).toEqual(before);
    expect(await storedMarks(cls, '2025-10-08')).toEqual(Object.fromEntries(kids.map((k) => [k.admissionNumber, 'present'])));

    // Their own arm answers, so the 403s above are about the arm, not the endpoint.
    expect((await get(stranger, `/api/attendance/register/?student_class=${enc(strangerCls)}&date=2025-10-08`)).statusCode).toBe(200);
    expect((await get(stranger, `/api/attendance/month/?student_class=${enc(strangerCls)}&month=2025-10`)).statusCode).toBe(200);
    expect(
      (await get(stranger, `/api/attendance/totals/?session_id=${sessionId}&term=1st&student_class=${enc(strangerCls)}`)).statusCode,
    ).toBe(200);
    expect((await get(stranger, `/api/attendance/student/?admission_number=${strangerKid.admissionNumber}`)).statusCode).toBe(200);
  });

  it('refuses a student every staff endpoint (403) and shows only their own attendance, whatever admission number they send', async () => {
    clock.at('2025-10-06');
    expect(
      (await save(teacher, { date: '2025-10-06', marks: [...marksOf([student]), ...marksOf(kids.slice(1), 'absent')] })).statusCode,
    ).toBe(200);
    const event = await addEvent(ctx, admin, { name: 'Sports day', kind: 'school_day', starts_on: '2025-10-11', ends_on: '2025-10-11' });
    expect(event.statusCode).toBe(201);
    const before = await state();
    const q = `student_class=${enc(cls)}`;
    const staffOnly: ['GET' | 'PUT' | 'POST' | 'DELETE', string, object?][] = [
      ['GET', `/api/attendance/calendar/?session_id=${sessionId}`],
      ['PUT', '/api/attendance/settings/', { periods_per_day: 2, saturday_classes: true }],
      ['PUT', '/api/attendance/terms/', { session_id: sessionId, term: '2nd', starts_on: '2026-01-12', ends_on: '2026-04-02' }],
      ['POST', '/api/attendance/events/', { name: 'Free day', kind: 'holiday', starts_on: '2025-10-09', ends_on: '2025-10-09' }],
      ['DELETE', `/api/attendance/events/${event.json().id}/`],
      ['GET', `/api/attendance/register/?${q}&date=2025-10-06`],
      ['PUT', '/api/attendance/register/', { student_class: cls, date: '2025-10-06', marks: marksOf(kids, 'absent'), version: 1 }],
      ['GET', `/api/attendance/month/?${q}&month=2025-10`],
      ['GET', '/api/attendance/absent/'],
      ['GET', `/api/attendance/totals/?session_id=${sessionId}&term=1st&${q}`],
      [
        'POST',
        '/api/attendance/carried/import/',
        {
          session_id: sessionId,
          term: '1st',
          csv: `admission_number,days_present,days_absent\n${student.admissionNumber},60,0\n`,
          dry_run: false,
        },
      ],
    ];
    for (const [method, url, payload] of staffOnly) {
      const res = await ctx.app.inject({
        method,
        url,
        headers: student.auth,
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await state()).toEqual(before);

    const view = async (who: SignedIn, admission: string) =>
      (await get(who, `/api/attendance/student/?session_id=${sessionId}&term=1st&admission_number=${admission}`)).json<StudentAttendance>();
    const own = await view(admin, student.admissionNumber);
    expect(own).toMatchObject({ admission_number: student.admissionNumber, name: 'Ada Eze', absent: 0 });
    expect((await view(admin, kids[1]!.admissionNumber)).absent).toBeGreaterThan(0);
    for (const asked of [kids[1]!.admissionNumber, strangerKid.admissionNumber, 'STU-9999', undefined]) {
      const url = `/api/attendance/student/?session_id=${sessionId}&term=1st${asked ? `&admission_number=${asked}` : ''}`;
      const res = await get(student, url);
      expect(res.statusCode, url).toBe(200);
      expect(res.json<StudentAttendance>(), url).toEqual(own);
    }
  });

  it('refuses control characters, text-direction overrides and NUL in a calendar event name with a clear 400, writing nothing', async () => {
    const before = await state();
    const notAllowed = { name: [TEXT_MESSAGES.notAllowed('Name')] };
    const cases: [string, unknown][] = [
      ['Eid\u0000', notAllowed],
      ['Eid\u0007 break', notAllowed],
      ['Eid\u202Eкаерб', notAllowed],
      ['\u2066Eid\u2069', notAllowed],
      ['Eid\nbreak', notAllowed],
      ['Eid\u2028break', notAllowed],
      ['Eid\u009B', notAllowed],
      ['\u200B\u200B', { name: [ATTENDANCE_MESSAGES.eventNameRequired] }],
      ['   ', { name: [ATTENDANCE_MESSAGES.eventNameRequired] }],
    ];
    for (const [name, body] of cases) {
      const res = await addEvent(ctx, admin, { name, kind: 'holiday', starts_on: '2025-12-25', ends_on: '2025-12-26' });
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      expect(res.json(), JSON.stringify(name)).toEqual(body);
    }
    // A NUL elsewhere in the body or in the URL is refused too.
    const kind = await addEvent(ctx, admin, { name: 'Christmas', kind: 'holiday\u0000', starts_on: '2025-12-25', ends_on: '2025-12-26' });
    expect(kind.statusCode).toBe(400);
    const url = await get(admin, `/api/attendance/register/?student_class=${enc(cls)}%00&date=2025-10-08`);
    expect(url.statusCode).toBe(400);
    expect(url.json()).toEqual({ detail: TEXT_MESSAGES.nulInRequest });
    expect(await state()).toEqual(before);
  });

  it('refuses huge bodies (too many marks, a CSV over 1 MB or over 5,000 rows) with 400/413 and writes nothing', async () => {
    clock.at('2025-10-08');
    const before = await state();
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ admission_number: `STU-${String(i + 1).padStart(5, '0')}`, status: 'present' }));
    for (const n of [MAX_REGISTER_ROWS + 1, 10_000]) {
      const res = await save(admin, { date: '2025-10-07', marks: many(n) });
      expect(res.statusCode, String(n)).toBe(400);
      expect(Object.keys(res.json())).toEqual(['marks']);
    }

    const header = 'admission_number,days_present,days_absent\n';
    const line = `${student.admissionNumber},1,1\n`;
    // Just over the schema's 1,000,000 characters, inside the request limit (few lines, so few
    // escapes in the JSON): the field's message.
    const overMb = `admission_number,days_present,days_absent,note\n${student.admissionNumber},1,1,${'x'.repeat(1_000_001)}\n`;
    for (const dryRun of [true, false]) {
      const res = await importCsv(overMb, dryRun);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ csv: [ATTENDANCE_MESSAGES.csvTooBig] });
    }
    // Over the request limit: refused before it is read.
    const huge = await importCsv(header + line.repeat(Math.ceil(2_100_000 / line.length)), false);
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ detail: GENERAL_MESSAGES.bodyTooLarge });

    // 10,000 lines (small enough in bytes): the row limit.
    const rows = Array.from({ length: 10_000 }, (_, i) => `${kids[i % kids.length]!.admissionNumber},${i % 50},1`).join('\n');
    const tooBig = { line: CARRIED_MAX_ROWS + 2, column: null, message: ATTENDANCE_MESSAGES.csvTooBig };
    const preview = await importCsv(header + rows, true);
    expect(preview.statusCode).toBe(200);
    expect(preview.json<CarriedImportPreview>()).toEqual({ rows: [], errors: [tooBig], applied: false });
    const applied = await importCsv(header + rows, false);
    expect(applied.statusCode).toBe(400);
    expect(applied.json<CarriedImportPreview>()).toEqual({ rows: [], errors: [tooBig], applied: false });
    expect(await state()).toEqual(before);
  });

  it('answers ids that do not exist (arm, student, event, session) with 400/404, never 500', async () => {
    clock.at('2025-10-08');
    const before = await state();
    const nowhere = 'JSS 1 Nowhere';
    const unknownArm = { student_class: [TEACHING_MESSAGES.classUnknown(nowhere)] };
    const armCases = [
      () => get(admin, `/api/attendance/register/?student_class=${enc(nowhere)}&date=2025-10-08`),
      () => get(teacher, `/api/attendance/register/?student_class=${enc(nowhere)}&date=2025-10-08`),
      () => save(admin, { cls: nowhere, date: '2025-10-08', marks: marksOf(kids) }),
      () => save(teacher, { cls: nowhere, date: '2025-10-08', marks: marksOf(kids) }),
      () => get(admin, `/api/attendance/month/?student_class=${enc(nowhere)}&month=2025-10`),
      () => get(admin, `/api/attendance/totals/?session_id=${sessionId}&term=1st&student_class=${enc(nowhere)}`),
    ];
    for (const [i, call] of armCases.entries()) {
      const res = await call();
      expect(res.statusCode, String(i)).toBe(400);
      expect(res.json(), String(i)).toEqual(unknownArm);
    }
    // A student of another arm in this arm's register.
    const outsider = await save(teacher, { date: '2025-10-08', marks: [...marksOf(kids), ...marksOf([strangerKid])] });
    expect(outsider.statusCode).toBe(400);
    expect(outsider.json()).toEqual({ 'marks.3.admission_number': [ATTENDANCE_MESSAGES.markStudentMissing(strangerKid.admissionNumber)] });

    const ghost = await get(admin, '/api/attendance/student/?admission_number=STU-9999');
    expect(ghost.statusCode).toBe(404);
    expect(ghost.json()).toEqual({ detail: RESULT_MESSAGES.studentNotFound('STU-9999') });
    const noNumber = await get(admin, '/api/attendance/student/');
    expect(noNumber.statusCode).toBe(400);
    expect(noNumber.json()).toEqual({ admission_number: [RESULT_MESSAGES.admissionNumberRequired] });

    const missingEvent = await ctx.app.inject({ method: 'DELETE', url: '/api/attendance/events/987654/', headers: admin.auth });
    expect(missingEvent.statusCode).toBe(404);
    expect(missingEvent.json()).toEqual({ detail: ATTENDANCE_MESSAGES.eventNotFound });
    const ids: [string, number][] = [
      ['0', 400],
      ['-1', 400],
      ['abc', 400],
      ['1.5', 400],
      ['99999999999', 400],
      ['1e3', 404],
    ];
    for (const [id, status] of ids) {
      const res = await ctx.app.inject({ method: 'DELETE', url: `/api/attendance/events/${id}/`, headers: admin.auth });
      expect(res.statusCode, id).toBe(status);
    }

    const noSession = { session_id: [RESULT_MESSAGES.sessionNotFound] };
    const sessionCases = [
      () => get(admin, '/api/attendance/calendar/?session_id=987654'),
      () => get(admin, `/api/attendance/totals/?session_id=987654&term=1st&student_class=${enc(cls)}`),
      () => get(admin, `/api/attendance/student/?admission_number=${student.admissionNumber}&session_id=987654`),
      () => get(student, '/api/attendance/student/?session_id=987654'),
      () =>
        ctx.app.inject({
          method: 'PUT',
          url: '/api/attendance/terms/',
          headers: admin.auth,
          payload: { session_id: 987654, term: '1st', starts_on: '2031-09-15', ends_on: '2031-12-19' },
        }),
      () =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/attendance/carried/import/',
          headers: admin.auth,
          payload: {
            session_id: 987654,
            term: '1st',
            csv: `admission_number,days_present,days_absent\n${student.admissionNumber},1,1\n`,
            dry_run: false,
          },
        }),
    ];
    for (const [i, call] of sessionCases.entries()) {
      const res = await call();
      expect(res.statusCode, String(i)).toBe(400);
      expect(res.json(), String(i)).toEqual(noSession);
    }
    expect(await state()).toEqual(before);
  });

  it("refuses dates that are not real days or not written YYYY-MM-DD ('2026-02-30', '2026-2-3', '')", async () => {
    clock.at('2025-10-08');
    const before = await state();
    const bad = ['2026-02-30', '2025-02-29', '2026-2-3', '', '2025-13-01', '2025-10-08T00:00', ' 2025-10-08', '20251008'];
    const dateFormat = [REPORT_MESSAGES.dateFormat];
    for (const date of bad) {
      const label = JSON.stringify(date);
      const reg = await get(admin, `/api/attendance/register/?student_class=${enc(cls)}&date=${enc(date)}`);
      expect(reg.statusCode, label).toBe(400);
      expect(reg.json(), label).toEqual({ date: dateFormat });
      const put = await save(admin, { date, marks: marksOf(kids) });
      expect(put.statusCode, label).toBe(400);
      expect(put.json(), label).toEqual({ date: dateFormat });
      const absent = await get(admin, `/api/attendance/absent/?date=${enc(date)}`);
      expect(absent.statusCode, label).toBe(400);
      expect(absent.json(), label).toEqual({ date: dateFormat });
      const term = await ctx.app.inject({
        method: 'PUT',
        url: '/api/attendance/terms/',
        headers: admin.auth,
        payload: { session_id: sessionId, term: '2nd', starts_on: date, ends_on: '2026-04-02' },
      });
      expect(term.statusCode, label).toBe(400);
      expect(term.json(), label).toEqual({ starts_on: dateFormat });
      const event = await addEvent(ctx, admin, { name: 'Break', kind: 'holiday', starts_on: '2025-12-22', ends_on: date });
      expect(event.statusCode, label).toBe(400);
      // One message for one mistake: a date that is not real is not compared with the other.
      expect(event.json(), label).toEqual({ ends_on: dateFormat });
    }
    for (const month of ['2026-2', '2026-13', '2026-00', '', '2026-02-01']) {
      const res = await get(admin, `/api/attendance/month/?student_class=${enc(cls)}&month=${enc(month)}`);
      expect(res.statusCode, month).toBe(400);
      expect(res.json(), month).toEqual({ month: ['Choose a month (YYYY-MM).'] });
    }
    expect(await state()).toEqual(before);
  });

  it("answers two concurrent first saves of one register with one 200 and one 409, and stores exactly the winner's marks", async () => {
    const days = ['2025-09-29', '2025-09-30', '2025-10-02'];
    clock.at('2025-10-02');
    for (const date of days) {
      const teacherMarks = kids.map((k, i) => ({ admission_number: k.admissionNumber, status: i === 0 ? 'absent' : 'present' }));
      const adminMarks = kids.map((k, i) => ({ admission_number: k.admissionNumber, status: i === 0 ? 'present' : 'late' }));
      const [a, b] = await Promise.all([save(teacher, { date, marks: teacherMarks }), save(admin, { date, marks: adminMarks })]);
      expect([a.statusCode, b.statusCode].sort(), date).toEqual([200, 409]);
      const loser = a.statusCode === 409 ? a : b;
      expect(loser.json()).toEqual({ detail: ATTENDANCE_MESSAGES.changedByOther, code: ATTENDANCE_CODES.changed });
      const winnerMarks = a.statusCode === 200 ? teacherMarks : adminMarks;
      const expected = Object.fromEntries(winnerMarks.map((m) => [m.admission_number, m.status]));
      expect(await storedMarks(cls, date)).toEqual(expected);
      const won = (a.statusCode === 200 ? a : b).json<Register>();
      expect(won.saved!.version).toBe(1);
      expect(Object.fromEntries(won.rows.map((r) => [r.admission_number, r.status]))).toEqual(expected);
      const audits = await ctx.handle.db
        .selectFrom('audit_log')
        .select(['action', 'after'])
        .where('entity', '=', 'attendance_register')
        .where('entity_id', '=', `${cls}/${date}/morning`)
        .execute();
      expect(audits).toEqual([{ action: 'create', after: JSON.stringify(expected) }]);
    }
  });

  it("refuses staff a correction of an earlier day's register (409) and changes nothing", async () => {
    clock.at('2025-10-03');
    expect((await save(teacher, { date: '2025-10-03', marks: marksOf(kids) })).statusCode).toBe(200);
    clock.at('2025-10-06');
    const before = await state();
    for (const version of [1, 0, 7]) {
      const res = await save(teacher, { date: '2025-10-03', marks: marksOf(kids, 'absent'), version });
      expect(res.statusCode, String(version)).toBe(409);
      expect(res.json()).toEqual({ detail: ATTENDANCE_MESSAGES.correctionClosed('2025-10-03'), code: ATTENDANCE_CODES.closed });
    }
    expect(await state()).toEqual(before);
    expect(await storedMarks(cls, '2025-10-03')).toEqual(Object.fromEntries(kids.map((k) => [k.admissionNumber, 'present'])));
  });

  it('refuses spreadsheet formulas in the carried-in CSV (days are whole numbers; an admission number must be a student) and stores nothing', async () => {
    const before = await state();
    const [ada, bola, chidi] = kids as [Kid, Kid, Kid];
    const csv = [
      'admission_number,days_present,days_absent',
      `${ada.admissionNumber},=1+1,0`,
      `${bola.admissionNumber},3,"=cmd|' /C calc'!A0"`,
      `${chidi.admissionNumber},+5,@SUM(A1)`,
      `"=HYPERLINK(""http://evil.example"")",1,1`,
      `${strangerKid.admissionNumber},-0,1`,
    ].join('\n');
    const errors = [
      { line: 2, column: 'days_present', message: ATTENDANCE_MESSAGES.csvDays },
      { line: 3, column: 'days_absent', message: ATTENDANCE_MESSAGES.csvDays },
      { line: 4, column: 'days_present', message: ATTENDANCE_MESSAGES.csvDays },
      { line: 5, column: 'admission_number', message: ATTENDANCE_MESSAGES.csvUnknownStudent('=HYPERLINK("http://evil.example")') },
      { line: 6, column: 'days_present', message: ATTENDANCE_MESSAGES.csvDays },
    ];
    const preview = await importCsv(csv, true);
    expect(preview.statusCode).toBe(200);
    expect(preview.json<CarriedImportPreview>()).toEqual({ rows: [], errors, applied: false });
    const applied = await importCsv(csv, false);
    expect(applied.statusCode).toBe(400);
    expect(applied.json<CarriedImportPreview>()).toEqual({ rows: [], errors, applied: false });
    // A stray quote (a formula pasted unquoted) makes the file unreadable: said so, with its line.
    const unquoted = `admission_number,days_present,days_absent\n${ada.admissionNumber},1,1\n=HYPERLINK("http://evil.example"),1,1\n`;
    for (const dryRun of [true, false]) {
      const res = await importCsv(unquoted, dryRun);
      expect(res.statusCode).toBe(dryRun ? 200 : 400);
      expect(res.json<CarriedImportPreview>()).toEqual({
        rows: [],
        errors: [{ line: 3, column: null, message: ATTENDANCE_MESSAGES.csvUnreadable }],
        applied: false,
      });
    }
    expect(await state()).toEqual(before);
  });
});

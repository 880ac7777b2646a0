import { describe, expect, it } from 'vitest';
import type { CardAttendance, CommentSheet, Register, ReportCard, SchoolCalendarView } from '@portal/domain';
import { cachedHash, createResults, createSession, createStaff } from '../factories';
import { migrateToLatest, type DatabaseHandle } from '../index';
import { describeEachDatabase, login, TEST_PASSWORD } from '../../../test/helpers';
import * as upgrade from '../../../test/migrations';
import { testClock } from '../../../test/attendance-fixtures';
import { putEntry, putTerm } from '../../../test/card-fixtures';
import { makeFormTeacher } from '../../../test/teaching-fixtures';
import '../../modules/attendance/attendance.tables';

/** Tables whose rows the upgrade must keep, every one of them. */
const KEPT = upgrade.RELEASE_0016_TABLES;
const NEW_TABLES = ['calendar_events', 'attendance_registers', 'attendance_marks', 'attendance_carried'];

/**
 * The attendance tables come empty: no event, register or mark, and no term has dates (since
 * migration 0031 a term's row also holds the card's fields, so the release's terms have undated rows).
 */
async function expectNewTablesEmpty(handle: DatabaseHandle): Promise<void> {
  expect(await upgrade.countRows(handle, NEW_TABLES)).toEqual(Object.fromEntries(NEW_TABLES.map((t) => [t, 0])));
  const dated = await handle.db.selectFrom('school_terms').select('term').where('starts_on', 'is not', null).execute();
  expect(dated).toEqual([]);
}

const cleanups = upgrade.cleanupsAfterEach();

interface Upgraded {
  sessionId: number;
  /** An arm and the email of its form teacher in the session (from `form_teachers`). */
  cls: string;
  teacherEmail: string;
  /** The arm's students, by admission number, in register order. */
  students: string[];
  /** A student whose card totals were typed on the comment sheet, and what was typed. */
  typed: { admission: string; present: number; absent: number };
  /** The fixture has no typed totals: the form teacher types them through the API first. */
  typeThroughApi: boolean;
  /** The card's times school opened: typed on the report card settings, else counted by the calendar. */
  timesOpened: number;
}

/**
 * The app on an upgraded database with the clock at Wednesday 8 October 2025: the admin sets the
 * current session's first term, its form teacher saves a register, and the card and comment sheet
 * keep the typed totals (source form_teacher) while a student without them shows the register's.
 */
async function appWorksOn(handle: DatabaseHandle, u: Upgraded) {
  const clock = testClock('2025-10-08');
  const { app, auth } = await upgrade.appAsAdmin(handle, cleanups, { now: clock.now });
  const term = await app.inject({
    method: 'PUT',
    url: '/api/attendance/terms/',
    headers: auth,
    payload: { session_id: u.sessionId, term: '1st', starts_on: '2025-09-15', ends_on: '2025-12-19' },
  });
  expect(term.statusCode, term.body).toBe(200);
  const calendar = await app.inject({ method: 'GET', url: `/api/attendance/calendar/?session_id=${u.sessionId}`, headers: auth });
  expect(calendar.statusCode, calendar.body).toBe(200);
  expect(calendar.json<SchoolCalendarView>().terms[0]).toMatchObject({ starts_on: '2025-09-15', school_days: 70, registers: 0 });

  // The old release's passwords are random: give the form teacher a known one.
  await handle.db
    .updateTable('users')
    .set({ password_hash: await cachedHash(TEST_PASSWORD) })
    .where('email', '=', u.teacherEmail)
    .execute();
  const signedIn = await login(app, 'staff', u.teacherEmail);
  expect(signedIn.statusCode, signedIn.body).toBe(200);
  const teacher = { authorization: `Bearer ${signedIn.json().data.access}` };
  const enc = encodeURIComponent(u.cls);

  if (u.typeThroughApi) {
    const typed = await app.inject({
      method: 'PUT',
      url: '/api/class-comments/',
      headers: teacher,
      payload: {
        session_id: u.sessionId,
        term: '1st',
        student_class: u.cls,
        rows: [{ admission_number: u.typed.admission, days_present: u.typed.present, days_absent: u.typed.absent, version: 0 }],
      },
    });
    expect(typed.statusCode, typed.body).toBe(200);
  }

  const opened = await app.inject({
    method: 'GET',
    url: `/api/attendance/register/?student_class=${enc}&date=2025-10-08`,
    headers: teacher,
  });
  expect(opened.statusCode, opened.body).toBe(200);
  expect(opened.json<Register>()).toMatchObject({ may_edit: true, saved: null, day: { school_day: true, session_id: u.sessionId } });
  expect(opened.json<Register>().rows.map((r) => r.admission_number)).toEqual(u.students);
  // The typed student present, everyone else absent.
  const marks = u.students.map((n) => ({ admission_number: n, status: n === u.typed.admission ? 'present' : 'absent' }));
  const saved = await app.inject({
    method: 'PUT',
    url: '/api/attendance/register/',
    headers: teacher,
    payload: { student_class: u.cls, date: '2025-10-08', marks, version: 0 },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  expect(saved.json<Register>().saved!.version).toBe(1);
  expect(saved.json<Register>().rows.map((r) => r.status)).toEqual(marks.map((m) => m.status));

  const untyped = u.students.find((n) => n !== u.typed.admission)!;
  const card = async (admission: string) => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/report-card/?admission_number=${admission}&session_id=${u.sessionId}&term=1st`,
      headers: auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ReportCard>().attendance;
  };
  expect(await card(u.typed.admission)).toEqual<CardAttendance>({
    times_opened: u.timesOpened,
    present: u.typed.present,
    absent: u.typed.absent,
    source: 'form_teacher',
    unmarked: null,
  });
  expect(await card(untyped)).toEqual<CardAttendance>({
    times_opened: u.timesOpened,
    present: 0,
    absent: 1,
    source: 'register',
    unmarked: u.timesOpened - 1,
  });

  const sheet = await app.inject({
    method: 'GET',
    url: `/api/class-comments/?session_id=${u.sessionId}&term=1st&student_class=${enc}`,
    headers: teacher,
  });
  expect(sheet.statusCode, sheet.body).toBe(200);
  expect(sheet.json<CommentSheet>().times_opened).toBe(u.timesOpened);
  const rows = new Map(sheet.json<CommentSheet>().rows.map((r) => [r.admission_number, r]));
  expect(rows.get(u.typed.admission)).toMatchObject({
    days_present: u.typed.present,
    days_absent: u.typed.absent,
    register: { present: 1, absent: 0 },
  });
  expect(rows.get(untyped)).toMatchObject({ days_present: null, days_absent: null, register: { present: 0, absent: 1 } });
}

describe('migration 0017 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row of every table, adds the attendance tables empty, and the register and the card work on it', async () => {
    const handle = upgrade.databaseFromFixture('release-0016', cleanups);

    const before = await upgrade.tableRows(handle, KEPT);
    const counts = Object.fromEntries(Object.entries(before).map(([t, rows]) => [t, rows.length]));
    expect(counts).toMatchObject({
      students: 72,
      staff: 33,
      results: 1530,
      fee_items: 72,
      class_arms: 18,
      form_teachers: 18,
      report_terms: 3,
      report_card_entries: 0,
    });
    await migrateToLatest(handle);
    // Read on the columns each table had: later migrations add some (fee_items.due_on, 0021).
    expect(await upgrade.tableRowsAsBefore(handle, before)).toEqual(before);
    await expectNewTablesEmpty(handle);

    const session = await handle.db.selectFrom('academic_sessions').select('id').where('is_current', '=', 1).executeTakeFirstOrThrow();
    const ft = await handle.db
      .selectFrom('form_teachers')
      .innerJoin('class_arms', 'class_arms.id', 'form_teachers.arm_id')
      .innerJoin('staff', 'staff.id', 'form_teachers.staff_id')
      .innerJoin('users', 'users.id', 'staff.user_id')
      .select(['class_arms.name', 'users.email'])
      .where('form_teachers.session_id', '=', session.id)
      .where('class_arms.name', '=', 'JSS 1A')
      .executeTakeFirstOrThrow();
    const students = await handle.db
      .selectFrom('students')
      .select('admission_number')
      .where('student_class', '=', 'JSS 1A')
      .orderBy('last_name')
      .orderBy('first_name')
      .orderBy('admission_number')
      .execute();
    expect(students).toHaveLength(4);
    // The typed "times opened" of the old report card settings (118) stays the card's.
    const typedOpened = await handle.db
      .selectFrom('school_terms')
      .select('times_opened')
      .where('session_id', '=', session.id)
      .where('term', '=', '1st')
      .executeTakeFirstOrThrow();
    expect(typedOpened.times_opened).toBe(118);
    await appWorksOn(handle, {
      sessionId: session.id,
      cls: ft.name,
      teacherEmail: ft.email!,
      students: students.map((s) => s.admission_number),
      typed: { admission: students[1]!.admission_number, present: 50, absent: 3 },
      typeThroughApi: true,
      timesOpened: 118,
    });
  });
});

describeEachDatabase('migration 0017: the report card of the previous release keeps its typed attendance', (dialect) => {
  it('adds the tables empty; the typed totals win over the register, the calendar counts times opened when none was typed', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0016_report_cards', cleanups);
    const session = await createSession(handle.db, '2025/2026', true);
    const teacher = await createStaff(handle.db, {
      email: 'ft@test.school',
      password: TEST_PASSWORD,
      firstName: 'Grace',
      lastName: 'Okafor',
    });
    await makeFormTeacher(handle.db, session.id, 'JSS 1A', teacher.id);
    const kids = [await upgrade.oldStudent(handle, 'JSS 1A', 1), await upgrade.oldStudent(handle, 'JSS 1A', 2)];
    await createResults(
      handle.db,
      kids.map((k) => ({ studentId: k.id, sessionId: session.id, term: '1st', arm: 'JSS 1A', subject: 'Mathematics', score: 60 })),
    );
    // As the previous release stored them: the form teacher's typed totals, no typed "times opened".
    await putEntry(handle.db, {
      student_id: kids[0]!.id,
      session_id: session.id,
      term: '1st',
      student_class: 'JSS 1A',
      days_present: 15,
      days_absent: 3,
    });
    await putTerm(handle.db, { session_id: session.id, term: '1st', next_term_begins: '2026-01-12', times_opened: null });

    const before = await upgrade.tableRows(handle, KEPT);
    await migrateToLatest(handle);
    // Read on the columns each table had: later migrations add some (fee_items.due_on, 0021).
    expect(await upgrade.tableRowsAsBefore(handle, before)).toEqual(before);
    await expectNewTablesEmpty(handle);

    await appWorksOn(handle, {
      sessionId: session.id,
      cls: 'JSS 1A',
      teacherEmail: 'ft@test.school',
      // Old Row1, Old Row2: surname order.
      students: kids.map((k) => k.admissionNumber),
      typed: { admission: kids[0]!.admissionNumber, present: 15, absent: 3 },
      typeThroughApi: false,
      // 15 Sep - 8 Oct 2025: 18 weekdays.
      timesOpened: 18,
    });
  });
});

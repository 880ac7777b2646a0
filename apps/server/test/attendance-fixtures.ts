import type { FastifyInstance } from 'fastify';
import { nowIso, type DB } from '../src/db/index';
import { makeFormTeacher } from './teaching-fixtures';
import { addStudent, signInStaff, withSchool, type SignedIn, type TestContext, type TestDialect, type TestSchool } from './helpers';

/** A clock tests move: `at('2025-10-08')` is 10:00 in Lagos that day. */
export function testClock(start: string) {
  let ms = Date.parse(`${start}T09:00:00Z`);
  return {
    now: () => ms,
    at(date: string, time = '09:00:00') {
      ms = Date.parse(`${date}T${time}Z`);
    },
  };
}

/**
 * The register's school on the test's `clock`: withSchool in 2025/2026 with the first term's
 * calendar, its staff member as `teacher` and a second teacher, Tunde Bello, as `other`.
 */
export function withRegisterSchool(
  dialect: TestDialect,
  clock: { now: () => number },
  ready: (school: TestSchool & { teacher: TestSchool['staff']; other: SignedIn & { id: number } }) => unknown,
): void {
  withSchool(dialect, { sessions: ['2025/2026'], now: clock.now }, async (school) => {
    const other = await signInStaff(school.ctx, { firstName: 'Tunde', lastName: 'Bello' });
    await firstTermCalendar(school.ctx.app, school.admin.auth, school.sessionId);
    await ready({ ...school, teacher: school.staff, other });
  });
}

/** The demo's first term of 2025/2026 (15 Sep - 19 Dec 2025) with Independence Day and a mid-term break. */
export async function firstTermCalendar(app: FastifyInstance, auth: { authorization: string }, sessionId: number): Promise<void> {
  const put = await app.inject({
    method: 'PUT',
    url: '/api/attendance/terms/',
    headers: auth,
    payload: { session_id: sessionId, term: '1st', starts_on: '2025-09-15', ends_on: '2025-12-19' },
  });
  if (put.statusCode !== 200) throw new Error(`term dates: ${put.statusCode} ${put.body}`);
  for (const e of [
    { name: 'Independence Day', kind: 'holiday', starts_on: '2025-10-01', ends_on: '2025-10-01' },
    { name: 'Mid-term break', kind: 'mid_term_break', starts_on: '2025-10-27', ends_on: '2025-10-31' },
  ]) {
    const res = await app.inject({ method: 'POST', url: '/api/attendance/events/', headers: auth, payload: e });
    if (res.statusCode !== 201) throw new Error(`event: ${res.statusCode} ${res.body}`);
  }
}

/**
 * The attendance requests tests send as `who`, answers returned unchecked (a test may expect a
 * refusal): the register, term dates, calendar events, the school's settings and a term's card values.
 */
const send =
  (method: 'PUT' | 'POST', url: string) => (ctx: TestContext, who: { auth: { authorization: string } }, payload: Record<string, unknown>) =>
    ctx.app.inject({ method, url, headers: who.auth, payload });
export const saveRegister = send('PUT', '/api/attendance/register/');
export const putTermDates = send('PUT', '/api/attendance/terms/');
export const addEvent = send('POST', '/api/attendance/events/');
export const putAttendanceSettings = send('PUT', '/api/attendance/settings/');
export const putReportTerm = send('PUT', '/api/report-terms/');

let seq = 0;
/** An arm of its own (`JSS 1 A<n>`) with `teacherId` as form teacher in the session and `names` ("First Last") as students. */
export async function attendanceArm(ctx: TestContext, sessionId: number, teacherId: number, names: string[]) {
  const a = `A${++seq}`;
  const cls = `JSS 1 ${a}`;
  const db: DB = ctx.handle.db;
  await db.insertInto('class_arms').values({ level: 'JSS 1', arm: a, name: cls, created_at: nowIso() }).execute();
  await makeFormTeacher(db, sessionId, cls, teacherId);
  const kids = [];
  for (const n of names) {
    const [first, last] = n.split(' ') as [string, string];
    kids.push({ ...(await addStudent(ctx, cls, first, last)), name: n });
  }
  return { cls, kids };
}

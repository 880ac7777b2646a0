import { expect, it } from 'vitest';
import { ATTENDANCE_MESSAGES, AUTH_MESSAGES, BURSARY_MESSAGES, REPORT_MESSAGES, SUBJECTS } from '@portal/domain';
import { HttpError, notFound } from '../../http/errors';
import { addStudent, createSession, createStaff, describeEachDatabase, withTestContext, type TestContext } from '../../../test/helpers';
import { assign, makeFormTeacher } from '../../../test/teaching-fixtures';
import { accessScope, reaches, reachesArm, type AccessScope, type ScopeActor } from './scope.service';

/** The error a promise is rejected with, as status and body. */
async function refusal(p: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof HttpError) return { status: err.statusCode, body: err.body };
    throw err;
  }
  throw new Error('expected a refusal');
}

describeEachDatabase('the access scope', (dialect) => {
  let ctx: TestContext;
  let scope: AccessScope;
  let sessionId: number;
  let previousId: number;
  const s = {} as Record<'ada' | 'bayo' | 'chi', { id: number; userId: number; admissionNumber: string }>;
  const staff = {} as Record<'form' | 'subject' | 'plain', ScopeActor>;
  const admin: ScopeActor = { id: 1, role: 'admin' };
  let ada: ScopeActor;
  const unknown = (n: string) => notFound(`no ${n}`);

  withTestContext(dialect, async (x) => {
    ctx = x;
    scope = accessScope(ctx.handle.db);
    previousId = (await createSession(ctx.handle.db, '2024/2025', false)).id;
    sessionId = (await createSession(ctx.handle.db, '2025/2026', true)).id;
    s.ada = await addStudent(ctx, 'JSS 1A', 'Ada', 'Eze');
    s.bayo = await addStudent(ctx, 'JSS 2A', 'Bayo', 'Ade');
    s.chi = await addStudent(ctx, 'JSS 3A', 'Chi', 'Obi');
    ada = { id: s.ada.userId, role: 'student' };
    const db = ctx.handle.db;
    const make = async (n: string) => createStaff(db, { firstName: n, lastName: 'Teacher', email: `${n}@scope.test`, password: 'x' });
    const form = await make('form');
    const subject = await make('subject');
    const plain = await make('plain');
    // The form teacher of JSS 1A this session (and of JSS 3A last session only); the subject
    // teacher teaches Mathematics to JSS 2A this session.
    await makeFormTeacher(db, sessionId, 'JSS 1A', form.id);
    await makeFormTeacher(db, previousId, 'JSS 3A', form.id);
    await assign(db, sessionId, 'JSS 2A', SUBJECTS[0], subject.id);
    staff.form = { id: form.userId, role: 'staff' };
    staff.subject = { id: subject.userId, role: 'staff' };
    staff.plain = { id: plain.userId, role: 'staff' };
  });

  const row = (k: 'ada' | 'bayo' | 'chi', cls: string) => ({ id: s[k].id, user_id: s[k].userId, student_class: cls });

  it('says who reaches whom, for what: self, form arms, taught arms, everyone', async () => {
    expect(await scope.scopeOf(admin, 'attendance', sessionId)).toEqual({ kind: 'all' });
    expect(await scope.scopeOf(ada, 'records')).toEqual({ kind: 'self', userId: s.ada.userId });
    expect(await scope.scopeOf(ada, 'statement')).toEqual({ kind: 'self', userId: s.ada.userId });
    expect(await scope.scopeOf(ada, 'unreleased_cards', sessionId)).toEqual({ kind: 'none' });
    // Staff read every student's profile, results and payments (the spec's menus) ...
    expect(await scope.scopeOf(staff.plain, 'records')).toEqual({ kind: 'all' });
    // ... the statement only with the bursar capability ...
    expect(await scope.scopeOf(staff.plain, 'statement')).toEqual({ kind: 'none' });
    expect(await scope.scopeOf({ ...staff.plain, capable: true }, 'statement')).toEqual({ kind: 'all' });
    // ... attendance of their form arms, unreleased cards of the arms they are form or subject teacher of, per session.
    const formAttendance = await scope.scopeOf(staff.form, 'attendance', sessionId);
    expect(formAttendance).toMatchObject({ kind: 'arms', arms: new Set(['JSS 1A']) });
    expect(await scope.scopeOf(staff.form, 'attendance', previousId)).toMatchObject({ kind: 'arms', arms: new Set(['JSS 3A']) });
    const subjectCards = await scope.scopeOf(staff.subject, 'unreleased_cards', sessionId);
    expect(subjectCards).toEqual({ kind: 'arms', sessionId, arms: new Set(['JSS 2A']), armSubjects: new Set([`JSS 2A/${SUBJECTS[0]}`]) });
    expect(await scope.scopeOf(staff.subject, 'attendance', sessionId)).toMatchObject({ kind: 'arms', arms: new Set() });

    expect(reaches(formAttendance, row('ada', 'JSS 1A'))).toBe(true);
    expect(reaches(formAttendance, row('bayo', 'JSS 2A'))).toBe(false);
    expect(reachesArm(subjectCards, 'JSS 2A')).toBe(true);
    expect(reachesArm(subjectCards, 'JSS 1A')).toBe(false);
    // A subject teacher's reach per subject: their pair only.
    const subjectAttendance = await scope.scopeOf(staff.subject, 'attendance', sessionId);
    expect(reaches(subjectAttendance, row('bayo', 'JSS 2A'), SUBJECTS[0])).toBe(true);
    expect(reaches(subjectAttendance, row('bayo', 'JSS 2A'), SUBJECTS[1])).toBe(false);
    // A parent's reach (next): a set of student ids.
    const parent = { kind: 'students', ids: new Set([s.bayo.id]) } as const;
    expect([reaches(parent, row('bayo', 'JSS 2A')), reaches(parent, row('ada', 'JSS 1A'))]).toEqual([true, false]);
  });

  it("resolves the student a request names: a student's own, refused or substituted for another; staff within their reach", async () => {
    const own = await scope.studentFor(ada, undefined, { purpose: 'records', otherwise: 'refuse', unknown });
    expect(own?.admission_number).toBe(s.ada.admissionNumber);
    // Another student's number: refused with the one own-record message, or (documented per endpoint) their own.
    expect(await refusal(scope.studentFor(ada, s.bayo.admissionNumber, { purpose: 'records', otherwise: 'refuse', unknown }))).toEqual({
      status: 403,
      body: { detail: AUTH_MESSAGES.ownRecordOnly },
    });
    // An unknown number is refused the same way: a student learns nothing of which numbers exist.
    expect((await refusal(scope.studentFor(ada, 'STU-9999', { purpose: 'records', otherwise: 'refuse', unknown }))).status).toBe(403);
    const substituted = await scope.studentFor(ada, s.bayo.admissionNumber, { purpose: 'statement', otherwise: 'own', unknown });
    expect(substituted?.id).toBe(s.ada.id);

    // Staff: the number named; unknown numbers get the screen's own error; none named, undefined.
    expect((await scope.studentFor(staff.plain, s.bayo.admissionNumber, { purpose: 'records', otherwise: 'refuse', unknown })).id).toBe(
      s.bayo.id,
    );
    expect(await refusal(scope.studentFor(staff.plain, 'STU-9999', { purpose: 'records', otherwise: 'refuse', unknown }))).toEqual({
      status: 404,
      body: { detail: 'no STU-9999' },
    });
    expect(await scope.studentFor(staff.plain, undefined, { purpose: 'records', otherwise: 'refuse', unknown })).toBeUndefined();
    // Attendance: the form teacher's arm only, in the session asked (found only when needed).
    const attendance = (id: number) => ({
      purpose: 'attendance' as const,
      otherwise: 'own' as const,
      unknown,
      sessionId: () => Promise.resolve(id),
    });
    expect((await scope.studentFor(staff.form, s.ada.admissionNumber, attendance(sessionId))).id).toBe(s.ada.id);
    expect(await refusal(scope.studentFor(staff.form, s.bayo.admissionNumber, attendance(sessionId)))).toEqual({
      status: 403,
      body: { detail: ATTENDANCE_MESSAGES.notStudentOfYours },
    });
    expect((await scope.studentFor(staff.form, s.chi.admissionNumber, attendance(previousId))).id).toBe(s.chi.id);
    expect((await refusal(scope.studentFor(staff.form, s.chi.admissionNumber, attendance(sessionId)))).status).toBe(403);
  });

  it('checks records named by id or number, and whole arms, with one refusal per purpose', async () => {
    expect(await scope.reachesStudent(ada, { id: s.ada.id }, 'records')).toBe(true);
    expect(await scope.reachesStudent(ada, { id: s.bayo.id }, 'records')).toBe(false);
    expect(await scope.reachesStudent(ada, { id: null }, 'records')).toBe(false);
    expect(await scope.reachesStudent(ada, { admission_number: s.bayo.admissionNumber }, 'records')).toBe(false);
    expect(await scope.reachesStudent(staff.plain, { id: s.bayo.id }, 'records')).toBe(true);
    expect(await scope.reachesStudent(staff.plain, { id: s.bayo.id }, 'statement')).toBe(false);
    expect(await refusal(scope.assertReachesStudent(ada, { id: s.bayo.id }, 'records'))).toEqual({
      status: 403,
      body: { detail: AUTH_MESSAGES.ownRecordOnly },
    });
    expect(await refusal(scope.assertReachesStudent(staff.plain, { id: s.bayo.id }, 'statement'))).toEqual({
      status: 403,
      body: { detail: BURSARY_MESSAGES.bursarOnly },
    });
    await scope.assertArm(staff.subject, 'JSS 2A', 'unreleased_cards', sessionId);
    await scope.assertArm(admin, 'JSS 1A', 'attendance', null);
    expect(await refusal(scope.assertArm(staff.subject, 'JSS 1A', 'unreleased_cards', sessionId))).toEqual({
      status: 403,
      body: { detail: REPORT_MESSAGES.unreleasedCardsOnly('JSS 1A') },
    });
    expect(await refusal(scope.assertArm(staff.subject, 'JSS 2A', 'attendance', sessionId))).toEqual({
      status: 403,
      body: { detail: ATTENDANCE_MESSAGES.viewFormTeacherOnly('JSS 2A') },
    });
    expect((await refusal(scope.assertArm(staff.form, 'JSS 1A', 'attendance', null))).status).toBe(403);
  });
});

import { expect, it } from 'vitest';
import { RESULT_MESSAGES, SESSION_CLOSED_CODE, TEACHING_MESSAGES, type CommentSheet } from '@portal/domain';
import { createResults } from '../../db/factories';
import { addStudent, describeEachDatabase, signInStaff, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import { assign, enforceAssignments, makeFormTeacher, offerAtLevel } from '../../../test/teaching-fixtures';

/**
 * Enforcement and entry windows are set per session, so a past session (none set) was
 * open to every teacher. A session that is not the current one is closed to teachers: scores,
 * comments and ratings; only the admin writes there, giving a reason that the history keeps.
 */
describeEachDatabase('writes into a past session', (dialect) => {
  let ctx: TestContext, admin: SignedIn, maths: SignedIn & { id: number }, current: number, previous: number;
  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'] }, async (s) => {
    ({ ctx, admin, sessionId: current, previousSessionId: previous } = s);
    maths = s.staff;
    await offerAtLevel(ctx.handle.db, 'JSS 1', ['Mathematics', 'English Language']);
    // The school: assignments enforced this session, the Mathematics teacher assigned Mathematics.
    await enforceAssignments(ctx.handle.db, current, true);
    await assign(ctx.handle.db, current, 'JSS 1A', 'Mathematics', maths.id);
  });
  const inject = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, who: SignedIn, payload?: object) =>
    ctx.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
  const closed = { detail: TEACHING_MESSAGES.sessionClosed, code: SESSION_CLOSED_CODE };

  it("refuses the Mathematics teacher's English score in the previous session (was 201), as every score write there", async () => {
    const s = await addStudent(ctx, 'JSS 1A', 'Ada', 'Eze');
    const body = { admission_number: s.admissionNumber, session_id: previous, term: '1st', student_class: 'JSS 1A' };
    const english = await inject('POST', '/api/results/', maths, { ...body, subjects: [{ name: 'English Language', score: 60 }] });
    expect(english.statusCode).toBe(403);
    expect(english.json()).toEqual(closed);
    // Their own subject too: the past session is closed, not just unassigned.
    expect((await inject('POST', '/api/results/', maths, { ...body, subject: 'Mathematics', score: 61 })).json()).toEqual(closed);
    await createResults(ctx.handle.db, [
      { studentId: s.id, sessionId: previous, term: '1st', arm: 'JSS 1A', subject: 'Mathematics', score: 40 },
    ]);
    const row = await ctx.handle.db.selectFrom('results').select('id').where('student_id', '=', s.id).executeTakeFirstOrThrow();
    expect((await inject('PATCH', `/api/results/${row.id}/`, maths, { score: 45 })).json()).toEqual(closed);
    expect((await inject('DELETE', `/api/results/${row.id}/`, maths)).json()).toEqual(closed);
    const grid = await inject('PUT', '/api/score-sheet/', maths, {
      session_id: previous,
      term: '1st',
      student_class: 'JSS 1A',
      subject: 'Mathematics',
      rows: [{ admission_number: s.admissionNumber, components: { Score: 50 }, version: 1 }],
    });
    expect([grid.statusCode, grid.json()]).toEqual([403, closed]);
    // The grid says so before any typing.
    const sheet = await inject('GET', `/api/score-sheet/?session_id=${previous}&term=1st&student_class=JSS 1A&subject=Mathematics`, maths);
    expect(sheet.json()).toMatchObject({ may_write: false, refusal: TEACHING_MESSAGES.sessionClosed });
    // The same teacher in the current session writes their own subject as before.
    const now = await inject('POST', '/api/results/', maths, { ...body, session_id: current, subject: 'Mathematics', score: 70 });
    expect(now.statusCode, now.body).toBe(201);
    expect(await ctx.handle.db.selectFrom('results').select('score').where('student_id', '=', s.id).orderBy('id').execute()).toHaveLength(
      2,
    );
  });

  it('lets the admin write there with a reason, which the result history keeps', async () => {
    const s = await addStudent(ctx, 'JSS 1A', 'Bola', 'Ade');
    const body = {
      admission_number: s.admissionNumber,
      session_id: previous,
      term: '2nd',
      student_class: 'JSS 1A',
      subjects: [{ name: 'English Language', score: 66 }],
    };
    const noReason = await inject('POST', '/api/results/', admin, body);
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toEqual({ reason: [RESULT_MESSAGES.reasonRequiredPastSession] });
    const ok = await inject('POST', '/api/results/', admin, { ...body, reason: 'Missed last year; moderation sheet' });
    expect(ok.statusCode, ok.body).toBe(201);
    const audit = await ctx.handle.db
      .selectFrom('result_audit')
      .select(['action', 'reason', 'actor_user_id'])
      .where('student_id', '=', s.id)
      .execute();
    expect(audit).toEqual([{ action: 'create', reason: 'Missed last year; moderation sheet', actor_user_id: admin.userId }]);
    const id = ok.json<{ id: number }[]>()[0]!.id;
    expect((await inject('PATCH', `/api/results/${id}/`, admin, { score: 67 })).json()).toEqual({
      reason: [RESULT_MESSAGES.reasonRequiredPastSession],
    });
    expect((await inject('PATCH', `/api/results/${id}/`, admin, { score: 67, reason: 'Re-marked' })).statusCode).toBe(200);
    expect((await inject('DELETE', `/api/results/${id}/?reason=Entered%20twice`, admin)).statusCode).toBe(204);
  });

  it("closes the past session's comment and rating sheets to its form teacher; the admin still writes, audited", async () => {
    const teacher = await signInStaff(ctx, { firstName: 'Musa', lastName: 'Bello' });
    await makeFormTeacher(ctx.handle.db, previous, 'JSS 1B', teacher.id);
    const s = await addStudent(ctx, 'JSS 1B', 'Chidi', 'Obi');
    await createResults(ctx.handle.db, [
      { studentId: s.id, sessionId: previous, term: '1st', arm: 'JSS 1B', subject: 'Mathematics', score: 50 },
    ]);
    const head = { session_id: previous, term: '1st', student_class: 'JSS 1B' };
    const sheet = await inject('GET', `/api/class-comments/?session_id=${previous}&term=1st&student_class=JSS%201B`, teacher);
    expect(sheet.statusCode, sheet.body).toBe(200);
    expect(sheet.json<CommentSheet>()).toMatchObject({ may_edit_form: false });
    const row = { admission_number: s.admissionNumber, version: 0 };
    const comment = await inject('PUT', '/api/class-comments/', teacher, { ...head, rows: [{ ...row, form_comment: 'Good' }] });
    expect([comment.statusCode, comment.json()]).toEqual([403, closed]);
    const ratings = await inject('PUT', '/api/class-ratings/', teacher, { ...head, rows: [{ ...row, ratings: { neatness: 3 } }] });
    expect([ratings.statusCode, ratings.json()]).toEqual([403, closed]);
    const suggest = await inject('POST', '/api/class-comments/suggestions/', teacher, { ...head, kind: 'form', overwrite: false });
    expect([suggest.statusCode, suggest.json()]).toEqual([403, closed]);
    const byAdmin = await inject('PUT', '/api/class-comments/', admin, { ...head, rows: [{ ...row, form_comment: 'Good' }] });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    const audit = await ctx.handle.db
      .selectFrom('audit_log')
      .select(['actor_user_id'])
      .where('entity', '=', 'report_card_entry')
      .where('entity_id', '=', `${previous}/1st/${s.admissionNumber}`)
      .execute();
    expect(audit).toEqual([{ actor_user_id: admin.userId }]);
  });
});

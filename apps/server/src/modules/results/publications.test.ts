import { expect, it } from 'vitest';
import { AUTH_MESSAGES, NOT_RELEASED_CODE, REPORT_MESSAGES, RESULT_MESSAGES } from '@portal/domain';
import { withSchool, describeEachDatabase, signInStaff, type SignedIn, type TestContext } from '../../../test/helpers';
import { makeFormTeacher } from '../../../test/teaching-fixtures';
import { resultsKit } from '../../../test/results-fixtures';

/**
 * Publishing a class's term: until an admin releases it, students see nothing of it, and never anyone else's results.
 * Every test builds its own class in a session of its own (`rankedClass`), so each passes alone.
 */
describeEachDatabase('result publications', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn & { id: number };
  withSchool(dialect, { sessions: ['2025/2026'] }, (s) => ({ ctx, admin, staff } = s));

  const { inject, rankedClass } = resultsKit(
    () => ctx,
    () => staff,
  );

  it('keeps unpublished results from the student, with a clear not-released answer', async () => {
    const { session, sessionId, cls, student } = await rankedClass();
    const mine = await inject(
      'GET',
      `/api/results/?session_id=${sessionId}&term=1st&admission_number=${student.admissionNumber}`,
      student.auth,
    );
    expect(mine.statusCode).toBe(404);
    expect(mine.json()).toEqual({ detail: RESULT_MESSAGES.notReleased, code: NOT_RELEASED_CODE });
    const cardUrl = `/api/report-card/?session_id=${sessionId}&term=1st&admission_number=${student.admissionNumber}`;
    const card = await inject('GET', cardUrl, student.auth);
    expect(card.statusCode).toBe(404);
    expect(card.json().code).toBe(NOT_RELEASED_CODE);
    const terms = (await inject('GET', '/api/results/terms/', student.auth)).json();
    expect(terms.filter((t: { session_id: number }) => t.session_id === sessionId)).toEqual([
      { session_id: sessionId, session_name: session.name, term: '3rd', student_class: cls, subjects: 3, released: false },
      { session_id: sessionId, session_name: session.name, term: '2nd', student_class: cls, subjects: 3, released: false },
      { session_id: sessionId, session_name: session.name, term: '1st', student_class: cls, subjects: 3, released: false },
    ]);
    // Before release: the arm's teachers (here its form teacher) and the admin, not any staff member (30.9).
    const other = await signInStaff(ctx, { firstName: 'Musa', lastName: 'Bello' });
    expect((await inject('GET', cardUrl, other.auth)).json()).toEqual({ detail: REPORT_MESSAGES.unreleasedCardsOnly(cls) });
    await makeFormTeacher(ctx.handle.db, sessionId, cls, staff.id);
    const staffView = await inject('GET', cardUrl, staff.auth);
    expect(staffView.statusCode).toBe(200);
    expect(staffView.json().released).toBe(false);
  });

  it('lets only an admin publish and unpublish, audited', async () => {
    const { sessionId, cls, student } = await rankedClass();
    const body = { session_id: sessionId, term: '1st', student_class: cls };
    expect((await inject('POST', '/api/results/publications/', staff.auth, body)).statusCode).toBe(403);
    const res = await inject('POST', '/api/results/publications/', admin.auth, body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ ...body, published_by: admin.email });
    expect((await inject('POST', '/api/results/publications/', admin.auth, body)).statusCode).toBe(200);
    const list = (await inject('GET', `/api/results/publications/?session_id=${sessionId}`, staff.auth)).json();
    expect(list).toHaveLength(1);
    const mine = await inject('GET', `/api/results/?session_id=${sessionId}&term=1st`, student.auth);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toHaveLength(3);
    expect(mine.json().every((r: { admission_number: string }) => r.admission_number === student.admissionNumber)).toBe(true);

    const del = await inject('DELETE', `/api/results/publications/${res.json().id}/`, admin.auth);
    expect(del.statusCode).toBe(204);
    expect((await inject('GET', `/api/results/?session_id=${sessionId}&term=1st`, student.auth)).statusCode).toBe(404);
    expect((await inject('DELETE', `/api/results/publications/${res.json().id}/`, admin.auth)).statusCode).toBe(404);
    const audit = await ctx.handle.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'result_publication')
      .where('entity_id', '=', String(res.json().id))
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['publish', 'unpublish']);
  });

  it('never shows a student anyone else’s results', async () => {
    const { sessionId, student, mates } = await rankedClass({ admin, publish: ['1st', '2nd', '3rd'] });
    const other = mates[0]!.admissionNumber;
    for (const url of [
      `/api/results/?admission_number=${other}`,
      `/api/report-card/?session_id=${sessionId}&term=1st&admission_number=${other}`,
      `/api/report-card/pdf/?session_id=${sessionId}&term=1st&admission_number=${other}`,
      `/api/results/terms/?admission_number=${other}`,
    ]) {
      const res = await inject('GET', url, student.auth);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: RESULT_MESSAGES.ownResultsOnly });
    }
    // Without a filter a student gets only their own (published) rows.
    const all = (await inject('GET', '/api/results/', student.auth)).json();
    expect(all.length).toBe(9);
    expect(new Set(all.map((r: { admission_number: string }) => r.admission_number))).toEqual(new Set([student.admissionNumber]));
    for (const url of ['/api/report-cards/?session_id=1&term=1st&student_class=JSS 1A', '/api/broadsheet/?session_id=1&term=1st']) {
      expect((await inject('GET', url, student.auth)).statusCode).toBe(403);
    }
    expect((await inject('GET', '/api/results/audit/?student_class=JSS 1A', student.auth)).statusCode).toBe(403);
    expect((await inject('GET', '/api/results/', undefined)).json()).toEqual({ detail: AUTH_MESSAGES.notAuthenticated });
  });
});

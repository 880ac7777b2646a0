import { beforeAll, expect, it } from 'vitest';
import { PEOPLE_MESSAGES, RESULT_MESSAGES, type DebtorsPage, type ReportCard, type Statement } from '@portal/domain';
import { createFeeItems, createResults } from '../../db/factories';
import { inTransaction, nowIso } from '../../db/index';
import { accessScope } from '../access/scope.service';
import { makeFormTeacher } from '../../../test/teaching-fixtures';
import {
  addStudent,
  describeEachDatabase,
  login,
  servicesOver,
  signInStaff,
  signInStudent,
  withSchool,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';

/**
 * Class history per session (decision record 038) through people's port: the old session's rows are
 * written and the students moved, as promotion does; then every reader of the old session shows the
 * arm the student had in it, the live session shows today's, and a graduate (alumni) cannot sign in,
 * is on no live list, and keeps every record (the transcript).
 */
describeEachDatabase('class history per session', (dialect) => {
  let ctx: TestContext, admin: SignedIn, oldId: number, liveId: number;
  withSchool(dialect, { sessions: ['2025/2026', '2026/2027'] }, (s) => {
    ({ ctx, admin } = s);
    oldId = s.previousSessionId;
    liveId = s.sessionId;
  });

  let ada: SignedIn & { admissionNumber: string; id: number };
  let bola: { id: number; admissionNumber: string };
  let grad: SignedIn & { admissionNumber: string; id: number };
  let newcomer: { id: number; admissionNumber: string };
  let formTeacher: SignedIn & { id: number };

  const get = (url: string, who: SignedIn = admin) => ctx.app.inject({ method: 'GET', url, headers: who.auth });
  const q = (o: Record<string, string | number>) =>
    new URLSearchParams(Object.fromEntries(Object.entries(o).map(([k, v]) => [k, String(v)]))).toString();

  beforeAll(async () => {
    ada = await signInStudent(ctx, { arm: 'JSS 1A', firstName: 'Ada', lastName: 'Obi' });
    bola = await addStudent(ctx, 'JSS 1A', 'Bola', 'Ade');
    grad = await signInStudent(ctx, { arm: 'SSS 3A', firstName: 'Gozie', lastName: 'Nwa' });
    formTeacher = await signInStaff(ctx);
    await makeFormTeacher(ctx.handle.db, oldId, 'JSS 1A', formTeacher.id);
    const set = '2025-09-01T08:00:00.000Z';
    await createFeeItems(ctx.handle.db, [
      { arm: 'JSS 1A', sessionId: oldId, term: '1st', name: 'Tuition', amountKobo: 1_000_000, createdAt: set },
      { arm: 'JSS 2A', sessionId: oldId, term: '1st', name: 'Tuition', amountKobo: 2_000_000, createdAt: set },
      { arm: 'JSS 2A', sessionId: liveId, term: '1st', name: 'Tuition', amountKobo: 3_000_000, createdAt: set },
      { arm: 'JSS 1A', sessionId: liveId, term: '1st', name: 'Tuition', amountKobo: 4_000_000, createdAt: set },
    ]);
    await createResults(ctx.handle.db, [
      { studentId: ada.id, sessionId: oldId, term: '1st', arm: 'JSS 1A', subject: 'Mathematics', score: 71 },
      { studentId: ada.id, sessionId: oldId, term: '2nd', arm: 'JSS 1A', subject: 'Mathematics', score: 66 },
      { studentId: grad.id, sessionId: oldId, term: '1st', arm: 'SSS 3A', subject: 'Mathematics', score: 58 },
      { studentId: grad.id, sessionId: oldId, term: '2nd', arm: 'SSS 3A', subject: 'Mathematics', score: 62 },
      { studentId: grad.id, sessionId: oldId, term: '3rd', arm: 'SSS 3A', subject: 'Mathematics', score: 75 },
    ]);
    const published = [
      ['1st', 'JSS 1A'],
      ['2nd', 'JSS 1A'],
      ['1st', 'SSS 3A'],
      ['2nd', 'SSS 3A'],
      ['3rd', 'SSS 3A'],
    ] as const;
    await ctx.handle.db
      .insertInto('result_publications')
      .values(
        published.map(([term, arm]) => ({
          session_id: oldId,
          term,
          student_class: arm,
          published_by: admin.userId,
          published_at: nowIso(),
        })),
      )
      .execute();

    // The end of 2025/2026, as promotion does it: the old session's rows, then the moves.
    const { people } = servicesOver(ctx);
    await inTransaction(ctx.handle.db, async (trx) => {
      await people.recordEnrolments(trx, [
        { student_id: ada.id, session_id: oldId, student_class: 'JSS 1A', stream_id: null, outcome: 'promoted', run_id: 1 },
        { student_id: bola.id, session_id: oldId, student_class: 'JSS 1A', stream_id: null, outcome: 'promoted', run_id: 1 },
        { student_id: grad.id, session_id: oldId, student_class: 'SSS 3A', stream_id: null, outcome: 'graduated', run_id: 1 },
      ]);
      await people.moveStudents(trx, [
        { student_id: ada.id, student_class: 'JSS 2A', stream_id: null, status: 'active' },
        { student_id: bola.id, student_class: 'JSS 2A', stream_id: null, status: 'active' },
        { student_id: grad.id, student_class: 'SSS 3A', stream_id: null, status: 'graduated' },
      ]);
    });
    // Admitted in the new session, into the arm Ada has left.
    newcomer = await addStudent(ctx, 'JSS 1A', 'Nneka', 'New');
  });

  it('the port answers each student’s arm in each session, and the rosters by the rule', async () => {
    const { people } = servicesOver(ctx);
    const old = await people.armsInSession(ctx.handle.db, oldId, [ada.id, bola.id, grad.id, newcomer.id]);
    expect(old.get(ada.id)?.student_class).toBe('JSS 1A');
    expect(old.get(grad.id)?.student_class).toBe('SSS 3A');
    expect(old.has(newcomer.id)).toBe(false);
    const live = await people.armsInSession(ctx.handle.db, liveId, [ada.id, newcomer.id]);
    expect(live.get(ada.id)?.student_class).toBe('JSS 2A');
    expect(live.get(newcomer.id)?.student_class).toBe('JSS 1A');
    expect((await people.rosterInSession(ctx.handle.db, oldId, 'JSS 1A')).map((s) => s.id).sort()).toEqual([ada.id, bola.id].sort());
    expect((await people.rosterInSession(ctx.handle.db, liveId, 'JSS 1A')).map((s) => s.id)).toEqual([newcomer.id]);
    expect((await people.rosterInSession(ctx.handle.db, liveId, 'JSS 2A')).map((s) => s.id).sort()).toEqual([ada.id, bola.id].sort());
    // Alumni are on their last arm's past roster, never on a live one.
    expect((await people.rosterInSession(ctx.handle.db, oldId, 'SSS 3A')).map((s) => s.id)).toEqual([grad.id]);
    expect(await people.rosterInSession(ctx.handle.db, liveId, 'SSS 3A')).toEqual([]);
  });

  it('the old session’s statement charges the old arm; the live session’s the new one', async () => {
    const old = await get(`/api/bursary/statement/?${q({ admission_number: ada.admissionNumber, session_id: oldId })}`);
    expect(old.statusCode, old.body).toBe(200);
    const oldSt = old.json<Statement>();
    expect(oldSt.student_class).toBe('JSS 1A');
    expect(oldSt.charged + (oldSt as unknown as { upcoming: number }).upcoming).toBe(10_000);
    const live = (
      await get(`/api/bursary/statement/?${q({ admission_number: ada.admissionNumber, session_id: liveId })}`)
    ).json<Statement>();
    expect(live.student_class).toBe('JSS 2A');
    expect(live.charged + (live as unknown as { upcoming: number }).upcoming).toBe(30_000);
  });

  it('the old session’s debtors are its own arms’ students; a newcomer is not on them', async () => {
    const res = await get(`/api/bursary/debtors/?${q({ session_id: oldId, term: 'session', student_class: 'JSS 1A' })}`);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<DebtorsPage>();
    expect(page.debtors.map((d) => d.admission_number).sort()).toEqual([ada.admissionNumber, bola.admissionNumber].sort());
    expect(page.debtors.every((d) => d.student_class === 'JSS 1A')).toBe(true);
    // The class payment report of the old session: the same students.
    const report = await get(`/api/payments/report/?${q({ class: 'JSS 1A', session: '2025/2026' })}`);
    expect(report.statusCode, report.body).toBe(200);
    expect(
      report
        .json<{ admission_number: string }[]>()
        .map((r) => r.admission_number)
        .sort(),
    ).toEqual([ada.admissionNumber, bola.admissionNumber].sort());
    const live = (await get(`/api/bursary/debtors/?${q({ session_id: liveId, term: 'session' })}`)).json<DebtorsPage>();
    const arms = Object.fromEntries(live.debtors.map((d) => [d.admission_number, d.student_class]));
    expect(arms).toEqual({ [ada.admissionNumber]: 'JSS 2A', [bola.admissionNumber]: 'JSS 2A', [newcomer.admissionNumber]: 'JSS 1A' });
  });

  it('the old session’s card, score sheet and attendance totals keep the old arm; the live ones show today’s', async () => {
    const card = await get(`/api/report-card/?${q({ admission_number: ada.admissionNumber, session_id: oldId, term: '1st' })}`);
    expect(card.statusCode, card.body).toBe(200);
    expect(card.json<ReportCard>().student.student_class).toBe('JSS 1A');

    const sheet = (arm: string, sessionId: number) =>
      get(`/api/score-sheet/?${q({ session_id: sessionId, term: '3rd', student_class: arm, subject: 'Mathematics' })}`);
    const oldSheet = await sheet('JSS 1A', oldId);
    expect(oldSheet.statusCode, oldSheet.body).toBe(200);
    const names = (res: typeof oldSheet) =>
      res
        .json<{ rows: { admission_number: string }[] }>()
        .rows.map((r) => r.admission_number)
        .sort();
    // Bola has no result at all: only the enrolment rows put her on the old roster.
    expect(names(oldSheet)).toEqual([ada.admissionNumber, bola.admissionNumber].sort());
    expect(names(await sheet('JSS 1A', liveId))).toEqual([newcomer.admissionNumber]);
    expect(names(await sheet('JSS 2A', liveId))).toEqual([ada.admissionNumber, bola.admissionNumber].sort());

    const totals = await get(`/api/attendance/totals/?${q({ session_id: oldId, term: '1st', student_class: 'JSS 1A' })}`);
    expect(totals.statusCode, totals.body).toBe(200);
    const rows = totals.json<{ rows: { admission_number: string; student_class: string }[] }>().rows;
    expect(rows.map((r) => r.admission_number).sort()).toEqual([ada.admissionNumber, bola.admissionNumber].sort());
    expect(rows.every((r) => r.student_class === 'JSS 1A')).toBe(true);
  });

  it('a form teacher of the old session’s arm reaches its students of then, not its students of now', async () => {
    const scope = accessScope(ctx.handle.db);
    const actor = { id: formTeacher.userId, role: 'staff' as const };
    const adaNow = { id: ada.id, user_id: ada.userId, student_class: 'JSS 2A' };
    await expect(scope.assertStudent(actor, adaNow, 'attendance', { sessionId: oldId })).resolves.toBeUndefined();
    const newcomerNow = { id: newcomer.id, user_id: 0, student_class: 'JSS 1A' };
    await expect(scope.assertStudent(actor, newcomerNow, 'attendance', { sessionId: oldId })).rejects.toMatchObject({ statusCode: 403 });
  });

  it('a graduate cannot sign in (alumni message), is on no live list, and stays readable by the admin', async () => {
    const refused = await login(ctx.app, 'student', grad.admissionNumber);
    expect(refused.statusCode).toBe(403);
    expect(JSON.stringify(refused.json())).toContain(PEOPLE_MESSAGES.graduatedCannotSignIn);
    // Tokens issued before graduation stop working.
    expect((await get('/api/me/', grad)).statusCode).toBe(401);

    const list = (query: string) =>
      get(`/api/students/list/?${query}`).then((r) => r.json<{ admission_number: string; status: string }[]>());
    expect((await list('limit=100')).map((s) => s.admission_number)).not.toContain(grad.admissionNumber);
    const alumni = await list('status=graduated&limit=100');
    expect(alumni.map((s) => s.admission_number)).toEqual([grad.admissionNumber]);
    const record = await get(`/api/students/${grad.admissionNumber}/`);
    expect(record.statusCode).toBe(200);
    expect(record.json()).toMatchObject({ status: 'graduated', student_class: 'SSS 3A' });
    expect(record.json<{ graduated_at: string | null }>().graduated_at).toBeTruthy();
    // Not on the live session's debtors; old cards still open for the admin.
    const live = (await get(`/api/bursary/debtors/?${q({ session_id: liveId, term: 'session' })}`)).json<DebtorsPage>();
    expect(live.debtors.map((d) => d.admission_number)).not.toContain(grad.admissionNumber);
    const card = await get(`/api/report-card/?${q({ admission_number: grad.admissionNumber, session_id: oldId, term: '3rd' })}`);
    expect(card.statusCode, card.body).toBe(200);
  });

  it('a graduate’s record is read-only: edit, withdraw, readmit, password reset and score writes refused with the alumni message', async () => {
    const post = (url: string, payload: object = {}) => ctx.app.inject({ method: 'POST', url, headers: admin.auth, payload });
    const update = await ctx.app.inject({
      method: 'PUT',
      url: `/api/students/${grad.admissionNumber}/`,
      headers: admin.auth,
      payload: { first_name: 'Changed', last_name: 'Name' },
    });
    expect(update.statusCode).toBe(409);
    expect(update.json()).toEqual({ detail: PEOPLE_MESSAGES.studentGraduated });
    for (const action of ['withdraw', 'readmit', 'reset-password']) {
      const res = await post(`/api/students/${grad.admissionNumber}/${action}/`);
      expect(res.statusCode, action).toBe(409);
      expect(res.json(), action).toEqual({ detail: PEOPLE_MESSAGES.studentGraduated });
    }
    const score = await post('/api/results/', {
      admission_number: grad.admissionNumber,
      session_id: oldId,
      term: '3rd',
      student_class: 'SSS 3A',
      subject: 'Mathematics',
      score: 80,
    });
    expect(score.statusCode, score.body).toBe(409);
    expect(score.json().detail).toBe(PEOPLE_MESSAGES.studentGraduated);
    const row = await ctx.handle.db
      .selectFrom('students')
      .select(['first_name', 'status'])
      .where('id', '=', grad.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ first_name: 'Gozie', status: 'graduated' });
  });

  it('the transcript: every released card of the student as one PDF, admin only', async () => {
    // Joined from the card store (decision 050): cards not stored yet are drawn once and stored.
    await ctx.app.cardPdfs.idle();
    await ctx.handle.db.deleteFrom('report_card_pdfs').where('student_id', '=', grad.id).execute();
    const res = await get(`/api/students/${grad.admissionNumber}/transcript/pdf/`);
    const stored = await ctx.handle.db.selectFrom('report_card_pdfs').select('term').where('student_id', '=', grad.id).execute();
    expect(stored.map((r) => r.term).sort()).toEqual(['1st', '2nd', '3rd']);
    const drawn = ctx.app.cardPdfs.drawn;
    expect((await get(`/api/students/${grad.admissionNumber}/transcript/pdf/`)).statusCode).toBe(200);
    expect(ctx.app.cardPdfs.drawn).toBe(drawn);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 4).toString('latin1')).toBe('%PDF');
    const pages = pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? [];
    expect(pages.length).toBeGreaterThanOrEqual(3);

    const adas = await get(`/api/students/${ada.admissionNumber}/transcript/pdf/`);
    expect(adas.statusCode).toBe(200);
    expect((adas.rawPayload.toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? []).length).toBeGreaterThanOrEqual(2);

    const none = await get(`/api/students/${newcomer.admissionNumber}/transcript/pdf/`);
    expect(none.statusCode).toBe(404);
    expect(none.json().detail).toBe(RESULT_MESSAGES.noTranscriptCards);
    expect((await get(`/api/students/NOPE-0000/transcript/pdf/`)).statusCode).toBe(404);
    expect((await get(`/api/students/${ada.admissionNumber}/transcript/pdf/`, ada)).statusCode).toBe(403);
    expect((await get(`/api/students/${ada.admissionNumber}/transcript/pdf/`, formTeacher)).statusCode).toBe(403);
  });

  // Last: it undoes the end of the session that the tests above read.
  it('undo through the port: the run’s rows go, the students move back, a graduate signs in again', async () => {
    const { people } = servicesOver(ctx);
    await inTransaction(ctx.handle.db, async (trx) => {
      expect(await people.deleteEnrolmentsOfRun(trx, 1)).toBe(3);
      await people.moveStudents(trx, [
        { student_id: ada.id, student_class: 'JSS 1A', stream_id: null, status: 'active' },
        { student_id: bola.id, student_class: 'JSS 1A', stream_id: null, status: 'active' },
        { student_id: grad.id, student_class: 'SSS 3A', stream_id: null, status: 'active' },
      ]);
    });
    const back = await ctx.handle.db
      .selectFrom('students')
      .select(['status', 'graduated_at'])
      .where('id', '=', grad.id)
      .executeTakeFirstOrThrow();
    expect(back).toEqual({ status: 'active', graduated_at: null });
    expect((await login(ctx.app, 'student', grad.admissionNumber)).statusCode).toBe(200);
    // The old session is live again: today's arms (and today's newcomer) are its roster.
    const roster = await people.rosterInSession(ctx.handle.db, oldId, 'JSS 1A');
    expect(roster.map((r) => r.id).sort()).toEqual([ada.id, bola.id, newcomer.id].sort());
  });
});

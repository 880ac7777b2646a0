import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { Migrator } from 'kysely';
import { REGRADE_CONFIRM_CODE, RESULT_MESSAGES, schoolDayOf } from '@portal/domain';
import {
  withSchool,
  createSession,
  createStudent,
  describeEachDatabase,
  TEST_PASSWORD,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { createDatabase, migrateToLatest } from '../../db/index';
import { StaticMigrationProvider } from '../../db/migrations/index';
import { createResults } from '../../db/factories';
import { renderReportCards } from './pdf';
import { pdfText } from '../../../test/pdf-text';

type Auth = { authorization: string };

/** The student's own class, per-session grading scales, revised released results. */
describeEachDatabase('results: own class, scales per session, revised released results', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn, sessionId: number, previousSessionId: number;
  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'] }, (s) => ({ ctx, admin, staff, sessionId, previousSessionId } = s));

  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, auth?: Auth, payload?: unknown) =>
    ctx.app.inject({ method, url, headers: auth ?? {}, ...(payload === undefined ? {} : { payload: payload as object }) });

  let seq = 0;
  async function newStudent(arm: 'JSS 1A' | 'JSS 3B' | 'SSS 3A' | 'SSS 1A', firstName = 'Tolu') {
    seq++;
    return createStudent(ctx.handle.db, {
      email: `i11-${seq}-${Date.now()}@test.school`,
      password: TEST_PASSWORD,
      firstName,
      lastName: `L${String(seq).padStart(3, '0')}`,
      arm,
    });
  }

  const bulk = (admission: string, arm: string, subjects: object[], extra: object = {}, sid = sessionId, term = '1st') =>
    inject('POST', '/api/results/', staff.auth, {
      admission_number: admission,
      session_id: sid,
      term,
      student_class: arm,
      subjects,
      ...extra,
    });

  describe("results only under the student's class", () => {
    it("refuses a class that is not the student's for the current session, per field, storing nothing", async () => {
      const st = await newStudent('JSS 3B');
      const res = await bulk(st.admissionNumber, 'SSS 3A', [{ name: 'Mathematics', score: 70 }]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ student_class: [RESULT_MESSAGES.classNotStudents('JSS 3B')] });
      const stored = await ctx.handle.db.selectFrom('results').select('id').where('student_id', '=', st.id).execute();
      expect(stored).toEqual([]);
      expect((await bulk(st.admissionNumber, 'JSS 3B', [{ name: 'Mathematics', score: 65 }])).statusCode).toBe(201);
      // The single-subject shape is held to the same rule.
      const single = await inject('POST', '/api/results/', staff.auth, {
        admission_number: st.admissionNumber,
        session_id: sessionId,
        term: '2nd',
        student_class: 'SSS 3A',
        subject: 'English Language',
        score: 60,
      });
      expect(single.statusCode).toBe(400);
      expect(single.json().student_class).toEqual([RESULT_MESSAGES.classNotStudents('JSS 3B')]);
    });

    it('in a past session, holds to the class the session already records for the student', async () => {
      const st = await newStudent('SSS 1A');
      // Last session the student was in JSS 3B (promoted since): the admin entering that session's results
      // (with a reason: a past session is closed to teachers, 30.8) is allowed.
      const asAdmin = (cls: string, term: string) =>
        inject('POST', '/api/results/', admin.auth, {
          admission_number: st.admissionNumber,
          session_id: previousSessionId,
          term,
          student_class: cls,
          subjects: [{ name: 'Mathematics', score: 50 }],
          reason: 'Late entry',
        });
      expect((await asAdmin('JSS 3B', '1st')).statusCode).toBe(201);
      const res = await asAdmin('JSS 1A', '2nd');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ student_class: [RESULT_MESSAGES.classNotStudents('JSS 3B')] });
    });
  });

  describe('grading scales per session', () => {
    it('previews, asks to confirm, regrades only the current session, audits, and leaves past sessions alone', async () => {
      const a = await newStudent('JSS 1A', 'Ngozi');
      const b = await newStudent('JSS 1A', 'Emeka');
      // Past session: graded with the old scale (70 -> A, 50 -> C).
      await createResults(ctx.handle.db, [
        { studentId: a.id, sessionId: previousSessionId, term: '1st', arm: 'JSS 1A', subject: 'Mathematics', score: 72 },
        { studentId: a.id, sessionId: previousSessionId, term: '1st', arm: 'JSS 1A', subject: 'Basic Science', score: 50 },
      ]);
      // Current session: first term released, second term not.
      expect((await bulk(a.admissionNumber, 'JSS 1A', [{ name: 'Mathematics', score: 72 }])).statusCode).toBe(201);
      expect((await bulk(b.admissionNumber, 'JSS 1A', [{ name: 'Mathematics', score: 71 }])).statusCode).toBe(201);
      expect(
        (
          await bulk(
            a.admissionNumber,
            'JSS 1A',
            [
              { name: 'Mathematics', score: 90 },
              { name: 'French', score: 50 },
            ],
            {},
            sessionId,
            '2nd',
          )
        ).statusCode,
      ).toBe(201);
      expect(
        (await inject('POST', '/api/results/publications/', admin.auth, { session_id: sessionId, term: '1st', student_class: 'JSS 1A' }))
          .statusCode,
      ).toBe(201);

      // "A" moves from 70 to 75: 72 and 71 (released) become B; 90 stays A; 50 stays C.
      const bands = [
        { grade: 'A', min: 75, remark: 'Excellent' },
        { grade: 'B', min: 60, remark: 'Very good' },
        { grade: 'C', min: 50, remark: 'Good' },
        { grade: 'D', min: 45, remark: 'Fair' },
        { grade: 'E', min: 40, remark: 'Pass' },
        { grade: 'F', min: 0, remark: 'Fail' },
      ];
      const preview = await inject('POST', '/api/grading-scales/JSS/preview/', admin.auth, { bands });
      expect(preview.statusCode).toBe(200);
      expect(preview.json()).toEqual({
        level: 'JSS',
        session_id: sessionId,
        session_name: '2025/2026',
        changes: 2,
        released_changes: 2,
      });
      expect((await inject('POST', '/api/grading-scales/JSS/preview/', staff.auth, { bands })).statusCode).toBe(403);

      // Without confirmation: refused with the counts, nothing changed.
      const unconfirmed = await inject('PUT', '/api/grading-scales/JSS/', admin.auth, { bands });
      expect(unconfirmed.statusCode).toBe(409);
      expect(unconfirmed.json()).toMatchObject({ code: REGRADE_CONFIRM_CODE, changes: 2, released_changes: 2 });
      const gradesOf = async (studentId: number, sid: number) =>
        (
          await ctx.handle.db
            .selectFrom('results')
            .select(['subject', 'term', 'grade'])
            .where('student_id', '=', studentId)
            .where('session_id', '=', sid)
            .orderBy('term')
            .orderBy('subject')
            .execute()
        ).map((r) => `${r.term} ${r.subject} ${r.grade}`);
      expect(await gradesOf(a.id, sessionId)).toEqual(['1st Mathematics A', '2nd French C', '2nd Mathematics A']);

      const ok = await inject('PUT', '/api/grading-scales/JSS/', admin.auth, { bands, confirm: true });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({
        regraded: 2,
        session_id: sessionId,
        message: RESULT_MESSAGES.scaleSavedForSession('2025/2026', 2),
      });
      expect(await gradesOf(a.id, sessionId)).toEqual(['1st Mathematics B', '2nd French C', '2nd Mathematics A']);
      expect(await gradesOf(b.id, sessionId)).toEqual(['1st Mathematics B']);
      // The past session keeps its grades and its scale.
      expect(await gradesOf(a.id, previousSessionId)).toEqual(['1st Basic Science C', '1st Mathematics A']);
      const pastScale = (await inject('GET', `/api/grading-scales/?session_id=${previousSessionId}`, admin.auth)).json();
      expect(pastScale[0].bands[0]).toMatchObject({ grade: 'A', min: 70 });
      const currentScale = (await inject('GET', '/api/grading-scales/', admin.auth)).json();
      expect(currentScale[0]).toMatchObject({ session_id: sessionId, is_default: false });
      expect(currentScale[0].bands[0]).toMatchObject({ grade: 'A', min: 75 });
      // A new save in the past session still uses that session's scale.
      const pastSave = await inject('POST', '/api/results/', admin.auth, {
        admission_number: a.admissionNumber,
        session_id: previousSessionId,
        term: '1st',
        student_class: 'JSS 1A',
        subjects: [{ name: 'French', score: 72 }],
        reason: 'Late entry',
      });
      expect(pastSave.json().find((r: { subject: string }) => r.subject === 'French').grade).toBe('A');

      // Audited: one row in the audit log, and one regrade per result in Result History.
      const log = await ctx.handle.db
        .selectFrom('audit_log')
        .select(['after'])
        .where('entity', '=', 'grading_scale')
        .where('entity_id', '=', 'JSS')
        .execute();
      expect(log.map((l) => JSON.parse(l.after!) as { regraded: number; session_id: number })).toContainEqual(
        expect.objectContaining({ regraded: 2, session_id: sessionId }),
      );
      const history = (await inject('GET', `/api/results/audit/?admission_number=${a.admissionNumber}`, admin.auth)).json();
      expect(history.find((h: { action: string }) => h.action === 'regrade')).toMatchObject({
        action: 'regrade',
        subject: 'Mathematics',
        old_grade: 'A',
        new_grade: 'B',
        old_score: 72,
        new_score: 72,
        reason: RESULT_MESSAGES.regradeReason,
        session_id: sessionId,
      });

      // Saving the same scale again changes nothing and needs no confirmation.
      expect((await inject('PUT', '/api/grading-scales/JSS/', admin.auth, { bands })).json().regraded).toBe(0);
    });
  });

  describe('released results change only with a reason, and the report card says so', () => {
    it('requires a reason to edit, create or delete a released result, audits it, and marks the card revised', async () => {
      const st = await newStudent('SSS 1A', 'Amaka');
      const savedRes = await bulk(st.admissionNumber, 'SSS 1A', [
        { name: 'Mathematics', score: 60 },
        { name: 'Basic Technology', score: 55 },
      ]);
      expect(savedRes.json(), savedRes.body).toBeInstanceOf(Array);
      const saved = savedRes.json();
      // Before release: no reason needed.
      const math = saved.find((r: { subject: string }) => r.subject === 'Mathematics');
      const pre = await inject('PATCH', `/api/results/${math.id}/`, staff.auth, { score: 61, version: math.version });
      expect(pre.statusCode).toBe(200);
      // The admin: an arm's unreleased cards are for its teachers and the admin (30.9).
      const card0 = (
        await inject('GET', `/api/report-card/?admission_number=${st.admissionNumber}&session_id=${sessionId}&term=1st`, admin.auth)
      ).json();
      expect(card0.revised_at).toBeNull();
      expect(card0.revisions).toEqual([]);

      await inject('POST', '/api/results/publications/', admin.auth, { session_id: sessionId, term: '1st', student_class: 'SSS 1A' });

      const noReason = await inject('PATCH', `/api/results/${math.id}/`, staff.auth, { score: 70, version: pre.json().version });
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json()).toEqual({ reason: [RESULT_MESSAGES.reasonRequired] });
      const bulkNoReason = await bulk(st.admissionNumber, 'SSS 1A', [{ name: 'French', score: 50 }]);
      expect(bulkNoReason.statusCode).toBe(400);
      expect(bulkNoReason.json()).toEqual({ reason: [RESULT_MESSAGES.reasonRequired] });
      const basicTech = saved.find((r: { subject: string }) => r.subject === 'Basic Technology');
      const delNoReason = await inject('DELETE', `/api/results/${basicTech.id}/`, staff.auth);
      expect(delNoReason.statusCode).toBe(400);
      // Nothing changed.
      const still = (
        await inject('GET', `/api/results/?admission_number=${st.admissionNumber}&session_id=${sessionId}&term=1st`, staff.auth)
      ).json();
      expect(still.map((r: { subject: string; score: number }) => `${r.subject} ${r.score}`)).toEqual([
        'Mathematics 61',
        'Basic Technology 55',
      ]);

      const withReason = await inject('PATCH', `/api/results/${math.id}/`, staff.auth, {
        score: 70,
        version: pre.json().version,
        reason: 'Script re-marked after appeal',
      });
      expect(withReason.statusCode).toBe(200);
      const history = (await inject('GET', `/api/results/audit/?admission_number=${st.admissionNumber}`, admin.auth)).json();
      expect(history[0]).toMatchObject({ action: 'update', old_score: 61, new_score: 70, reason: 'Script re-marked after appeal' });
      expect(history[1].reason).toBeNull();

      const card = (
        await inject('GET', `/api/report-card/?admission_number=${st.admissionNumber}&session_id=${sessionId}&term=1st`, staff.auth)
      ).json();
      expect(card.revised_at).toBe(history[0].created_at);
      expect(card.revisions).toEqual([{ subject: 'Mathematics', at: history[0].created_at, reason: 'Script re-marked after appeal' }]);
      const pdf = await inject(
        'GET',
        `/api/report-card/pdf/?admission_number=${st.admissionNumber}&session_id=${sessionId}&term=1st`,
        staff.auth,
      );
      expect(pdf.statusCode).toBe(200);
      // Averages print with two decimals, as on every screen.
      expect(pdfText(await renderReportCards([{ ...card, average: 65.1 }], { compress: false }))).toContain('65.10');
      expect(pdfText(await renderReportCards([card], { compress: false }))).toContain(
        RESULT_MESSAGES.revisedOn(schoolDayOf(card.revised_at, card.school.time_zone)),
      );

      // Bulk save and delete with a reason go through.
      expect(
        (await bulk(st.admissionNumber, 'SSS 1A', [{ name: 'French', score: 50 }], { reason: 'Missed script found' })).statusCode,
      ).toBe(201);
      expect(
        (await inject('DELETE', `/api/results/${basicTech.id}/?reason=${encodeURIComponent('Entered in error')}`, staff.auth)).statusCode,
      ).toBe(204);
      const classCards = await inject('GET', `/api/report-cards/pdf/?session_id=${sessionId}&term=1st&student_class=SSS%201A`, staff.auth);
      expect(classCards.statusCode).toBe(200);
    });
  });

  describe('publishing an empty class', () => {
    it('refuses to publish a class with no results for the term', async () => {
      const res = await inject('POST', '/api/results/publications/', admin.auth, {
        session_id: sessionId,
        term: '3rd',
        student_class: 'SSS 3A',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ non_field_errors: [RESULT_MESSAGES.noResultsToPublish] });
    });
  });
});

/** An empty database: in-memory SQLite, or a PostgreSQL schema of its own (dropped afterwards). */
async function emptyDatabase(dialect: 'sqlite' | 'postgres') {
  if (dialect === 'sqlite') return { handle: createDatabase('sqlite::memory:'), drop: async () => {} };
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `m_${randomBytes(6).toString('hex')}`;
  const run = async (q: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(q);
    await c.end();
  };
  await run(`create schema ${schema}`);
  return { handle: createDatabase(url, { pgSchema: schema, pgPoolSize: 2 }), drop: () => run(`drop schema ${schema} cascade`) };
}

describeEachDatabase('migration 0011 on a database of the previous release', (dialect) => {
  it('gives every existing session the scale it was graded with, keeping every result and grade', async () => {
    const { handle, drop } = await emptyDatabase(dialect);
    try {
      const migrator = new Migrator({
        db: handle.db,
        provider: new StaticMigrationProvider(handle.dialect),
        ...(handle.pgSchema ? { migrationTableSchema: handle.pgSchema } : {}),
      });
      const up = await migrator.migrateTo('0005_indexes');
      expect(up.error).toBeUndefined();
      const s1 = await createSession(handle.db, '2024/2025');
      const s2 = await createSession(handle.db, '2025/2026', true);
      const custom = JSON.stringify([
        { grade: 'A', min: 75, max: 100, remark: 'Excellent' },
        { grade: 'F', min: 0, max: 74.99, remark: 'Fail' },
      ]);
      await handle.db.updateTable('grading_scales').set({ bands: custom, updated_by: 1 }).where('level', '=', 'JSS').execute();
      const st = await createStudent(handle.db, {
        email: 'm@test.school',
        password: TEST_PASSWORD,
        firstName: 'Old',
        lastName: 'Data',
        arm: 'JSS 1A',
      });
      await createResults(handle.db, [
        { studentId: st.id, sessionId: s1.id, term: '1st', arm: 'JSS 1A', subject: 'Mathematics', score: 72 },
      ]);
      const before = await handle.db.selectFrom('results').selectAll().execute();
      const auditBefore = await handle.db.selectFrom('result_audit').select('id').execute();

      await migrateToLatest(handle);

      // Later migrations add columns (0015: components, null for every result entered before).
      expect(await handle.db.selectFrom('results').selectAll().execute()).toEqual(before.map((r) => ({ ...r, components: null })));
      expect((await handle.db.selectFrom('result_audit').select('id').execute()).length).toBe(auditBefore.length);
      const scales = await handle.db
        .selectFrom('session_grading_scales')
        .select(['session_id', 'level', 'bands'])
        .orderBy('session_id')
        .orderBy('level')
        .execute();
      expect(scales.map((r) => `${r.session_id} ${r.level}`)).toEqual([`${s1.id} JSS`, `${s1.id} SSS`, `${s2.id} JSS`, `${s2.id} SSS`]);
      expect(scales.filter((r) => r.level === 'JSS').every((r) => r.bands === custom)).toBe(true);
    } finally {
      await handle.db.destroy();
      await drop();
    }
  });
});

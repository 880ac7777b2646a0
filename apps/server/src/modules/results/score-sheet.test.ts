import fc from 'fast-check';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  ASSESSMENT_MESSAGES,
  ENTRY_CLOSED_CODE,
  NOT_YOUR_SUBJECT_CODE,
  RESULT_MESSAGES,
  SCORE_CONFLICT_CODE,
  subjectStatistics,
  TEACHING_MESSAGES,
  type ScoreConflict,
  type ScoreImportPreview,
  type ScoreSheet,
  type ScoreSheetSaveResult,
} from '@portal/domain';
import { createResults } from '../../db/factories';
import { nowIso, type DB } from '../../db/index';
import type { ScoreSheetService } from './score-sheet.service';
import { countStatements } from '../../../test/statement-count';
import {
  addArm,
  addStudent,
  createSession,
  describeEachDatabase,
  rowsWhere,
  signInStudent,
  withSchool,
  servicesOver,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { assign, chooseSubject, enforceAssignments, setWindow } from '../../../test/teaching-fixtures';
import { putSssScheme, SSS_SCHEME } from '../../../test/results-fixtures';

const SUBJECT = 'Mathematics';
describeEachDatabase('the class score grid', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  let staff: SignedIn & { id: number };
  let sessionId: number;
  let seq = 0;

  // The staff member is Grace Okafor, the name the grid shows as who changed a result.
  withSchool(dialect, { sessions: ['2025/2026'] }, async (school) => {
    ({ ctx, admin, staff, sessionId } = school);
    await putSssScheme(ctx.handle.db, sessionId);
  });

  /** An arm of its own per test: the current session's class-wide reads see only this test's students. */
  async function arm(): Promise<string> {
    return addArm(ctx, 'SSS 1', `X${++seq}`);
  }
  const pupil = (cls: string, firstName: string, lastName: string) => addStudent(ctx, cls, firstName, lastName);
  const q = (cls: string, over: Record<string, string | number> = {}) =>
    new URLSearchParams(
      Object.entries({ session_id: sessionId, term: '1st', student_class: cls, subject: SUBJECT, ...over }).map(
        ([k, v]): [string, string] => [k, String(v)],
      ),
    ).toString();
  const load = (cls: string, who: SignedIn = admin, over: Record<string, string | number> = {}) =>
    ctx.app.inject({ method: 'GET', url: `/api/score-sheet/?${q(cls, over)}`, headers: who.auth });
  const put = (who: SignedIn, cls: string, rows: unknown[], over: Record<string, unknown> = {}) =>
    ctx.app.inject({
      method: 'PUT',
      url: '/api/score-sheet/',
      headers: who.auth,
      payload: { session_id: sessionId, term: '1st', student_class: cls, subject: SUBJECT, rows, ...over },
    });
  const stored = (studentId: number) =>
    ctx.handle.db
      .selectFrom('results')
      .select(['id', 'score', 'components', 'grade', 'version', 'student_class'])
      .where('student_id', '=', studentId)
      .where('subject', '=', SUBJECT)
      .where('session_id', '=', sessionId)
      .execute();
  const audits = (studentId: number) =>
    rowsWhere(
      ctx,
      'result_audit',
      ['action', 'old_score', 'new_score', 'old_components', 'new_components', 'reason', 'actor_user_id'],
      ['student_id', studentId],
      'id',
    );

  describe('loading a sheet', () => {
    it('lists the arm by name with who takes the subject, component scores, positions with ties (1, 1, 3) and statistics', async () => {
      const cls = await arm();
      const zed = await pupil(cls, 'Ada', 'Zubair');
      const obiB = await pupil(cls, 'Bola', 'Obi');
      const obiA = await pupil(cls, 'Ade', 'Obi');
      const eze = await pupil(cls, 'Chidi', 'Eze');
      const dropped = await pupil(cls, 'Dayo', 'Bello');
      await chooseSubject(ctx.handle.db, dropped.id, SUBJECT, 'drop');
      const saved = await put(staff, cls, [
        { admission_number: zed.admissionNumber, components: { CA1: 15, CA2: 15, Exam: 40 }, version: 0 },
        { admission_number: obiB.admissionNumber, components: { CA1: 20, CA2: 'ABS', Exam: 50 }, remarks: 'Missed CA2', version: 0 },
        { admission_number: obiA.admissionNumber, components: { CA1: 10.5 }, version: 0 },
      ]);
      expect(saved.statusCode, saved.body).toBe(200);
      // Entered as one total before the scheme: shown as such, not as components.
      await createResults(ctx.handle.db, [{ studentId: eze.id, sessionId, term: '1st', arm: cls, subject: SUBJECT, score: 70 }]);

      const res = await load(cls, staff);
      expect(res.statusCode, res.body).toBe(200);
      const sheet = res.json<ScoreSheet>();
      expect(sheet).toMatchObject({
        session: { id: sessionId, name: '2025/2026' },
        term: '1st',
        student_class: cls,
        subject: SUBJECT,
        components: SSS_SCHEME,
        precision: 'one_decimal',
        may_write: true,
        refusal: null,
        released: false,
        stats: { count: 4, highest: 70, lowest: 10.5, average: 55.13 },
      });
      // Three totals of 70 share first place; the next is fourth.
      expect(sheet.rows.map((r) => [r.name, r.takes, r.result?.score ?? null, r.position])).toEqual([
        ['Dayo Bello', false, null, null],
        ['Chidi Eze', true, 70, 1],
        ['Ade Obi', true, 10.5, 4],
        ['Bola Obi', true, 70, 1],
        ['Ada Zubair', true, 70, 1],
      ]);
      const bola = sheet.rows[3]!.result!;
      expect(bola).toMatchObject({
        components: { CA1: 20, CA2: 'ABS', Exam: 50 },
        total_only: false,
        remarks: 'Missed CA2',
        version: 1,
        updated_by: 'Grace Okafor',
      });
      expect(sheet.rows[1]!.result).toMatchObject({ components: {}, total_only: true, score: 70 });
    });

    it('ranks ties 1, 1, 3 and keeps a withdrawn student with a score', async () => {
      const cls = await arm();
      const [a, b, c] = [await pupil(cls, 'A', 'Aa'), await pupil(cls, 'B', 'Bb'), await pupil(cls, 'C', 'Cc')];
      const res = await put(admin, cls, [
        { admission_number: a.admissionNumber, components: { CA1: 10, CA2: 10, Exam: 40 }, version: 0 },
        { admission_number: b.admissionNumber, components: { CA1: 20, Exam: 40 }, version: 0 },
        { admission_number: c.admissionNumber, components: { CA1: 20, CA2: 10, Exam: 20 }, version: 0 },
      ]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<ScoreSheetSaveResult>().rows.map((r) => r.position)).toEqual([1, 1, 3]);
      await ctx.handle.db.updateTable('students').set({ status: 'withdrawn' }).where('id', '=', c.id).execute();
      const sheet = (await load(cls)).json<ScoreSheet>();
      expect(sheet.rows.map((r) => [r.admission_number, r.position])).toEqual([
        [a.admissionNumber, 1],
        [b.admissionNumber, 1],
        [c.admissionNumber, 3],
      ]);
      expect(sheet.stats).toEqual({ count: 3, highest: 60, lowest: 50, average: 56.67 });
    });

    it('refuses an unknown class, subject or session with a 400, and a student account with a 403', async () => {
      const cls = await arm();
      expect((await load('SSS 1 Nowhere')).json()).toEqual({ student_class: [TEACHING_MESSAGES.classUnknown('SSS 1 Nowhere')] });
      expect((await load(cls, admin, { subject: 'Astrology' })).json()).toEqual({ subject: [RESULT_MESSAGES.unknownSubject] });
      const noSession = await load(cls, admin, { session_id: 99999 });
      expect(noSession.statusCode).toBe(400);
      expect(noSession.json()).toEqual({ session_id: [RESULT_MESSAGES.sessionNotFound] });
      // Beyond PostgreSQL's integer: refused by the schema, never a query error (500).
      expect((await load(cls, admin, { session_id: 99_999_999_999 })).statusCode).toBe(400);
      const huge = await put(admin, cls, [{ admission_number: 'STU-0001', components: { CA1: 1 }, version: 99_999_999_999 }], {
        session_id: 99_999_999_999,
      });
      expect(huge.statusCode).toBe(400);
      const student = await signInStudent(ctx, { arm: cls });
      expect((await load(cls, student)).statusCode).toBe(403);
      const write = await put(student, cls, [{ admission_number: student.admissionNumber, components: { CA1: 1 }, version: 0 }]);
      expect(write.statusCode).toBe(403);
      expect(await stored(student.id)).toEqual([]);
    });
  });

  describe('saving', () => {
    it('saves one row: the total from the components, graded, versioned, audited', async () => {
      const cls = await arm();
      const s = await pupil(cls, 'Tolu', 'Ade');
      const res = await put(staff, cls, [
        { admission_number: s.admissionNumber, components: { Exam: 45, CA1: 12.5, CA2: 'ABS' }, version: 0 },
      ]);
      expect(res.statusCode, res.body).toBe(200);
      const out = res.json<ScoreSheetSaveResult>();
      expect(out.stats).toEqual({ count: 1, highest: 57.5, lowest: 57.5, average: 57.5 });
      expect(out.rows).toEqual([
        {
          admission_number: s.admissionNumber,
          name: 'Tolu Ade',
          takes: true,
          position: 1,
          result: expect.objectContaining({
            components: { CA1: 12.5, CA2: 'ABS', Exam: 45 },
            score: 57.5,
            version: 1,
            updated_by: 'Grace Okafor',
          }),
        },
      ]);
      const [row] = await stored(s.id);
      expect(row).toMatchObject({ score: 57.5, version: 1, components: '{"CA1":12.5,"CA2":"ABS","Exam":45}' });
      expect(await audits(s.id)).toEqual([
        expect.objectContaining({
          action: 'create',
          new_score: 57.5,
          new_components: row!.components,
          actor_user_id: staff.userId,
          reason: null,
        }),
      ]);
      // The same row again: nothing rewritten, no audit, the version stays.
      const again = await put(staff, cls, [
        { admission_number: s.admissionNumber, components: { CA1: 12.5, CA2: 'ABS', Exam: 45 }, version: 1 },
      ]);
      expect(again.statusCode).toBe(200);
      expect((await stored(s.id))[0]!.version).toBe(1);
      expect(await audits(s.id)).toHaveLength(1);
    });

    it('saves 40 rows in one request', async () => {
      const cls = await arm();
      const kids = [];
      for (let i = 0; i < 40; i++) kids.push(await pupil(cls, `K${i}`, `Row${String(i).padStart(2, '0')}`));
      const res = await put(
        admin,
        cls,
        kids.map((k, i) => ({
          admission_number: k.admissionNumber,
          components: { CA1: i % 21, CA2: 10, Exam: 30 + (i % 31) },
          version: 0,
        })),
      );
      expect(res.statusCode, res.body).toBe(200);
      const out = res.json<ScoreSheetSaveResult>();
      expect(out.rows).toHaveLength(40);
      expect(out.stats?.count).toBe(40);
      const rows = await ctx.handle.db.selectFrom('results').select(['score']).where('student_class', '=', cls).execute();
      expect(rows).toHaveLength(40);
      expect(rows.map((r) => Number(r.score)).sort((a, b) => a - b)).toEqual(
        kids.map((_, i) => (i % 21) + 10 + 30 + (i % 31)).sort((a, b) => a - b),
      );
      // The grid's autosave of the next change: update rows, version 1 → 2.
      const next = await put(
        admin,
        cls,
        kids.slice(0, 3).map((k) => ({ admission_number: k.admissionNumber, components: { CA1: 1, CA2: 1, Exam: 1 }, version: 1 })),
      );
      expect(next.json<ScoreSheetSaveResult>().rows.map((r) => [r.result?.score, r.result?.version, r.position])).toEqual([
        [3, 2, 38],
        [3, 2, 38],
        [3, 2, 38],
      ]);
    });

    it('a stale version is a 409 with the row as stored now; nothing of the request is saved', async () => {
      const cls = await arm();
      const [a, b] = [await pupil(cls, 'A', 'One'), await pupil(cls, 'B', 'Two')];
      await put(admin, cls, [{ admission_number: a.admissionNumber, components: { CA1: 5, CA2: 5, Exam: 5 }, version: 0 }]);
      await put(admin, cls, [{ admission_number: a.admissionNumber, components: { CA1: 6, CA2: 5, Exam: 5 }, version: 1 }]);
      const res = await put(staff, cls, [
        { admission_number: b.admissionNumber, components: { CA1: 1 }, version: 0 },
        { admission_number: a.admissionNumber, components: { CA1: 9, CA2: 9, Exam: 9 }, version: 1 },
      ]);
      expect(res.statusCode).toBe(409);
      expect(res.json<ScoreConflict>()).toEqual({
        detail: ASSESSMENT_MESSAGES.rowConflict('A One'),
        code: SCORE_CONFLICT_CODE,
        admission_number: a.admissionNumber,
        current: expect.objectContaining({ components: { CA1: 6, CA2: 5, Exam: 5 }, score: 16, version: 2 }),
      });
      expect(await stored(b.id)).toEqual([]);
      // A version for a row that was deleted meanwhile: current is null.
      await ctx.handle.db.deleteFrom('results').where('student_id', '=', a.id).execute();
      const gone = await put(staff, cls, [{ admission_number: a.admissionNumber, components: { CA1: 1 }, version: 2 }]);
      expect(gone.statusCode).toBe(409);
      expect(gone.json<ScoreConflict>().current).toBeNull();
    });

    it('a replay (the same save sent again from its old version) answers 200 with the stored row; 40 rows written once', async () => {
      const cls = await arm();
      const kids = [];
      for (let i = 0; i < 40; i++) kids.push(await pupil(cls, `Rp${i}`, `Replay${String(i).padStart(2, '0')}`));
      const marks = (i: number) => ({ CA1: i % 21, CA2: 10, Exam: 30 + (i % 31) });
      // An outbox whose answers were lost sends each row again, one request per row, from version 0.
      for (const round of [1, 2]) {
        for (const [i, k] of kids.entries()) {
          const res = await put(staff, cls, [{ admission_number: k.admissionNumber, components: marks(i), version: 0 }]);
          expect(res.statusCode, `round ${round}, row ${i}: ${res.body}`).toBe(200);
          expect(res.json<ScoreSheetSaveResult>().rows[0]!.result).toMatchObject({ version: 1, components: marks(i) });
        }
      }
      const rows = await ctx.handle.db.selectFrom('results').select(['version', 'student_id']).where('student_class', '=', cls).execute();
      expect(rows).toHaveLength(40);
      expect(rows.every((r) => Number(r.version) === 1)).toBe(true);
      for (const k of kids) expect((await audits(k.id)).map((a) => a.action)).toEqual(['create']);
      // An update replayed: version 1 → 2 once.
      const k0 = kids[0]!;
      for (const _ of [1, 2]) {
        const res = await put(staff, cls, [{ admission_number: k0.admissionNumber, components: { CA1: 1, CA2: 2, Exam: 3 }, version: 1 }]);
        expect(res.statusCode, res.body).toBe(200);
      }
      expect((await stored(k0.id))[0]!.version).toBe(2);
      expect((await audits(k0.id)).map((a) => a.action)).toEqual(['create', 'update']);
      // A delete replayed: nothing left, still 200.
      for (const _ of [1, 2])
        expect((await put(staff, cls, [{ admission_number: k0.admissionNumber, components: {}, version: 2 }])).statusCode).toBe(200);
      expect(await stored(k0.id)).toEqual([]);
      // Other marks from the old version: a 409, never an overwrite.
      const k1 = kids[1]!;
      const other = await put(staff, cls, [{ admission_number: k1.admissionNumber, components: { ...marks(1), Exam: 1 }, version: 0 }]);
      expect(other.statusCode).toBe(409);
      expect((await stored(k1.id))[0]).toMatchObject({ version: 1 });
    });

    it('two teachers save the same row from the same version at once: one 200, one 409, no lost update (both orders)', async () => {
      const cls = await arm();
      const s = await pupil(cls, 'Race', 'Row');
      for (const [round, version] of [
        [0, 0],
        [1, 1],
        [2, 2],
      ] as const) {
        const mine = { CA1: 10 + round, CA2: 10, Exam: 10 };
        const theirs = { CA1: 1 + round, CA2: 1, Exam: 1 };
        const [first, second] = round % 2 ? [theirs, mine] : [mine, theirs];
        const [r1, r2] = await Promise.all([
          put(staff, cls, [{ admission_number: s.admissionNumber, components: first, version }]),
          put(admin, cls, [{ admission_number: s.admissionNumber, components: second, version }]),
        ]);
        expect([r1.statusCode, r2.statusCode].sort()).toEqual([200, 409]);
        const winner = r1.statusCode === 200 ? first : second;
        const loser = r1.statusCode === 409 ? r1 : r2;
        const [row] = await stored(s.id);
        expect(row!.version).toBe(version + 1);
        expect(JSON.parse(row!.components!)).toEqual(winner);
        expect(loser.json<ScoreConflict>().current).toMatchObject({ components: winner, version: version + 1 });
      }
      expect((await audits(s.id)).map((a) => a.action)).toEqual(['create', 'update', 'update']);
    });

    it('two whole-sheet saves of the same new rows in opposite orders at once: one 200, one 409, never a deadlock', async () => {
      const cls = await arm();
      const [a, b, c] = [await pupil(cls, 'A', 'Dl'), await pupil(cls, 'B', 'Dl'), await pupil(cls, 'C', 'Dl')];
      const rows = (d: number) =>
        [a, b, c].map((s, i) => ({ admission_number: s.admissionNumber, components: { CA1: i + d }, version: 0 }));
      // Different marks: the same ones would be a replay of the winner's save (200 both, decision 044).
      const [r1, r2] = await Promise.all([put(staff, cls, rows(1)), put(admin, cls, rows(5).reverse())]);
      expect([r1.statusCode, r2.statusCode].sort(), `${r1.body} ${r2.body}`).toEqual([200, 409]);
      expect((await stored(b.id))[0]!.version).toBe(1);
    });

    it('an empty row deletes the stored result (audited); with nothing stored it does nothing', async () => {
      const cls = await arm();
      const [a, b] = [await pupil(cls, 'Clear', 'Me'), await pupil(cls, 'Never', 'Entered')];
      await put(admin, cls, [{ admission_number: a.admissionNumber, components: { CA1: 3, CA2: 4, Exam: 5 }, version: 0 }]);
      const res = await put(staff, cls, [
        { admission_number: a.admissionNumber, components: {}, version: 1 },
        { admission_number: b.admissionNumber, components: {}, version: 0 },
      ]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<ScoreSheetSaveResult>()).toMatchObject({ rows: [{ result: null }, { result: null }], stats: null });
      expect(await stored(a.id)).toEqual([]);
      expect(await audits(a.id)).toEqual([
        expect.objectContaining({ action: 'create' }),
        expect.objectContaining({
          action: 'delete',
          old_score: 12,
          old_components: '{"CA1":3,"CA2":4,"Exam":5}',
          new_score: null,
          actor_user_id: staff.userId,
        }),
      ]);
      expect(await audits(b.id)).toEqual([]);
    });

    it('invalid cells: 400 keyed rows.N.components.LABEL and nothing saved', async () => {
      const cls = await arm();
      const [a, b] = [await pupil(cls, 'Good', 'Row'), await pupil(cls, 'Bad', 'Row')];
      const res = await put(staff, cls, [
        { admission_number: a.admissionNumber, components: { CA1: 10, CA2: 10, Exam: 10 }, version: 0 },
        { admission_number: b.admissionNumber, components: { CA1: 21, CA2: 1.25, Exam: 10, Project: 5 }, version: 0 },
      ]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        'rows.1.components.CA1': [ASSESSMENT_MESSAGES.componentRange('CA1', 20)],
        'rows.1.components.CA2': [ASSESSMENT_MESSAGES.componentOneDecimal('CA2')],
        'rows.1.components.Project': [ASSESSMENT_MESSAGES.componentUnknown('Project', 'CA1, CA2, Exam')],
      });
      expect(await stored(a.id)).toEqual([]);
      expect(await stored(b.id)).toEqual([]);
    });

    it('refuses another class’s student, an unknown one, and a new score in a subject the student does not take', async () => {
      const [cls, other] = [await arm(), await arm()];
      const mine = await pupil(cls, 'Mine', 'Here');
      const theirs = await pupil(other, 'Theirs', 'There');
      const res = await put(admin, cls, [
        { admission_number: mine.admissionNumber, components: { CA1: 1 }, version: 0 },
        { admission_number: theirs.admissionNumber, components: { CA1: 1 }, version: 0 },
      ]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ 'rows.1.admission_number': [RESULT_MESSAGES.classNotStudents(other)] });
      const unknown = await put(admin, cls, [{ admission_number: 'STU-9999', components: { CA1: 1 }, version: 0 }]);
      expect(unknown.json()).toEqual({ 'rows.0.admission_number': [RESULT_MESSAGES.studentNotFound('STU-9999')] });
      await chooseSubject(ctx.handle.db, mine.id, SUBJECT, 'drop');
      const notTaken = await put(admin, cls, [{ admission_number: mine.admissionNumber, components: { CA1: 1 }, version: 0 }]);
      expect(notTaken.statusCode).toBe(400);
      expect(notTaken.json()).toEqual({ 'rows.0.admission_number': [TEACHING_MESSAGES.subjectNotOffered(SUBJECT, 'Mine Here')] });
      expect(await stored(mine.id)).toEqual([]);
      expect(await stored(theirs.id)).toEqual([]);
    });

    it('a released term needs a reason, which the audit keeps', async () => {
      const cls = await arm();
      const s = await pupil(cls, 'Released', 'Term');
      await put(admin, cls, [{ admission_number: s.admissionNumber, components: { CA1: 1, CA2: 1, Exam: 1 }, version: 0 }]);
      await ctx.handle.db
        .insertInto('result_publications')
        .values({ session_id: sessionId, term: '1st', student_class: cls, published_by: admin.userId, published_at: nowIso() })
        .execute();
      expect((await load(cls)).json<ScoreSheet>().released).toBe(true);
      const row = { admission_number: s.admissionNumber, components: { CA1: 2, CA2: 1, Exam: 1 }, version: 1 };
      const refused = await put(staff, cls, [row]);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ reason: [RESULT_MESSAGES.reasonRequired] });
      expect((await stored(s.id))[0]!.version).toBe(1);
      const ok = await put(staff, cls, [row], { reason: 'Marking error' });
      expect(ok.statusCode, ok.body).toBe(200);
      expect((await audits(s.id)).at(-1)).toMatchObject({ action: 'update', reason: 'Marking error' });
    });
  });

  describe('a fixed number of statements, whatever the number of students', () => {
    /** The service over a connection of its own that counts the statements it runs. */
    const counting = <T>(run: (svc: ScoreSheetService, db: DB) => Promise<T>): Promise<number> =>
      countStatements(ctx, dialect, (db) => run(servicesOver(ctx, db).scoreSheets, db));

    it('loading and saving new rows: the same count for 2 and for 12 students', async () => {
      const counts: number[][] = [];
      // (The first save of a session copies its grading scale: a one-off, so a warm-up save of 1 first.)
      for (const size of [1, 2, 12]) {
        const cls = await arm();
        const kids = [];
        for (let i = 0; i < size; i++) kids.push(await pupil(cls, `N${i}`, `Count${i}`));
        const query = { session_id: sessionId, term: '1st' as const, student_class: cls, subject: SUBJECT };
        const rows = kids.map((k) => ({ admission_number: k.admissionNumber, components: { CA1: 5, Exam: 30 }, version: 0 }));
        const actor = { id: staff.userId, role: 'staff' as const };
        counts.push([await counting((svc) => svc.save(actor, { ...query, rows })), await counting((svc) => svc.load(actor, query))]);
      }
      expect(counts[1]).toEqual(counts[2]);
      // Load: session, class, subject, scheme, students, results, access, publication, the subject plan (5).
      expect(counts[1]![1]).toBeLessThanOrEqual(14);
    });

    it('the one score writer: writing 1 score or 40, by the grid or by the CSV import, runs as many statements', async () => {
      const actor = { id: staff.userId, role: 'staff' as const };
      const counts: Record<string, number>[] = [];
      // (The first save of a session copies its grading scale: a one-off, so a warm-up of 1 first.)
      for (const size of [1, 1, 40]) {
        const grid = await arm();
        const file = await arm();
        const kids = { grid: [] as { admissionNumber: string }[], file: [] as { admissionNumber: string }[] };
        for (let i = 0; i < size; i++) {
          kids.grid.push(await pupil(grid, `G${i}`, `Writer${i}`));
          kids.file.push(await pupil(file, `F${i}`, `Writer${i}`));
        }
        const query = (cls: string) => ({ session_id: sessionId, term: '1st' as const, student_class: cls, subject: SUBJECT });
        const rows = (version: number, exam: number) =>
          kids.grid.map((k) => ({ admission_number: k.admissionNumber, components: { CA1: 5, Exam: exam }, version }));
        const csv = (exam: number) =>
          ['admission_number,CA1,CA2,Exam', ...kids.file.map((k) => `${k.admissionNumber},5,,${exam}`)].join('\n');
        const imported = (exam: number) =>
          counting(async (svc) => {
            const out = await svc.importCsv(actor, { ...query(file), csv: csv(exam), dry_run: false });
            expect(out.preview.applied).toBe(true);
          });
        counts.push({
          gridNew: await counting((svc) => svc.save(actor, { ...query(grid), rows: rows(0, 30) })),
          gridChanged: await counting((svc) => svc.save(actor, { ...query(grid), rows: rows(1, 31) })),
          gridCleared: await counting((svc) =>
            svc.save(actor, {
              ...query(grid),
              rows: kids.grid.map((k) => ({ admission_number: k.admissionNumber, components: {}, version: 2 })),
            }),
          ),
          csvNew: await imported(30),
          csvChanged: await imported(31),
        });
        expect((await load(grid)).json<ScoreSheet>().rows.every((r) => r.result === null)).toBe(true);
        expect((await load(file)).json<ScoreSheet>().rows.map((r) => r.result?.score)).toEqual(kids.file.map(() => 36));
      }
      expect(counts[2]).toEqual(counts[1]);
    });

    it("the spec's bulk POST /api/results/ writes 1 subject or 6 in as many statements", async () => {
      /** The results service as the composition root builds it, over the counting connection. */
      const resultsOver = (db: DB) => servicesOver(ctx, db).results;
      const actor = { id: admin.userId, role: 'admin' as const };
      const counts: Record<string, number>[] = [];
      for (const size of [1, 1, 6]) {
        const cls = await arm();
        const kid = await pupil(cls, 'Bulk', `Post${size}`);
        const takes = (await servicesOver(ctx).teaching.subjectsOf([{ id: kid.id, student_class: cls }])).get(kid.id) ?? [];
        expect(takes.length).toBeGreaterThanOrEqual(6);
        const body = (exam: number, version: number) => ({
          admission_number: kid.admissionNumber,
          session_id: sessionId,
          term: '1st' as const,
          student_class: cls,
          remarks: '',
          subjects: takes.slice(0, size).map((name) => ({ name, components: { CA1: 5, Exam: exam }, remarks: '', version })),
        });
        counts.push({
          created: await counting((_svc, db) => resultsOver(db).save(body(30, 0), actor)),
          changed: await counting((_svc, db) => resultsOver(db).save(body(31, 1), actor)),
        });
      }
      expect(counts[2]).toEqual(counts[1]);
    });
  });

  describe('who may write', () => {
    it('enforced assignments: a teacher not assigned gets 403 not_assigned; a closed window 403 score_entry_closed; the sheet says so', async () => {
      // Current while this test runs: a past session is closed to teachers whatever the assignments (30.8).
      const other = await createSession(ctx.handle.db, '2030/2031', true);
      onTestFinished(async () => {
        await ctx.handle.db.updateTable('academic_sessions').set({ is_current: 0 }).where('id', '=', other.id).execute();
        await ctx.handle.db.updateTable('academic_sessions').set({ is_current: 1 }).where('id', '=', sessionId).execute();
      });
      await putSssScheme(ctx.handle.db, other.id);
      const cls = await arm();
      const s = await pupil(cls, 'Perm', 'Check');
      await createResults(ctx.handle.db, [
        { studentId: s.id, sessionId: other.id, term: '1st', arm: cls, subject: 'English Language', score: 50 },
      ]);
      await enforceAssignments(ctx.handle.db, other.id, true);
      const body = { session_id: other.id };
      const row = [{ admission_number: s.admissionNumber, components: { CA1: 5 }, version: 0 }];
      const refused = await put(staff, cls, row, body);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail: TEACHING_MESSAGES.notYourSubject(SUBJECT, cls), code: NOT_YOUR_SUBJECT_CODE });
      expect((await load(cls, staff, { session_id: other.id })).json<ScoreSheet>()).toMatchObject({
        may_write: false,
        refusal: TEACHING_MESSAGES.notYourSubject(SUBJECT, cls),
      });
      // The sheet of a past session: the class's students are those with results recorded in it.
      expect((await load(cls, staff, { session_id: other.id })).json<ScoreSheet>().rows.map((r) => r.admission_number)).toEqual([
        s.admissionNumber,
      ]);
      await assign(ctx.handle.db, other.id, cls, SUBJECT, staff.id);
      const allowed = await put(staff, cls, row, body);
      expect(allowed.statusCode, allowed.body).toBe(200);
      await setWindow(ctx.handle.db, other.id, '1st', 'SSS 1', false);
      const closed = await put(staff, cls, [{ ...row[0], version: 1, components: { CA1: 6 } }], body);
      expect(closed.statusCode).toBe(403);
      expect(closed.json().code).toBe(ENTRY_CLOSED_CODE);
      // The admin is never restricted.
      expect((await put(admin, cls, [{ ...row[0], version: 1, components: { CA1: 6 } }], body)).statusCode).toBe(200);
    });
  });

  describe('CSV template and import', () => {
    const csvOf = (cls: string, who: SignedIn = staff) =>
      ctx.app.inject({ method: 'GET', url: `/api/score-sheet/csv/?${q(cls)}`, headers: who.auth });
    const importCsv = (cls: string, csv: string, dryRun: boolean, over: Record<string, unknown> = {}) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/score-sheet/import/',
        headers: staff.auth,
        payload: { session_id: sessionId, term: '1st', student_class: cls, subject: SUBJECT, csv, dry_run: dryRun, ...over },
      });

    it('the template: header, one prefilled line per student taking the subject, as an attachment', async () => {
      const cls = await arm();
      const a = await pupil(cls, 'Ada', 'Obi');
      const b = await pupil(cls, '=HYPERLINK("evil")', 'Eze');
      const c = await pupil(cls, 'Not', 'Taking');
      await chooseSubject(ctx.handle.db, c.id, SUBJECT, 'drop');
      await put(admin, cls, [
        { admission_number: a.admissionNumber, components: { CA1: 12, CA2: 'ABS', Exam: 40 }, remarks: 'Good', version: 0 },
      ]);
      const res = await csvOf(cls);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="scores-SSS1${cls.slice(6)}-Mathematics-2025-2026-1st.csv"`);
      expect(res.body.replace(/^\ufeff/, '').split('\n')).toEqual([
        'admission_number,name,CA1,CA2,Exam,remarks',
        `${b.admissionNumber},"'=HYPERLINK(""evil"") Eze",,,,`,
        `${a.admissionNumber},Ada Obi,12,ABS,40,Good`,
        '',
      ]);
    });

    it('a preview names the line and column of each problem; applying with errors saves nothing (400)', async () => {
      const cls = await arm();
      const a = await pupil(cls, 'Ada', 'Obi');
      const b = await pupil(cls, 'Bola', 'Eze');
      const csv = [
        'admission_number,name,CA1,CA2,Exam',
        `${a.admissionNumber},Ada,=1+1,10,40`,
        `${b.admissionNumber},Bola,"10,5",10,70`,
        'STU-9999,Who,1,1,1',
      ].join('\r\n');
      const preview = await importCsv(cls, csv, true);
      expect(preview.statusCode).toBe(200);
      expect(preview.json<ScoreImportPreview>()).toEqual({
        rows: [],
        errors: [
          { line: 2, column: 'CA1', message: ASSESSMENT_MESSAGES.componentRange('CA1', 20) },
          { line: 3, column: 'Exam', message: ASSESSMENT_MESSAGES.componentRange('Exam', 60) },
          { line: 4, column: 'admission_number', message: ASSESSMENT_MESSAGES.csvUnknownStudent('STU-9999') },
        ],
        applied: false,
      });
      const applied = await importCsv(cls, csv, false);
      expect(applied.statusCode).toBe(400);
      expect(applied.json<ScoreImportPreview>().applied).toBe(false);
      expect(await stored(a.id)).toEqual([]);
      expect(await stored(b.id)).toEqual([]);
    });

    it('applies every changed row in one go through the grid’s save (audited), and reports applied', async () => {
      const cls = await arm();
      const [a, b, c] = [await pupil(cls, 'Ada', 'Obi'), await pupil(cls, 'Bola', 'Eze'), await pupil(cls, 'Chi', 'Ude')];
      await put(admin, cls, [
        { admission_number: a.admissionNumber, components: { CA1: 1, CA2: 1, Exam: 1 }, version: 0 },
        { admission_number: c.admissionNumber, components: { CA1: 2, CA2: 2, Exam: 2 }, version: 0 },
      ]);
      const csv = `\ufeffExam,admission_number,ca1,CA2\n50,${a.admissionNumber},10,10\n40.5,${b.admissionNumber},abs,5\n,${c.admissionNumber},,\n`;
      const dry = (await importCsv(cls, csv, true)).json<ScoreImportPreview>();
      expect(dry.rows.map((r) => [r.line, r.change, r.total])).toEqual([
        [2, 'update', 70],
        [3, 'new', 45.5],
        [4, 'clear', 0],
      ]);
      expect(await stored(b.id)).toEqual([]);
      const res = await importCsv(cls, csv, false);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<ScoreImportPreview>().applied).toBe(true);
      expect((await stored(a.id))[0]).toMatchObject({ score: 70, version: 2 });
      expect((await stored(b.id))[0]).toMatchObject({ score: 45.5, components: '{"CA1":"ABS","CA2":5,"Exam":40.5}' });
      expect(await stored(c.id)).toEqual([]);
      expect((await audits(c.id)).map((x) => x.action)).toEqual(['create', 'delete']);
      // The same file again changes nothing.
      const again = (await importCsv(cls, csv.replace(`,${c.admissionNumber},,\n`, '\n'), false)).json<ScoreImportPreview>();
      expect(again.rows.map((r) => r.change)).toEqual(['same', 'same']);
      expect((await stored(a.id))[0]!.version).toBe(2);
    });
  });

  it('property: the sheet’s statistics and positions are subjectStatistics over the stored totals', async () => {
    const cell = fc.oneof(
      fc.constant<'ABS'>('ABS'),
      fc.integer({ min: 0, max: 200 }).map((n) => n / 10),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ CA1: cell, CA2: cell, Exam: fc.oneof(cell, fc.integer({ min: 0, max: 60 })) }, { requiredKeys: [] }), {
          minLength: 1,
          maxLength: 8,
        }),
        async (entries) => {
          const cls = await arm();
          const kids: { id: number; admissionNumber: string }[] = [];
          for (const [i] of entries.entries()) kids.push(await pupil(cls, `P${i}`, `Prop${i}`));
          const res = await put(
            admin,
            cls,
            entries.map((components, i) => ({ admission_number: kids[i]!.admissionNumber, components, version: 0 })),
          );
          expect(res.statusCode, res.body).toBe(200);
          const sheet = (await load(cls)).json<ScoreSheet>();
          const totals = await ctx.handle.db
            .selectFrom('results')
            .select(['student_id', 'score'])
            .where('student_class', '=', cls)
            .execute();
          const want = subjectStatistics(totals.map((t) => ({ student_id: t.student_id, score: Number(t.score) })));
          expect(sheet.stats).toEqual(want.stats);
          expect(res.json<ScoreSheetSaveResult>().stats).toEqual(want.stats);
          for (const k of kids) {
            const row = sheet.rows.find((r) => r.admission_number === k.admissionNumber)!;
            expect(row.position).toBe(want.positions.get(k.id) ?? null);
          }
        },
      ),
      { numRuns: 6 },
    );
  }, 60_000);
});

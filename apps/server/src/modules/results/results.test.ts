import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, NOT_RELEASED_CODE, RESULT_MESSAGES, SCALE_MESSAGES } from '@portal/domain';
import {
  createSession,
  createStudent,
  createTestContext,
  describeEachDatabase,
  signInAdmin,
  signInStaff,
  signInStudent,
  TEST_PASSWORD,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { renderReportCards } from './pdf';
import { pdfPageCount, pdfText } from './pdf-text';

type Auth = { authorization: string };

describeEachDatabase('results', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  let staff: SignedIn;
  let student: SignedIn & { admissionNumber: string; id: number };
  let sessionId: number;
  let otherSessionId: number;

  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    admin = await signInAdmin(ctx);
    staff = await signInStaff(ctx);
    student = await signInStudent(ctx, { firstName: 'Chiamaka', lastName: 'Obi', studentClass: 'JSS 1A' });
    otherSessionId = (await createSession(ctx.handle.db, '2024/2025')).id;
    sessionId = (await createSession(ctx.handle.db, '2025/2026', true)).id;
  });
  afterAll(() => ctx.close());

  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, auth?: Auth, payload?: unknown) =>
    ctx.app.inject({ method, url, headers: auth ?? {}, ...(payload === undefined ? {} : { payload: payload as object }) });

  let seq = 0;
  async function newStudent(studentClass: 'JSS 1A' | 'JSS 2A' | 'SSS 1A' | 'SSS 2B' = 'JSS 2A', firstName = 'Tolu') {
    seq++;
    return createStudent(ctx.handle.db, {
      email: `r${seq}-${Date.now()}@test.school`,
      password: TEST_PASSWORD,
      firstName,
      lastName: `L${String(seq).padStart(3, '0')}`,
      studentClass,
    });
  }

  function bulk(
    admission: string,
    studentClass: string,
    subjects: { name: string; score: unknown; remarks?: string; version?: number }[],
    term = '1st',
    sid = sessionId,
  ) {
    return inject('POST', '/api/results/', staff.auth, {
      admission_number: admission,
      session_id: sid,
      term,
      student_class: studentClass,
      subjects,
    });
  }

  describe('sessions', () => {
    it('lists sessions to every signed-in role, newest first, with the current one marked', async () => {
      for (const who of [admin, staff, student]) {
        const res = await inject('GET', '/api/sessions/', who.auth);
        expect(res.statusCode).toBe(200);
        const list = res.json();
        expect(list.map((s: { name: string }) => s.name)).toEqual(['2025/2026', '2024/2025']);
        expect(list[0]).toEqual({ id: sessionId, name: '2025/2026', is_current: true });
        expect(list[1].is_current).toBe(false);
      }
      expect((await inject('GET', '/api/sessions/')).statusCode).toBe(401);
    });

    it('lets only an admin create a session, validating the name', async () => {
      for (const who of [staff, student])
        expect((await inject('POST', '/api/sessions/', who.auth, { name: '2030/2031' })).statusCode).toBe(403);
      for (const name of ['2030-2031', '2030/2032', 'abc', '30/31']) {
        const bad = await inject('POST', '/api/sessions/', admin.auth, { name });
        expect(bad.statusCode).toBe(400);
        expect(bad.json()).toEqual({ name: [RESULT_MESSAGES.sessionNameFormat] });
      }
      expect((await inject('POST', '/api/sessions/', admin.auth, {})).json()).toEqual({ name: [RESULT_MESSAGES.sessionNameRequired] });
      const ok = await inject('POST', '/api/sessions/', admin.auth, { name: '2030/2031' });
      expect(ok.statusCode).toBe(201);
      expect(ok.json()).toMatchObject({ name: '2030/2031', is_current: false });
      const dup = await inject('POST', '/api/sessions/', admin.auth, { name: '2030/2031' });
      expect(dup.statusCode).toBe(400);
      expect(dup.json()).toEqual({ name: [RESULT_MESSAGES.sessionNameTaken] });
    });

    it('renames and moves the current session, keeping exactly one current', async () => {
      const created = (await inject('POST', '/api/sessions/', admin.auth, { name: '2031/2032' })).json();
      const renamed = await inject('PATCH', `/api/sessions/${created.id}/`, admin.auth, { name: '2032/2033' });
      expect(renamed.json()).toMatchObject({ id: created.id, name: '2032/2033' });
      const taken = await inject('PATCH', `/api/sessions/${created.id}/`, admin.auth, { name: '2025/2026' });
      expect(taken.json()).toEqual({ name: [RESULT_MESSAGES.sessionNameTaken] });

      expect((await inject('PATCH', `/api/sessions/${created.id}/`, admin.auth, { is_current: true })).json().is_current).toBe(true);
      let list = (await inject('GET', '/api/sessions/', staff.auth)).json<{ id: number; is_current: boolean }[]>();
      expect(list.filter((s) => s.is_current).map((s) => s.id)).toEqual([created.id]);
      const unset = await inject('PATCH', `/api/sessions/${created.id}/`, admin.auth, { is_current: false });
      expect(unset.statusCode).toBe(400);
      expect(unset.json()).toEqual({ is_current: [RESULT_MESSAGES.keepOneCurrent] });

      // Put the current session back for the other tests.
      await inject('PATCH', `/api/sessions/${sessionId}/`, admin.auth, { is_current: true });
      list = (await inject('GET', '/api/sessions/', staff.auth)).json();
      expect(list.filter((s) => s.is_current).map((s) => s.id)).toEqual([sessionId]);
      expect((await inject('PATCH', '/api/sessions/99999/', admin.auth, { name: '2040/2041' })).statusCode).toBe(404);
      expect((await inject('PATCH', `/api/sessions/${sessionId}/`, staff.auth, { name: '2040/2041' })).statusCode).toBe(403);
      const audit = await ctx.handle.db.selectFrom('audit_log').selectAll().where('entity', '=', 'academic_session').execute();
      expect(audit.length).toBeGreaterThanOrEqual(4);
    });
  });

  describe('saving results', () => {
    it('saves a bulk payload with server-computed grades, then updates instead of duplicating', async () => {
      const s = await newStudent('JSS 2A');
      const res = await bulk(s.admissionNumber, 'JSS 2A', [
        { name: 'Mathematics', score: 70, remarks: 'Good work' },
        { name: 'English Language', score: 69.5 },
        { name: 'French', score: 39.99 },
      ]);
      expect(res.statusCode).toBe(201);
      const saved = res.json();
      expect(saved.map((r: { subject: string; grade: string }) => [r.subject, r.grade])).toEqual([
        ['Mathematics', 'A'],
        ['English Language', 'B'],
        ['French', 'F'],
      ]);
      expect(saved[0]).toMatchObject({
        admission_number: s.admissionNumber,
        session_id: sessionId,
        term: '1st',
        student_class: 'JSS 2A',
        score: 70,
        remarks: 'Good work',
        version: 1,
      });

      const again = await bulk(s.admissionNumber, 'JSS 2A', [{ name: 'Mathematics', score: 45 }]);
      expect(again.statusCode).toBe(200);
      expect(again.json()[0]).toMatchObject({ subject: 'Mathematics', score: 45, grade: 'D', version: 2, remarks: '' });
      const rows = await ctx.handle.db.selectFrom('results').selectAll().where('student_id', '=', s.id).execute();
      expect(rows).toHaveLength(3);
    });

    it('grades senior classes with the WAEC scale', async () => {
      const s = await newStudent('SSS 1A');
      const scores = [
        [75, 'A1'],
        [74.99, 'B2'],
        [70, 'B2'],
        [65, 'B3'],
        [60, 'C4'],
        [55, 'C5'],
        [50, 'C6'],
        [45, 'D7'],
        [40, 'E8'],
        [39, 'F9'],
        [0, 'F9'],
        [100, 'A1'],
      ] as const;
      const subjects = [
        'Mathematics',
        'English Language',
        'Basic Science',
        'Basic Technology',
        'Social Studies',
        'Home Economics',
        'Computer Studies',
        'French',
        'Civic Education',
        'Business Studies',
        'Agricultural Science',
        'Christian Religious Studies',
      ];
      const res = await bulk(
        s.admissionNumber,
        'SSS 1A',
        scores.map(([score], i) => ({ name: subjects[i]!, score })),
      );
      expect(res.statusCode).toBe(201);
      const bySubject = new Map(res.json().map((r: { subject: string; grade: string }) => [r.subject, r.grade]));
      scores.forEach(([, grade], i) => expect(bySubject.get(subjects[i]!)).toBe(grade));
    });

    it('saves the single-subject shape', async () => {
      const s = await newStudent('JSS 2A');
      const res = await inject('POST', '/api/results/', staff.auth, {
        admission_number: s.admissionNumber.toLowerCase(),
        session_id: String(sessionId),
        term: '2nd',
        student_class: 'JSS 2A',
        subject: 'Basic Science',
        score: '88',
        remarks: 'Excellent',
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        admission_number: s.admissionNumber,
        subject: 'Basic Science',
        score: 88,
        grade: 'A',
        term: '2nd',
      });
      const missing = await inject('POST', '/api/results/', staff.auth, {
        admission_number: s.admissionNumber,
        session_id: sessionId,
        term: '2nd',
        student_class: 'JSS 2A',
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({ subject: [RESULT_MESSAGES.subjectRequired], score: [RESULT_MESSAGES.scoreRequired] });
    });

    it('answers every field rule with the spec message', async () => {
      const empty = await inject('POST', '/api/results/', staff.auth, { subjects: [{ name: 'Mathematics', score: 50 }] });
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toEqual({
        admission_number: [RESULT_MESSAGES.admissionNumberRequired],
        session_id: [RESULT_MESSAGES.sessionRequired],
        term: [RESULT_MESSAGES.termRequired],
        student_class: [RESULT_MESSAGES.classRequired],
      });
      const s = await newStudent('JSS 2A');
      const base = { admission_number: s.admissionNumber, session_id: sessionId, term: '1st', student_class: 'JSS 2A' };
      const cases: [Record<string, unknown>, string, string][] = [
        [{ admission_number: 'STU 0001!' }, 'admission_number', RESULT_MESSAGES.admissionNumberFormat],
        [{ admission_number: '  ' }, 'admission_number', RESULT_MESSAGES.admissionNumberRequired],
        [{ term: '4th' }, 'term', RESULT_MESSAGES.termRequired],
        [{ student_class: 'JSS 9Z' }, 'student_class', RESULT_MESSAGES.classRequired],
        [{ session_id: '' }, 'session_id', RESULT_MESSAGES.sessionRequired],
      ];
      for (const [patch, field, message] of cases) {
        const res = await inject('POST', '/api/results/', staff.auth, {
          ...base,
          ...patch,
          subjects: [{ name: 'Mathematics', score: 50 }],
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()[field]).toEqual([message]);
      }
      const scoreCases: [unknown, string][] = [
        [undefined, RESULT_MESSAGES.scoreRequired],
        ['', RESULT_MESSAGES.scoreRequired],
        ['abc', RESULT_MESSAGES.scoreRequired],
        [-1, RESULT_MESSAGES.scoreMin],
        [100.5, RESULT_MESSAGES.scoreMax],
      ];
      for (const [score, message] of scoreCases) {
        const res = await inject('POST', '/api/results/', staff.auth, { ...base, subjects: [{ name: 'Mathematics', score }] });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ 'subjects.0.score': [message] });
        const single = await inject('POST', '/api/results/', staff.auth, { ...base, subject: 'Mathematics', score });
        expect(single.json()).toEqual({ score: [message] });
      }
      const unknownSubject = await bulk(s.admissionNumber, 'JSS 2A', [{ name: 'Astrology', score: 50 }]);
      expect(unknownSubject.json()).toEqual({ 'subjects.0.name': [RESULT_MESSAGES.unknownSubject] });
      const dup = await bulk(s.admissionNumber, 'JSS 2A', [
        { name: 'French', score: 50 },
        { name: 'French', score: 60 },
      ]);
      expect(dup.json()).toEqual({ subjects: [RESULT_MESSAGES.duplicateSubject] });
      const none = await bulk(s.admissionNumber, 'JSS 2A', []);
      expect(none.json()).toEqual({ subjects: [RESULT_MESSAGES.subjectsRequired] });
    });

    it('rejects a whole bulk save when one subject is bad, storing nothing', async () => {
      const s = await newStudent('JSS 2A');
      const res = await bulk(s.admissionNumber, 'JSS 2A', [
        { name: 'Mathematics', score: 50 },
        { name: 'English Language', score: 150 },
        { name: 'French', score: 60 },
      ]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ 'subjects.1.score': [RESULT_MESSAGES.scoreMax] });
      // A rule only the service can check (a stale version) also rolls back the earlier subjects.
      await bulk(s.admissionNumber, 'JSS 2A', [{ name: 'French', score: 60 }]);
      const stale = await bulk(s.admissionNumber, 'JSS 2A', [
        { name: 'Mathematics', score: 50, version: 0 },
        { name: 'French', score: 61, version: 7 },
      ]);
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({ detail: RESULT_MESSAGES.changedByOther('French') });
      const rows = await ctx.handle.db.selectFrom('results').select(['subject', 'score']).where('student_id', '=', s.id).execute();
      expect(rows).toEqual([{ subject: 'French', score: 60 }]);
    });

    it('explains unknown students, unknown sessions and a class that does not match, in non_field_errors', async () => {
      const unknown = await bulk('STU-9999', 'JSS 2A', [{ name: 'French', score: 50 }]);
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toEqual({ non_field_errors: [RESULT_MESSAGES.studentNotFound('STU-9999')] });
      const s = await newStudent('JSS 2A');
      const noSession = await bulk(s.admissionNumber, 'JSS 2A', [{ name: 'French', score: 50 }], '1st', 99999);
      expect(noSession.json()).toEqual({ non_field_errors: [RESULT_MESSAGES.sessionNotFound] });
      await bulk(s.admissionNumber, 'JSS 2A', [{ name: 'French', score: 50 }]);
      const otherClass = await bulk(s.admissionNumber, 'JSS 1A', [{ name: 'Mathematics', score: 50 }]);
      expect(otherClass.json()).toEqual({ non_field_errors: [RESULT_MESSAGES.classMismatch('JSS 2A')] });
    });

    it('lets only staff and admin write results', async () => {
      const payload = {
        admission_number: student.admissionNumber,
        session_id: sessionId,
        term: '1st',
        student_class: 'JSS 1A',
        subject: 'French',
        score: 99,
      };
      expect((await inject('POST', '/api/results/', student.auth, payload)).statusCode).toBe(403);
      expect((await inject('POST', '/api/results/', undefined, payload)).statusCode).toBe(401);
      expect((await inject('POST', '/api/results/', admin.auth, payload)).statusCode).toBe(201);
      const row = (await inject('GET', `/api/results/?admission_number=${student.admissionNumber}`, staff.auth)).json()[0];
      expect((await inject('PATCH', `/api/results/${row.id}/`, student.auth, { score: 100 })).statusCode).toBe(403);
      expect((await inject('DELETE', `/api/results/${row.id}/`, student.auth)).statusCode).toBe(403);
      await inject('DELETE', `/api/results/${row.id}/`, admin.auth);
    });
  });

  describe('reading, changing and deleting', () => {
    it('filters by session, term, admission number and whole class', async () => {
      const a = await newStudent('SSS 2B');
      const b = await newStudent('SSS 2B');
      await bulk(a.admissionNumber, 'SSS 2B', [
        { name: 'Mathematics', score: 80 },
        { name: 'French', score: 70 },
      ]);
      await bulk(b.admissionNumber, 'SSS 2B', [{ name: 'Mathematics', score: 60 }]);
      await bulk(b.admissionNumber, 'SSS 2B', [{ name: 'Mathematics', score: 61 }], '2nd');
      await bulk(b.admissionNumber, 'SSS 2B', [{ name: 'Mathematics', score: 62 }], '1st', otherSessionId);

      const one = await inject('GET', `/api/results/?session_id=${sessionId}&term=1st&admission_number=${a.admissionNumber}`, staff.auth);
      expect(one.statusCode).toBe(200);
      expect(one.json().map((r: { subject: string }) => r.subject)).toEqual(['Mathematics', 'French']);
      expect(one.json()[0].student_name).toMatch(/^Tolu L\d{3}$/);
      const cls = await inject('GET', `/api/results/?session_id=${sessionId}&term=1st&student_class=SSS 2B`, staff.auth);
      expect(cls.json()).toHaveLength(3);
      const allOfB = await inject('GET', `/api/results/?admission_number=${b.admissionNumber}`, admin.auth);
      expect(allOfB.json()).toHaveLength(3);
      const none = await inject('GET', `/api/results/?session_id=${sessionId}&term=3rd&admission_number=${a.admissionNumber}`, staff.auth);
      expect(none.json()).toEqual([]);
      const unknown = await inject('GET', '/api/results/?admission_number=STU-8888', staff.auth);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ detail: RESULT_MESSAGES.studentNotFound('STU-8888') });

      const students = await inject('GET', `/api/results/students/?session_id=${sessionId}&term=1st&student_class=SSS 2B`, staff.auth);
      expect(students.json()).toEqual([
        expect.objectContaining({ admission_number: a.admissionNumber, student_class: 'SSS 2B', subjects: 2 }),
        expect.objectContaining({ admission_number: b.admissionNumber, subjects: 1 }),
      ]);
      expect((await inject('GET', `/api/results/students/?session_id=${sessionId}&term=1st`, student.auth)).statusCode).toBe(403);
      const bad = await inject('GET', '/api/results/students/?term=1st', staff.auth);
      expect(bad.json()).toEqual({ session_id: [RESULT_MESSAGES.sessionRequired] });
    });

    it('patches a score with its version, regrading and auditing it', async () => {
      const s = await newStudent('JSS 2A');
      const [row] = (await bulk(s.admissionNumber, 'JSS 2A', [{ name: 'Civic Education', score: 55 }])).json();
      const res = await inject('PATCH', `/api/results/${row.id}/`, staff.auth, {
        admission_number: s.admissionNumber,
        session_id: sessionId,
        term: '1st',
        student_class: 'JSS 2A',
        subject: 'Civic Education',
        score: 72,
        remarks: 'Improved',
        version: 1,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: row.id, score: 72, grade: 'A', remarks: 'Improved', version: 2 });

      const stale = await inject('PATCH', `/api/results/${row.id}/`, staff.auth, { score: 10, version: 1 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({ detail: RESULT_MESSAGES.changedByOther('Civic Education') });
      const moved = await inject('PATCH', `/api/results/${row.id}/`, staff.auth, { term: '2nd' });
      expect(moved.json()).toEqual({ non_field_errors: [RESULT_MESSAGES.identityLocked] });
      await bulk(s.admissionNumber, 'JSS 2A', [{ name: 'French', score: 50 }]);
      const taken = await inject('PATCH', `/api/results/${row.id}/`, staff.auth, { subject: 'French' });
      expect(taken.json()).toEqual({ non_field_errors: [RESULT_MESSAGES.subjectTaken] });
      const invalid = await inject('PATCH', `/api/results/${row.id}/`, staff.auth, { score: 101 });
      expect(invalid.json()).toEqual({ score: [RESULT_MESSAGES.scoreMax] });
      expect((await inject('PATCH', '/api/results/999999/', staff.auth, { score: 1 })).statusCode).toBe(404);
      expect((await inject('PATCH', '/api/results/abc/', staff.auth, { score: 1 })).statusCode).toBe(400);
    });

    it('deletes a result, refusing a stale version, and audits it', async () => {
      const s = await newStudent('JSS 2A');
      const [row] = (await bulk(s.admissionNumber, 'JSS 2A', [{ name: 'French', score: 65 }])).json();
      const stale = await inject('DELETE', `/api/results/${row.id}/?version=5`, staff.auth);
      expect(stale.statusCode).toBe(409);
      const ok = await inject('DELETE', `/api/results/${row.id}/?version=1`, staff.auth);
      expect(ok.statusCode).toBe(204);
      expect((await inject('DELETE', `/api/results/${row.id}/`, staff.auth)).statusCode).toBe(404);
      const audit = (await inject('GET', `/api/results/audit/?admission_number=${s.admissionNumber}`, admin.auth)).json();
      expect(audit.map((a: { action: string }) => a.action)).toEqual(['delete', 'create']);
      expect(audit[0]).toMatchObject({ subject: 'French', old_score: 65, new_score: null, old_grade: 'B', new_grade: null });
    });

    it('never loses a concurrent update: of two saves from the same version one wins, the other gets 409', async () => {
      const s = await newStudent('JSS 2A');
      const [row] = (await bulk(s.admissionNumber, 'JSS 2A', [{ name: 'Mathematics', score: 50 }])).json();
      const other = await signInStaff(ctx);
      const [r1, r2] = await Promise.all([
        inject('PATCH', `/api/results/${row.id}/`, staff.auth, { score: 61, version: 1 }),
        inject('PATCH', `/api/results/${row.id}/`, other.auth, { score: 62, version: 1 }),
      ]);
      const codes = [r1.statusCode, r2.statusCode].sort();
      expect(codes).toEqual([200, 409]);
      const winner = r1.statusCode === 200 ? 61 : 62;
      const now = (await inject('GET', `/api/results/?admission_number=${s.admissionNumber}`, staff.auth)).json()[0];
      expect(now).toMatchObject({ score: winner, version: 2 });
      const audit = (await inject('GET', `/api/results/audit/?admission_number=${s.admissionNumber}`, admin.auth)).json();
      expect(audit.filter((a: { action: string }) => a.action === 'update')).toHaveLength(1);

      // Two teachers creating the same subject from an empty form (version 0): one wins.
      const t = await newStudent('JSS 2A');
      const [c1, c2] = await Promise.all([
        bulk(t.admissionNumber, 'JSS 2A', [{ name: 'French', score: 40, version: 0 }]),
        inject('POST', '/api/results/', other.auth, {
          admission_number: t.admissionNumber,
          session_id: sessionId,
          term: '1st',
          student_class: 'JSS 2A',
          subjects: [{ name: 'French', score: 45, version: 0 }],
        }),
      ]);
      expect([c1.statusCode, c2.statusCode].sort()).toEqual([201, 409]);
      const loser = c1.statusCode === 409 ? c1 : c2;
      expect([RESULT_MESSAGES.createdByOther('French'), RESULT_MESSAGES.changedByOther('French')]).toContain(loser.json().detail);

      // The spec's legacy payload (no version) is last-write-wins, but both writes are in the audit trail, in order.
      const [l1, l2] = await Promise.all([
        inject('PATCH', `/api/results/${row.id}/`, staff.auth, { score: 70 }),
        inject('PATCH', `/api/results/${row.id}/`, other.auth, { score: 71 }),
      ]);
      expect([l1.statusCode, l2.statusCode]).toEqual([200, 200]);
      const trail = (await inject('GET', `/api/results/audit/?admission_number=${s.admissionNumber}`, admin.auth)).json();
      const updates = trail.filter((a: { action: string }) => a.action === 'update');
      expect(updates).toHaveLength(3);
      // Newest first: the chain of old -> new values is unbroken.
      expect(updates[0].old_score).toBe(updates[1].new_score);
      expect(updates[1].old_score).toBe(updates[2].new_score);
    });
  });

  describe('audit trail', () => {
    it('records who changed what, readable by admins per student and per class', async () => {
      const s = await newStudent('SSS 1A');
      const [row] = (await bulk(s.admissionNumber, 'SSS 1A', [{ name: 'Mathematics', score: 50, remarks: 'ok' }])).json();
      await inject('PATCH', `/api/results/${row.id}/`, admin.auth, { score: 76, remarks: 'better', version: 1 });
      const perStudent = await inject('GET', `/api/results/audit/?admission_number=${s.admissionNumber}`, admin.auth);
      expect(perStudent.statusCode).toBe(200);
      const [update, create] = perStudent.json();
      expect(create).toMatchObject({
        action: 'create',
        old_score: null,
        new_score: 50,
        new_grade: 'C6',
        new_remarks: 'ok',
        actor_role: 'staff',
      });
      expect(create.actor).toContain(staff.publicId);
      expect(update).toMatchObject({
        action: 'update',
        subject: 'Mathematics',
        old_score: 50,
        new_score: 76,
        old_grade: 'C6',
        new_grade: 'A1',
        old_remarks: 'ok',
        new_remarks: 'better',
        actor_role: 'admin',
        session_name: '2025/2026',
        student_class: 'SSS 1A',
      });
      expect(Date.parse(update.created_at)).toBeGreaterThan(0);
      const perClass = await inject('GET', `/api/results/audit/?student_class=SSS 1A&session_id=${sessionId}&term=1st`, admin.auth);
      expect(perClass.json().some((a: { admission_number: string }) => a.admission_number === s.admissionNumber)).toBe(true);
      expect((await inject('GET', `/api/results/audit/?admission_number=${s.admissionNumber}`, staff.auth)).statusCode).toBe(403);
      expect((await inject('GET', '/api/results/audit/', admin.auth)).json()).toEqual({
        non_field_errors: [RESULT_MESSAGES.auditNeedsFilter],
      });
    });
  });

  describe('grading scales', () => {
    it('serves the default scales and regrades every result of a level when an admin changes one', async () => {
      const list = (await inject('GET', '/api/grading-scales/', staff.auth)).json();
      expect(list.map((s: { level: string; is_default: boolean }) => [s.level, s.is_default])).toEqual([
        ['JSS', true],
        ['SSS', true],
      ]);
      expect(list[1].bands[0]).toEqual({ grade: 'A1', min: 75, max: 100, remark: 'Excellent' });

      const sss = await newStudent('SSS 2B');
      const jss = await newStudent('JSS 2A');
      await bulk(sss.admissionNumber, 'SSS 2B', [
        { name: 'Mathematics', score: 72 },
        { name: 'French', score: 30 },
      ]);
      await bulk(jss.admissionNumber, 'JSS 2A', [{ name: 'Mathematics', score: 72 }]);

      const bands = [
        { grade: 'A', min: 70, remark: 'Distinction' },
        { grade: 'P', min: 40, remark: 'Pass' },
        { grade: 'F', min: 0, remark: 'Fail' },
      ];
      expect((await inject('PUT', '/api/grading-scales/SSS/', staff.auth, { bands })).statusCode).toBe(403);
      // Grades would change: the admin must confirm (issue 11 item 3).
      expect((await inject('PUT', '/api/grading-scales/SSS/', admin.auth, { bands })).statusCode).toBe(409);
      const res = await inject('PUT', '/api/grading-scales/SSS/', admin.auth, { bands, confirm: true });
      expect(res.statusCode).toBe(200);
      expect(res.json().bands).toEqual([
        { grade: 'A', min: 70, max: 100, remark: 'Distinction' },
        { grade: 'P', min: 40, max: 69.99, remark: 'Pass' },
        { grade: 'F', min: 0, max: 39.99, remark: 'Fail' },
      ]);
      const grades = (await inject('GET', `/api/results/?admission_number=${sss.admissionNumber}`, staff.auth)).json();
      expect(grades.map((r: { grade: string }) => r.grade)).toEqual(['A', 'F']);
      // No SSS result of the current session is left with an old WAEC grade; JSS results are untouched.
      const stale = await ctx.handle.db
        .selectFrom('results')
        .select('grade')
        .where('session_id', '=', sessionId)
        .where('student_class', 'like', 'SSS%')
        .where('grade', 'not in', ['A', 'P', 'F'])
        .execute();
      expect(stale).toEqual([]);
      const j = (await inject('GET', `/api/results/?admission_number=${jss.admissionNumber}`, staff.auth)).json();
      expect(j[0].grade).toBe('A');
      // New saves use the new scale, and the report card shows the band's remark.
      const [saved] = (await bulk(sss.admissionNumber, 'SSS 2B', [{ name: 'Civic Education', score: 55 }])).json();
      expect(saved.grade).toBe('P');

      const bad = await inject('PUT', '/api/grading-scales/SSS/', admin.auth, {
        bands: [
          { grade: 'A', min: 50, remark: 'x' },
          { grade: 'a', min: 50, remark: 'y' },
        ],
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().bands).toEqual([SCALE_MESSAGES.lowestAtZero, SCALE_MESSAGES.distinctMins, SCALE_MESSAGES.distinctGrades]);
      expect((await inject('PUT', '/api/grading-scales/PRI/', admin.auth, { bands })).json()).toEqual({
        level: [SCALE_MESSAGES.levelInvalid],
      });

      // Restore WAEC for the remaining tests.
      const waec = list[1].bands.map((b: { grade: string; min: number; remark: string }) => ({
        grade: b.grade,
        min: b.min,
        remark: b.remark,
      }));
      expect((await inject('PUT', '/api/grading-scales/SSS/', admin.auth, { bands: waec, confirm: true })).statusCode).toBe(200);
      expect(
        (await inject('GET', `/api/results/?admission_number=${sss.admissionNumber}`, staff.auth))
          .json()
          .map((r: { grade: string }) => r.grade),
      ).toEqual(['B2', 'C5', 'F9']);
    });
  });

  describe('publishing, report cards and broadsheets', () => {
    const cls = 'JSS 1A';
    let mates: { admissionNumber: string; id: number }[];

    beforeAll(async () => {
      // The signed-in student and three classmates. Averages: 80, 80 (tie), 70 over 2 subjects, 65.
      mates = [await newStudent('JSS 1A', 'Bola'), await newStudent('JSS 1A', 'Chidi'), await newStudent('JSS 1A', 'Dayo')];
      const all = [student, ...mates];
      const scores: [string, number][][] = [
        [
          ['Mathematics', 90],
          ['English Language', 70],
          ['French', 80],
        ],
        [
          ['Mathematics', 70],
          ['English Language', 90],
          ['French', 80],
        ],
        [
          ['Mathematics', 60],
          ['English Language', 80],
        ],
        [
          ['Mathematics', 65],
          ['English Language', 65],
          ['French', 65],
        ],
      ];
      for (const term of ['1st', '2nd', '3rd']) {
        for (const [i, st] of all.entries()) {
          const bump = term === '1st' ? 0 : term === '2nd' ? -10 : 5;
          await bulk(
            st.admissionNumber,
            cls,
            scores[i]!.map(([name, score]) => ({ name, score: Math.min(100, score + bump) })),
            term,
          );
        }
      }
    });

    it('keeps unpublished results from the student, with a clear not-released answer', async () => {
      const mine = await inject(
        'GET',
        `/api/results/?session_id=${sessionId}&term=1st&admission_number=${student.admissionNumber}`,
        student.auth,
      );
      expect(mine.statusCode).toBe(404);
      expect(mine.json()).toEqual({ detail: RESULT_MESSAGES.notReleased, code: NOT_RELEASED_CODE });
      const card = await inject(
        'GET',
        `/api/report-card/?session_id=${sessionId}&term=1st&admission_number=${student.admissionNumber}`,
        student.auth,
      );
      expect(card.statusCode).toBe(404);
      expect(card.json().code).toBe(NOT_RELEASED_CODE);
      const terms = (await inject('GET', '/api/results/terms/', student.auth)).json();
      expect(terms.filter((t: { session_id: number }) => t.session_id === sessionId)).toEqual([
        { session_id: sessionId, session_name: '2025/2026', term: '3rd', student_class: cls, subjects: 3, released: false },
        { session_id: sessionId, session_name: '2025/2026', term: '2nd', student_class: cls, subjects: 3, released: false },
        { session_id: sessionId, session_name: '2025/2026', term: '1st', student_class: cls, subjects: 3, released: false },
      ]);
      // Staff see them all the time.
      const staffView = await inject(
        'GET',
        `/api/report-card/?session_id=${sessionId}&term=1st&admission_number=${student.admissionNumber}`,
        staff.auth,
      );
      expect(staffView.statusCode).toBe(200);
      expect(staffView.json().released).toBe(false);
    });

    it('lets only an admin publish and unpublish, audited', async () => {
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
        .orderBy('id')
        .execute();
      expect(audit.map((a) => a.action)).toEqual(['publish', 'unpublish']);
      for (const term of ['1st', '2nd', '3rd']) await inject('POST', '/api/results/publications/', admin.auth, { ...body, term });
    });

    it('never shows a student anyone else’s results', async () => {
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

    it('builds a report card with positions (ties share), class statistics and the position out of N', async () => {
      const res = await inject(
        'GET',
        `/api/report-card/?session_id=${sessionId}&term=1st&admission_number=${student.admissionNumber}`,
        student.auth,
      );
      expect(res.statusCode).toBe(200);
      const card = res.json();
      expect(card).toMatchObject({
        student: { admission_number: student.admissionNumber, first_name: 'Chiamaka', last_name: 'Obi', student_class: cls },
        session: { id: sessionId, name: '2025/2026' },
        term: '1st',
        term_label: 'First Term',
        total: 240,
        subjects_taken: 3,
        average: 80,
        position: 1,
        class_size: 4,
        position_text: '1st out of 4',
        class_average: 73.75,
        released: true,
        cumulative: null,
        school: { name: 'Role Models College', motto: 'raising role models' },
      });
      expect(card.subjects.map((s: { subject: string }) => s.subject)).toEqual(['Mathematics', 'English Language', 'French']);
      expect(card.subjects[0]).toEqual({
        subject: 'Mathematics',
        score: 90,
        grade: 'A',
        remark: 'Excellent',
        teacher_remarks: '',
        position: 1,
        class_average: 71.25,
        class_highest: 90,
        class_lowest: 60,
      });
      // French: 80, 80, (missing), 65 -> positions 1, 1, 3 over the 3 who took it.
      expect(card.subjects[2]).toMatchObject({ subject: 'French', position: 1, class_average: 75, class_highest: 80, class_lowest: 65 });

      const tie = (
        await inject('GET', `/api/report-card/?session_id=${sessionId}&term=1st&admission_number=${mates[0]!.admissionNumber}`, staff.auth)
      ).json();
      expect(tie).toMatchObject({ position: 1, position_text: '1st out of 4', average: 80 });
      expect(tie.subjects.find((s: { subject: string }) => s.subject === 'French').position).toBe(1);
      // The one with a missing subject: average over the 2 taken (70), third.
      const third = (
        await inject('GET', `/api/report-card/?session_id=${sessionId}&term=1st&admission_number=${mates[1]!.admissionNumber}`, staff.auth)
      ).json();
      expect(third).toMatchObject({ total: 140, subjects_taken: 2, average: 70, position: 3, position_text: '3rd out of 4' });
      const last = (
        await inject('GET', `/api/report-card/?session_id=${sessionId}&term=1st&admission_number=${mates[2]!.admissionNumber}`, staff.auth)
      ).json();
      expect(last.position_text).toBe('4th out of 4');

      const none = await inject(
        'GET',
        `/api/report-card/?session_id=${otherSessionId}&term=1st&admission_number=${student.admissionNumber}`,
        staff.auth,
      );
      expect(none.statusCode).toBe(404);
      expect(none.json()).toEqual({ detail: RESULT_MESSAGES.noReportCard });
    });

    it('adds the cumulative view in the third term', async () => {
      const card = (
        await inject('GET', `/api/report-card/?session_id=${sessionId}&term=3rd&admission_number=${student.admissionNumber}`, student.auth)
      ).json();
      expect(card.cumulative).toEqual({
        terms: [
          { term: '1st', total: 240, average: 80, subjects_taken: 3 },
          { term: '2nd', total: 210, average: 70, subjects_taken: 3 },
          { term: '3rd', total: 255, average: 85, subjects_taken: 3 },
        ],
        annual_average: 78.33,
      });
      expect(card.subjects[0].term_scores).toEqual({ '1st': 90, '2nd': 80, '3rd': 95, average: 88.33 });
    });

    it('prints the report card as a PDF with the school and the student in it', async () => {
      const res = await inject(
        'GET',
        `/api/report-card/pdf/?session_id=${sessionId}&term=3rd&admission_number=${student.admissionNumber}`,
        student.auth,
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toContain(`report-card-${student.admissionNumber}-2025-2026-3rd.pdf`);
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdfPageCount(res.rawPayload)).toBe(1);

      const card = (
        await inject('GET', `/api/report-card/?session_id=${sessionId}&term=3rd&admission_number=${student.admissionNumber}`, student.auth)
      ).json();
      const plain = await renderReportCards([{ ...card, school: { ...card.school, name: 'Ọmọ Naija College ₦' } }], { compress: false });
      const text = pdfText(plain);
      for (const s of [
        'Ọmọ Naija College ₦',
        'Chiamaka Obi',
        student.admissionNumber,
        '1st out of 4',
        'Mathematics',
        'Annual average: 78.33',
        'Third Term',
      ]) {
        expect(text).toContain(s);
      }
    });

    it('prints a whole class as one PDF, one page per student', async () => {
      const res = await inject('GET', `/api/report-cards/pdf/?session_id=${sessionId}&term=1st&student_class=${cls}`, staff.auth);
      expect(res.statusCode).toBe(200);
      expect(pdfPageCount(res.rawPayload)).toBe(4);
      const json = (await inject('GET', `/api/report-cards/?session_id=${sessionId}&term=1st&student_class=${cls}`, admin.auth)).json();
      expect(json.map((c: { position: number }) => c.position).sort()).toEqual([1, 1, 3, 4]);
      const text = pdfText(await renderReportCards(json, { compress: false }));
      for (const st of json) expect(text).toContain(`${st.student.first_name} ${st.student.last_name}`);
      const empty = await inject('GET', `/api/report-cards/pdf/?session_id=${sessionId}&term=1st&student_class=SSS 3B`, staff.auth);
      expect(empty.statusCode).toBe(404);
      expect(empty.json()).toEqual({ detail: RESULT_MESSAGES.noStudentsFound });
    });

    it('builds the broadsheet with totals, averages and positions, and exports it as CSV', async () => {
      const res = await inject('GET', `/api/broadsheet/?session_id=${sessionId}&term=1st&student_class=${cls}`, staff.auth);
      expect(res.statusCode).toBe(200);
      const sheet = res.json();
      expect(sheet.session).toEqual({ id: sessionId, name: '2025/2026' });
      expect(sheet.classes).toHaveLength(1);
      const c = sheet.classes[0];
      expect(c.subjects).toEqual(['Mathematics', 'English Language', 'French']);
      expect(c.class_size).toBe(4);
      const row = c.rows.find((r: { admission_number: string }) => r.admission_number === mates[1]!.admissionNumber);
      expect(row).toMatchObject({
        scores: { Mathematics: 60, 'English Language': 80, French: null },
        total: 140,
        average: 70,
        position: 3,
      });
      expect(c.subject_stats.Mathematics).toEqual({ subject: 'Mathematics', count: 4, average: 71.25, highest: 90, lowest: 60 });

      const csv = await inject('GET', `/api/broadsheet/csv/?session_id=${sessionId}&term=1st&student_class=${cls}`, staff.auth);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      const lines = csv.body
        .replace(/^\ufeff/, '')
        .trim()
        .split('\n');
      expect(lines[0]).toBe('Class,Admission number,Name,Mathematics,English Language,French,Total,Subjects taken,Average,Position,Out of');
      expect(lines).toHaveLength(5);
      expect(lines.find((l) => l.includes(mates[1]!.admissionNumber))).toMatch(/,60,80,,140,2,70,3,4$/);

      const whole = (await inject('GET', `/api/broadsheet/?session_id=${sessionId}&term=1st`, admin.auth)).json();
      expect(whole.classes.length).toBeGreaterThan(1);
      const bad = await inject('GET', '/api/broadsheet/?session_id=1', staff.auth);
      expect(bad.json()).toEqual({ term: [RESULT_MESSAGES.termRequired] });
    });
  });
});

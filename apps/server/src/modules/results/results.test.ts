import { describe, expect, it } from 'vitest';
import { RESULT_MESSAGES, SUBJECTS } from '@portal/domain';
import { withSchool, describeEachDatabase, signInStaff, signInStudent, type SignedIn, type TestContext } from '../../../test/helpers';
import { resultsKit } from '../../../test/results-fixtures';

/** Results themselves: saving (bulk and single), reading, changing and deleting, and their audit trail. */
describeEachDatabase('results', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn, sessionId: number;
  let student: SignedIn & { admissionNumber: string; id: number };
  withSchool(dialect, { sessions: ['2025/2026'] }, async (s) => {
    ({ ctx, admin, staff, sessionId } = s);
    student = await signInStudent(ctx, { firstName: 'Chiamaka', lastName: 'Obi', arm: 'JSS 1A' });
  });

  const kit = resultsKit(
    () => ctx,
    () => staff,
  );
  const { inject, newStudent, newSession, asCurrent } = kit;
  const bulk = (
    admission: string,
    arm: string,
    subjects: { name: string; score: unknown; remarks?: string; version?: number }[],
    term = '1st',
    sid = sessionId,
  ) => kit.bulk(admission, arm, subjects, term, sid);

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
      // Twelve distinct subjects of the catalogue, one for each score.
      const subjects = SUBJECTS.slice(0, 12);
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
      // Sessions of its own: the whole-class reads below see only this test's rows.
      const sessionId = (await newSession()).id;
      const otherSessionId = (await newSession()).id;
      const a = await newStudent('SSS 2B');
      const b = await newStudent('SSS 2B');
      // Teachers write into the current session only (30.8): each session is current while written.
      await asCurrent(sessionId, async () => {
        await bulk(
          a.admissionNumber,
          'SSS 2B',
          [
            { name: 'Mathematics', score: 80 },
            { name: 'French', score: 70 },
          ],
          '1st',
          sessionId,
        );
        await bulk(b.admissionNumber, 'SSS 2B', [{ name: 'Mathematics', score: 60 }], '1st', sessionId);
        await bulk(b.admissionNumber, 'SSS 2B', [{ name: 'Mathematics', score: 61 }], '2nd', sessionId);
      });
      await asCurrent(otherSessionId, () => bulk(b.admissionNumber, 'SSS 2B', [{ name: 'Mathematics', score: 62 }], '1st', otherSessionId));

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
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ENTRY_CLOSED_CODE,
  NOT_YOUR_SUBJECT_CODE,
  PAYMENT_MESSAGES,
  PEOPLE_MESSAGES,
  RESULT_ADMIN_MESSAGES,
  RESULT_MESSAGES,
  SUBJECTS,
  TEACHING_MESSAGES,
} from '@portal/domain';
import { createResults } from '../../db/factories';
import {
  addArm,
  createSession,
  createStudent,
  createTestContext,
  describeEachDatabase,
  signInAdmin,
  signInStaff,
  TEST_PASSWORD,
} from '../../../test/helpers';
import type { SignedIn, TestContext } from '../../../test/helpers';
import { addStream, assign, chooseSubject, enforceAssignments, offerAtLevel, setStream, setWindow } from '../../../test/teaching-fixtures';
import { TeachingRepository } from '../teaching/teaching.repository';

/**
 * Results follow the school's teaching structure: classes and subjects are the school's lists, a
 * score is only for a subject the student takes, and who may write a score follows the session's
 * assignments and score-entry windows.
 */
describeEachDatabase('results and the teaching structure', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  let assigned: SignedIn & { id: number };
  let other: SignedIn & { id: number };
  let seq = 0;

  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    admin = await signInAdmin(ctx);
    assigned = await signInStaff(ctx, { firstName: 'Assigned' });
    other = await signInStaff(ctx, { firstName: 'Other' });
    await createSession(ctx.handle.db, '2025/2026', true);
  });
  afterAll(() => ctx.close());

  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, who: SignedIn, payload?: object) =>
    ctx.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });

  async function student(arm: string, firstName = 'Tolu') {
    seq++;
    return createStudent(ctx.handle.db, {
      email: `tr${seq}-${Date.now()}@test.school`,
      password: TEST_PASSWORD,
      firstName,
      lastName: `T${seq}`,
      arm: arm,
    });
  }
  let sessions = 0;
  /** A session of the test's own, made the current one: teachers write only in the current session (30.8). */
  async function session() {
    const start = 2200 + sessions++;
    return createSession(ctx.handle.db, `${start}/${start + 1}`, true);
  }
  const bulk = (
    who: SignedIn,
    s: { admissionNumber: string },
    sessionId: number,
    cls: string,
    subjects: { name: string; score: number }[],
  ) =>
    inject('POST', '/api/results/', who, {
      admission_number: s.admissionNumber,
      session_id: sessionId,
      term: '1st',
      student_class: cls,
      subjects,
    });
  const single = (who: SignedIn, s: { admissionNumber: string }, sessionId: number, cls: string, subject: string, score = 55) =>
    inject('POST', '/api/results/', who, {
      admission_number: s.admissionNumber,
      session_id: sessionId,
      term: '1st',
      student_class: cls,
      subject,
      score,
    });

  describe('classes and subjects are the school’s lists', () => {
    it('refuses a well-formed class the school does not have, and a subject not in the catalogue', async () => {
      const sess = await session();
      const s = await student('JSS 2A');
      const noClass = await bulk(admin, s, sess.id, 'JSS 2Z', [{ name: 'Mathematics', score: 50 }]);
      expect(noClass.statusCode).toBe(400);
      expect(noClass.json()).toEqual({ student_class: [TEACHING_MESSAGES.classUnknown('JSS 2Z')] });
      const noSubject = await single(admin, s, sess.id, 'JSS 2A', 'Astrology');
      expect(noSubject.json()).toEqual({ subject: [RESULT_MESSAGES.unknownSubject] });

      const body = {
        first_name: 'New',
        last_name: 'Pupil',
        email: `np-${Date.now()}@test.school`,
        phone_number: '08031234567',
        gender: 'F',
        date_of_birth: '2012-03-04',
        fathers_name: 'Mr Pupil',
        home_address: '1 School Road, Lagos',
      };
      const badStudent = await inject('POST', '/api/students/', admin, { ...body, student_class: 'JSS 3 Gold' });
      expect(badStudent.statusCode).toBe(400);
      expect(badStudent.json()).toEqual({ student_class: [PEOPLE_MESSAGES.invalidClass] });
      // A new arm is accepted as soon as the school has it; a retired one takes no new students.
      await addArm(ctx, 'JSS 3', 'Gold');
      const ok = await inject('POST', '/api/students/', admin, { ...body, student_class: 'jss 3  Gold' });
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json().student_class).toBe('JSS 3 Gold');
      await ctx.handle.db.updateTable('class_arms').set({ retired: 1 }).where('name', '=', 'JSS 3 Gold').execute();
      const retired = await inject('POST', '/api/students/', admin, {
        ...body,
        email: `np2-${Date.now()}@test.school`,
        student_class: 'JSS 3 Gold',
      });
      expect(retired.json()).toEqual({ student_class: [TEACHING_MESSAGES.classRetired('JSS 3 Gold')] });

      const fee = await inject('POST', '/api/payments/fee-schedules/', admin, {
        session_id: sess.id,
        student_class: 'SSS 3Z',
        term: '1st',
        amount: 1000,
        description: 'Tuition',
      });
      expect(fee.statusCode).toBe(400);
      expect(fee.json()).toEqual({ student_class: [PAYMENT_MESSAGES.classInvalid] });
    });
  });

  describe('a score only for a subject the student takes', () => {
    it('refuses a subject not offered, accepts it once chosen, and keeps an old score changeable', async () => {
      await offerAtLevel(ctx.handle.db, 'JSS 3', ['Mathematics', 'English Language'], ['French']);
      const sess = await session();
      const s = await student('JSS 3A', 'Kemi');
      const name = `Kemi T${seq}`;
      const refused = await bulk(admin, s, sess.id, 'JSS 3A', [
        { name: 'Mathematics', score: 70 },
        { name: 'French', score: 60 },
      ]);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ subjects: [TEACHING_MESSAGES.subjectNotOffered('French', name)] });
      expect((await single(admin, s, sess.id, 'JSS 3A', 'French')).json()).toEqual({
        subject: [TEACHING_MESSAGES.subjectNotOffered('French', name)],
      });
      const stored = await ctx.handle.db.selectFrom('results').select('id').where('student_id', '=', s.id).execute();
      expect(stored).toHaveLength(0);

      const math = await single(admin, s, sess.id, 'JSS 3A', 'Mathematics', 70);
      expect(math.statusCode).toBe(201);
      const toFrench = await inject('PATCH', `/api/results/${math.json().id}/`, admin, { subject: 'French' });
      expect(toFrench.json()).toEqual({ subject: [TEACHING_MESSAGES.subjectNotOffered('French', name)] });

      await chooseSubject(ctx.handle.db, s.id, 'French', 'add');
      const french = await single(admin, s, sess.id, 'JSS 3A', 'French', 60);
      expect(french.statusCode).toBe(201);

      // The elective is dropped later: the stored score can still be changed and deleted.
      await ctx.handle.db.deleteFrom('student_subjects').where('student_id', '=', s.id).execute();
      const again = await bulk(admin, s, sess.id, 'JSS 3A', [{ name: 'French', score: 65 }]);
      expect(again.statusCode, again.body).toBe(200);
      const changed = await inject('PATCH', `/api/results/${french.json().id}/`, admin, { score: 66 });
      expect(changed.statusCode).toBe(200);
      expect((await inject('DELETE', `/api/results/${french.json().id}/`, admin)).statusCode).toBe(204);
    });
  });

  describe('who may write a score', () => {
    it('with assignments enforced: the assigned teacher writes, another staff member gets 403 not_assigned, the admin always writes', async () => {
      const sess = await session();
      await enforceAssignments(ctx.handle.db, sess.id, true);
      await assign(ctx.handle.db, sess.id, 'JSS 2A', 'Mathematics', assigned.id);
      const s = await student('JSS 2A');
      const refusal = { detail: TEACHING_MESSAGES.notYourSubject('Mathematics', 'JSS 2A'), code: NOT_YOUR_SUBJECT_CODE };

      const no = await bulk(other, s, sess.id, 'JSS 2A', [{ name: 'Mathematics', score: 50 }]);
      expect(no.statusCode).toBe(403);
      expect(no.json()).toEqual(refusal);
      expect((await single(other, s, sess.id, 'JSS 2A', 'Mathematics')).json()).toEqual(refusal);
      const created = await bulk(assigned, s, sess.id, 'JSS 2A', [{ name: 'Mathematics', score: 50 }]);
      expect(created.statusCode).toBe(201);
      const id = created.json()[0].id as number;
      expect((await single(assigned, s, sess.id, 'JSS 2A', 'Mathematics', 52)).statusCode).toBe(200);

      // One subject of the request not theirs: nothing of it is written.
      const mixed = await bulk(assigned, s, sess.id, 'JSS 2A', [
        { name: 'Mathematics', score: 99 },
        { name: 'English Language', score: 60 },
      ]);
      expect(mixed.statusCode).toBe(403);
      expect(mixed.json().code).toBe(NOT_YOUR_SUBJECT_CODE);
      const rows = await ctx.handle.db.selectFrom('results').select(['subject', 'score']).where('student_id', '=', s.id).execute();
      expect(rows).toEqual([{ subject: 'Mathematics', score: 52 }]);

      // Changing a row to a subject they do not teach is refused as well.
      expect((await inject('PATCH', `/api/results/${id}/`, assigned, { subject: 'English Language' })).statusCode).toBe(403);
      const patchNo = await inject('PATCH', `/api/results/${id}/`, other, { score: 10 });
      expect(patchNo.statusCode).toBe(403);
      expect(patchNo.json()).toEqual(refusal);
      expect((await inject('PATCH', `/api/results/${id}/`, assigned, { score: 53 })).statusCode).toBe(200);
      expect((await inject('DELETE', `/api/results/${id}/`, other)).json()).toEqual(refusal);
      expect((await inject('DELETE', `/api/results/${id}/`, assigned)).statusCode).toBe(204);

      expect((await bulk(admin, s, sess.id, 'JSS 2A', [{ name: 'English Language', score: 60 }])).statusCode).toBe(201);
      // Reading stays as it was: every staff member sees the class's scores.
      const read = await inject('GET', `/api/results/?session_id=${sess.id}&term=1st&admission_number=${s.admissionNumber}`, other);
      expect(read.json()).toHaveLength(1);
    });

    it('without enforcement (no row, or switched off) every staff member writes every score, as before', async () => {
      const sess = await session();
      const s = await student('JSS 2A');
      expect((await bulk(other, s, sess.id, 'JSS 2A', [{ name: 'French', score: 50 }])).statusCode).toBe(201);
      await enforceAssignments(ctx.handle.db, sess.id, false);
      await assign(ctx.handle.db, sess.id, 'JSS 2A', 'French', assigned.id);
      expect((await single(other, s, sess.id, 'JSS 2A', 'French', 51)).statusCode).toBe(200);
    });

    it('a closed score-entry window refuses staff (the level row wins over the all-levels row) but not the admin', async () => {
      const sess = await session();
      const s = await student('JSS 2A');
      const closed = { detail: TEACHING_MESSAGES.entryClosed('First Term', 'JSS 2'), code: ENTRY_CLOSED_CODE };

      await setWindow(ctx.handle.db, sess.id, '1st', '', false);
      const all = await bulk(assigned, s, sess.id, 'JSS 2A', [{ name: 'Mathematics', score: 50 }]);
      expect(all.statusCode).toBe(403);
      expect(all.json()).toEqual(closed);
      const byAdmin = await bulk(admin, s, sess.id, 'JSS 2A', [{ name: 'Mathematics', score: 50 }]);
      expect(byAdmin.statusCode).toBe(201);
      const id = byAdmin.json()[0].id as number;
      expect((await inject('PATCH', `/api/results/${id}/`, assigned, { score: 60 })).json()).toEqual(closed);
      expect((await inject('DELETE', `/api/results/${id}/`, assigned)).json()).toEqual(closed);
      // Another term's window is its own.
      const second = await inject('POST', '/api/results/', assigned, {
        admission_number: s.admissionNumber,
        session_id: sess.id,
        term: '2nd',
        student_class: 'JSS 2A',
        subject: 'Mathematics',
        score: 40,
      });
      expect(second.statusCode).toBe(201);

      await setWindow(ctx.handle.db, sess.id, '1st', 'JSS 2', true);
      expect((await inject('PATCH', `/api/results/${id}/`, assigned, { score: 61 })).statusCode).toBe(200);

      await setWindow(ctx.handle.db, sess.id, '1st', '', true);
      await setWindow(ctx.handle.db, sess.id, '1st', 'JSS 2', false);
      expect((await single(assigned, s, sess.id, 'JSS 2A', 'French')).json()).toEqual(closed);
      const other1 = await student('JSS 1A');
      expect((await single(assigned, other1, sess.id, 'JSS 1A', 'French')).statusCode).toBe(201);
      expect((await inject('DELETE', `/api/results/${id}/`, admin)).statusCode).toBe(204);
    });

    it('reads who may write once per request, whatever the number of rows', async () => {
      const sess = await session();
      await enforceAssignments(ctx.handle.db, sess.id, true);
      for (const subject of SUBJECTS) await assign(ctx.handle.db, sess.id, 'JSS 2B', subject, assigned.id);
      const s = await student('JSS 2B');
      const spy = vi.spyOn(TeachingRepository.prototype, 'writeAccess');
      try {
        const res = await bulk(
          assigned,
          s,
          sess.id,
          'JSS 2B',
          SUBJECTS.map((name, i) => ({ name, score: 40 + i })),
        );
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json()).toHaveLength(14);
        expect(spy).toHaveBeenCalledTimes(1);
        spy.mockClear();
        const refused = await bulk(
          other,
          s,
          sess.id,
          'JSS 2B',
          SUBJECTS.map((name) => ({ name, score: 50 })),
        );
        expect(refused.statusCode).toBe(403);
        expect(spy).toHaveBeenCalledTimes(1);
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('report card and broadsheet list the students’ own subjects', () => {
    it('a stream student and an elective student: their subjects in catalogue order, not-taken apart from missing', async () => {
      await offerAtLevel(ctx.handle.db, 'SSS 2', ['Mathematics', 'English Language'], ['French', 'Agricultural Science']);
      const stream = await addStream(ctx.handle.db, `Science ${dialect}`, ['Computer Studies', 'Basic Science']);
      const sess = await session();
      const science = await student('SSS 2A', 'Sade');
      await setStream(ctx.handle.db, science.id, stream);
      const elective = await student('SSS 2A', 'Yemi');
      await chooseSubject(ctx.handle.db, elective.id, 'French', 'add');
      await chooseSubject(ctx.handle.db, elective.id, 'English Language', 'drop');

      expect((await bulk(admin, science, sess.id, 'SSS 2A', [{ name: 'Mathematics', score: 70 }])).statusCode).toBe(201);
      expect(
        (
          await bulk(admin, elective, sess.id, 'SSS 2A', [
            { name: 'Mathematics', score: 60 },
            { name: 'French', score: 55 },
          ])
        ).statusCode,
      ).toBe(201);
      // A score stored before the structure changed (a subject the student does not take now) still shows.
      await createResults(ctx.handle.db, [
        { studentId: science.id, sessionId: sess.id, term: '1st', arm: 'SSS 2A', subject: 'Agricultural Science', score: 45 },
      ]);

      const card = await inject(
        'GET',
        `/api/report-card/?admission_number=${science.admissionNumber}&session_id=${sess.id}&term=1st`,
        admin,
      );
      expect(card.statusCode, card.body).toBe(200);
      const subjects = card.json().subjects as { subject: string; score: number | null; position: number | null; grade: string }[];
      expect(subjects.map((x) => x.subject)).toEqual([
        'Mathematics',
        'English Language',
        'Basic Science',
        'Computer Studies',
        'Agricultural Science',
      ]);
      expect(subjects[0]).toMatchObject({ score: 70, position: 1 });
      expect(subjects[1]).toMatchObject({ score: null, position: null, grade: '' });
      expect(card.json()).toMatchObject({ subjects_taken: 2, total: 115 });
      const yemi = await inject(
        'GET',
        `/api/report-card/?admission_number=${elective.admissionNumber}&session_id=${sess.id}&term=1st`,
        admin,
      );
      expect(yemi.json().subjects.map((x: { subject: string }) => x.subject)).toEqual(['Mathematics', 'French']);

      const cards = await inject('GET', `/api/report-cards/?session_id=${sess.id}&term=1st&student_class=SSS 2A`, admin);
      expect(
        cards
          .json()
          .map((c: { subjects: unknown[] }) => c.subjects.length)
          .sort(),
      ).toEqual([2, 5]);

      const sheet = (await inject('GET', `/api/broadsheet/?session_id=${sess.id}&term=1st&student_class=SSS 2A`, admin)).json();
      const c = sheet.classes[0];
      expect(c.subjects).toEqual([
        'Mathematics',
        'English Language',
        'Basic Science',
        'Computer Studies',
        'French',
        'Agricultural Science',
      ]);
      expect(sheet.subjects).toEqual(c.subjects);
      const rowOf = (a: string) => c.rows.find((r: { admission_number: string }) => r.admission_number === a);
      expect(rowOf(science.admissionNumber)).toMatchObject({
        scores: { Mathematics: 70, 'English Language': null, French: null, 'Agricultural Science': 45 },
        not_taken: ['French'],
      });
      expect(rowOf(elective.admissionNumber)).toMatchObject({
        scores: { Mathematics: 60, 'English Language': null, French: 55 },
        not_taken: ['English Language', 'Basic Science', 'Computer Studies', 'Agricultural Science'],
      });
      const csv = await inject('GET', `/api/broadsheet/csv/?session_id=${sess.id}&term=1st&student_class=SSS 2A`, admin);
      const line = csv.body.split('\n').find((l) => l.includes(elective.admissionNumber))!;
      const na = RESULT_ADMIN_MESSAGES.notTaken;
      expect(line).toContain(`,60,${na},${na},${na},55,${na},`);
    });

    it('the whole-school broadsheet reads the students’ subjects once a batch of classes, never per student', async () => {
      const sess = await session();
      for (const cls of ['JSS 1A', 'JSS 2A', 'SSS 1A']) {
        for (let i = 0; i < 3; i++) {
          const s = await student(cls);
          await createResults(ctx.handle.db, [
            { studentId: s.id, sessionId: sess.id, term: '1st', arm: cls, subject: 'Mathematics', score: 50 + i },
          ]);
        }
      }
      const spy = vi.spyOn(TeachingRepository.prototype, 'studentChoices');
      try {
        const sheet = await inject('GET', `/api/broadsheet/?session_id=${sess.id}&term=1st`, admin);
        expect(sheet.statusCode).toBe(200);
        expect(sheet.json().classes).toHaveLength(3);
        // Streamed: the first class alone (its rows leave at once), then the next two together.
        expect(spy.mock.calls.map((c) => c[0].length)).toEqual([3, 6]);
      } finally {
        spy.mockRestore();
      }
    });
  });
});

import { expect, it } from 'vitest';
import { type AbsentToday, type ArmApproval, type ScoreSheet } from '@portal/domain';
import { type StaffDashboard } from '@portal/domain/dashboard-staff';
import { createResults } from '../../db/factories';
import type { AuthUser } from '../../http/auth';
import { addStudent, describeEachDatabase, servicesOver, type SignedIn, type TestContext } from '../../../test/helpers';
import { attendanceArm, saveRegister, testClock, withRegisterSchool } from '../../../test/attendance-fixtures';
import { putEntry } from '../../../test/card-fixtures';
import { assign, chooseSubject, offerAtLevel } from '../../../test/teaching-fixtures';
import { countStatements } from '../../../test/statement-count';

const TODAY = '2025-10-08';

describeEachDatabase('the staff dashboard', (dialect) => {
  const clock = testClock(TODAY);
  let ctx: TestContext, admin: SignedIn, teacher: SignedIn & { id: number }, other: SignedIn & { id: number }, sessionId: number;
  withRegisterSchool(dialect, clock, async (s) => {
    ({ ctx, admin, teacher, other, sessionId } = s);
    await offerAtLevel(ctx.handle.db, 'JSS 1', ['Mathematics', 'English Language'], ['French']);
  });

  const dashboard = async (who: SignedIn, query = '') => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/dashboards/staff/${query}`, headers: who.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<StaffDashboard>();
  };

  /** An arm of its own, `teacher` its form teacher, teaching Mathematics and French there; `n` students. */
  async function school(n: number, names?: string[]) {
    const { cls, kids } = await attendanceArm(ctx, sessionId, teacher.id, names ?? Array.from({ length: n }, (_, i) => `Kid K${i}`));
    await assign(ctx.handle.db, sessionId, cls, 'Mathematics', teacher.id);
    await assign(ctx.handle.db, sessionId, cls, 'French', teacher.id);
    return { cls, kids };
  }

  it('equals the score sheets, the absent-today report and the approvals list on the same data', async () => {
    clock.at(TODAY);
    const { cls, kids } = await school(0, ['Ada Eze', 'Bola Ade', 'Chidi Obi', 'Dayo Ola']);
    // French is an elective: only Ada takes it. Three of four have Mathematics scores, Ada her French.
    await chooseSubject(ctx.handle.db, kids[0]!.id, 'French', 'add');
    await createResults(ctx.handle.db, [
      { studentId: kids[0]!.id, sessionId, term: '1st', arm: cls, subject: 'Mathematics', score: 71 },
      { studentId: kids[1]!.id, sessionId, term: '1st', arm: cls, subject: 'Mathematics', score: 58.5 },
      { studentId: kids[2]!.id, sessionId, term: '1st', arm: cls, subject: 'Mathematics', score: 40 },
      { studentId: kids[0]!.id, sessionId, term: '1st', arm: cls, subject: 'French', score: 66 },
    ]);
    // Today's register: Bola absent (and absent yesterday too: a streak of 2), Dayo excused.
    const marks = (absent: string[], excused: string[] = []) =>
      kids.map((k) => ({
        admission_number: k.admissionNumber,
        status: absent.includes(k.name) ? 'absent' : excused.includes(k.name) ? 'excused' : 'present',
      }));
    clock.at('2025-10-07');
    expect(
      (
        await saveRegister(ctx, teacher, {
          student_class: cls,
          date: '2025-10-07',
          period: 'morning',
          marks: marks(['Bola Ade']),
          version: 0,
        })
      ).statusCode,
    ).toBe(200);
    clock.at(TODAY);
    const before = await dashboard(teacher);
    expect(before.form_classes.find((f) => f.student_class === cls)?.register_done).toBe(false);
    expect(
      (
        await saveRegister(ctx, teacher, {
          student_class: cls,
          date: TODAY,
          period: 'morning',
          marks: marks(['Bola Ade'], ['Dayo Ola']),
          version: 0,
        })
      ).statusCode,
    ).toBe(200);
    // A student who left the arm after a Mathematics score: the sheet still lists them (and so does the dashboard).
    const left = await addStudent(ctx, cls, 'Eke', 'Uzo');
    await createResults(ctx.handle.db, [{ studentId: left.id, sessionId, term: '1st', arm: cls, subject: 'Mathematics', score: 90 }]);
    await ctx.handle.db.updateTable('students').set({ status: 'withdrawn' }).where('id', '=', left.id).execute();
    // Two form comments.
    await putEntry(ctx.handle.db, {
      student_id: kids[0]!.id,
      session_id: sessionId,
      term: '1st',
      student_class: cls,
      form_comment: 'Good work.',
    });
    await putEntry(ctx.handle.db, {
      student_id: kids[1]!.id,
      session_id: sessionId,
      term: '1st',
      student_class: cls,
      form_comment: 'Try harder.',
    });

    const d = await dashboard(teacher);
    expect(d).toMatchObject({ session_id: sessionId, term: '1st', today: TODAY });
    for (const subject of ['Mathematics', 'French']) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/score-sheet/?${new URLSearchParams({ session_id: String(sessionId), term: '1st', student_class: cls, subject }).toString()}`,
        headers: teacher.auth,
      });
      const sheet = res.json<ScoreSheet>();
      const row = d.subjects.find((p) => p.student_class === cls && p.subject === subject)!;
      expect(row).toEqual({
        student_class: cls,
        subject,
        entered: sheet.rows.filter((r) => r.result).length,
        expected: sheet.rows.filter((r) => r.takes || r.result).length,
        average: sheet.stats?.average ?? null,
      });
    }
    expect(d.subjects.find((p) => p.subject === 'Mathematics' && p.student_class === cls)).toMatchObject({
      entered: 4,
      expected: 5,
      average: 64.88,
    });
    expect(d.subjects.find((p) => p.subject === 'French' && p.student_class === cls)).toMatchObject({
      entered: 1,
      expected: 1,
      average: 66,
    });

    const absent = (await ctx.app.inject({ method: 'GET', url: '/api/attendance/absent/', headers: admin.auth })).json<AbsentToday>();
    const form = d.form_classes.find((f) => f.student_class === cls)!;
    expect(form.register_done).toBe(true);
    expect(form.school_day).toBe(true);
    expect(form.absentees).toEqual(absent.absentees.filter((a) => a.student_class === cls).map(({ student_class: _c, ...a }) => a));
    expect(form.absentees.map((a) => [a.name, a.streak])).toEqual([
      ['Bola Ade', 2],
      ['Dayo Ola', 1],
    ]);
    const approvals = (
      await ctx.app.inject({ method: 'GET', url: `/api/report-approvals/?session_id=${sessionId}&term=1st`, headers: teacher.auth })
    ).json<ArmApproval[]>();
    const a = approvals.find((x) => x.student_class === cls)!;
    expect(form).toMatchObject({
      students: 4,
      cards: a.students,
      card_status: a.status,
      form_comments_missing: a.students - a.form_comments,
      ratings_missing: a.students - a.rated,
    });
    // Cards are the four students with a score (Dayo has none; Eke left with one); two have their comment.
    expect(form).toMatchObject({ cards: 4, form_comments_missing: 2, ratings_missing: 4 });
  });

  it('shows a teacher only their own arms; another teacher sees none of them', async () => {
    clock.at(TODAY);
    const { cls } = await school(2);
    const mine = await dashboard(teacher);
    expect(mine.subjects.some((p) => p.student_class === cls)).toBe(true);
    expect(mine.form_classes.some((f) => f.student_class === cls)).toBe(true);
    const theirs = await dashboard(other);
    expect(theirs.subjects.some((p) => p.student_class === cls)).toBe(false);
    expect(theirs.form_classes.some((f) => f.student_class === cls)).toBe(false);
    // A student is refused; an unknown session is a 400, not a 500.
    const student = await ctx.app.inject({ method: 'GET', url: '/api/dashboards/staff/?session=999999', headers: teacher.auth });
    expect(student.statusCode).toBe(400);
  });

  it('runs the same number of statements for 2 and for 20 students', async () => {
    clock.at(TODAY);
    const counts: number[] = [];
    const actor = {
      id: teacher.userId,
      role: 'staff',
      email: teacher.email,
      mustChangePassword: false,
      familyId: '',
      capable: false,
    } as AuthUser;
    for (const n of [2, 20]) {
      const { cls, kids } = await school(n);
      await createResults(
        ctx.handle.db,
        kids.map((k, i) => ({ studentId: k.id, sessionId, term: '1st' as const, arm: cls, subject: 'Mathematics', score: 40 + i })),
      );
      counts.push(await countStatements(ctx, dialect, (conn) => servicesOver(ctx, conn, { now: clock.now }).staffDashboard.get(actor, {})));
    }
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[1]).toBe(counts[0]);
  });
});

import { expect, it } from 'vitest';
import { SCALE_MESSAGES } from '@portal/domain';
import { withSchool, describeEachDatabase, type SignedIn, type TestContext } from '../../../test/helpers';
import { resultsKit } from '../../../test/results-fixtures';

describeEachDatabase('grading scales', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn, sessionId: number;
  withSchool(dialect, { sessions: ['2025/2026'] }, (s) => ({ ctx, admin, staff, sessionId } = s));

  const kit = resultsKit(
    () => ctx,
    () => staff,
  );
  const { inject, newStudent } = kit;
  const bulk = (admission: string, arm: string, subjects: { name: string; score: unknown }[]) =>
    kit.bulk(admission, arm, subjects, '1st', sessionId);

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
    // Grades would change: the admin must confirm.
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

    // Back to WAEC, through the same API.
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

import { expect, it } from 'vitest';
import type { ArmApproval, ClassArm, CommentSheet, Register } from '@portal/domain';
import { addStudent, describeEachDatabase, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import { createFeeItems } from '../../db/factories';
import { firstTermCalendar, testClock } from '../../../test/attendance-fixtures';
import { makeFormTeacher } from '../../../test/teaching-fixtures';

/**
 * Renaming an arm (JSS 2B -> JSS 2X) keeps everything the arm had. Every stored class
 * name follows its arm's one row (decision 016): the approved report cards stay approved (and locked
 * for the form teacher), the form teacher's comments and the registers stay the arm's, and students,
 * results and fee items follow; the API still speaks class names.
 */
describeEachDatabase('renaming an arm', (dialect) => {
  const clock = testClock('2025-10-08');
  let ctx: TestContext, admin: SignedIn, teacher: SignedIn & { id: number }, sessionId: number;
  withSchool(dialect, { sessions: ['2025/2026'], now: clock.now }, async (s) => {
    ({ ctx, admin, sessionId } = s);
    teacher = s.staff;
    await firstTermCalendar(ctx.app, admin.auth, sessionId);
  });
  const inject = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, who: SignedIn, payload?: object) =>
    ctx.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
  const ok = async (res: Promise<{ statusCode: number; body: string }>, code = 200) => {
    const r = await res;
    expect(r.statusCode, r.body).toBe(code);
    return JSON.parse(r.body) as unknown;
  };

  it('keeps approvals, comments and registers and moves students, results and fees to the new name', async () => {
    const from = 'JSS 2B';
    const db = ctx.handle.db;
    await makeFormTeacher(db, sessionId, from, teacher.id);
    const kids = [];
    for (const n of ['Ada Eze', 'Bola Ade', 'Chidi Obi', 'Dayo Ola']) {
      const [first, last] = n.split(' ') as [string, string];
      kids.push(await addStudent(ctx, from, first, last));
    }
    for (const k of kids)
      await ok(
        inject('POST', '/api/results/', admin, {
          admission_number: k.admissionNumber,
          session_id: sessionId,
          term: '1st',
          student_class: from,
          subjects: [{ name: 'Mathematics', score: 70 }],
        }),
        201,
      );
    await createFeeItems(db, [{ arm: from, sessionId, term: '1st', name: 'Tuition', amountKobo: 5_000_000 }]);
    const sheetKey = { session_id: sessionId, term: '1st', student_class: from };
    await ok(
      inject('PUT', '/api/class-comments/', teacher, {
        ...sheetKey,
        rows: kids.map((k) => ({ admission_number: k.admissionNumber, form_comment: `Well done ${k.admissionNumber}`, version: 0 })),
      }),
    );
    await ok(
      inject('PUT', '/api/attendance/register/', teacher, {
        student_class: from,
        date: '2025-10-08',
        period: 'morning',
        marks: kids.map((k, i) => ({ admission_number: k.admissionNumber, status: i === 0 ? 'absent' : 'present' })),
        version: 0,
      }),
    );
    await ok(inject('POST', '/api/report-approvals/submit/', teacher, sheetKey));
    await ok(inject('POST', '/api/report-approvals/approve/', admin, sheetKey));

    const arm = ((await ok(inject('GET', '/api/classes/', admin))) as ClassArm[]).find((a) => a.name === from)!;
    const renamed = (await ok(inject('PATCH', `/api/classes/${arm.id}/`, admin, { arm: 'X' }))) as ClassArm;
    expect(renamed).toMatchObject({ id: arm.id, name: 'JSS 2X', students: 4 });
    const to = 'JSS 2X';

    // The approval is kept, so the form teacher's lock holds.
    const approvals = (await ok(inject('GET', `/api/report-approvals/?session_id=${sessionId}&term=1st`, admin))) as ArmApproval[];
    expect(approvals.find((a) => a.student_class === to)).toMatchObject({ status: 'approved', students: 4, form_comments: 4 });
    expect(approvals.find((a) => a.student_class === from)).toBeUndefined();
    const q = `session_id=${sessionId}&term=1st&student_class=${encodeURIComponent(to)}`;
    const sheet = (await ok(inject('GET', `/api/class-comments/?${q}`, teacher))) as CommentSheet;
    expect(sheet).toMatchObject({ status: 'approved', may_edit_form: false, student_class: to });
    expect(sheet.rows.map((r) => r.form_comment).sort()).toEqual(kids.map((k) => `Well done ${k.admissionNumber}`).sort());

    // The register is still the arm's (saved, with its marks).
    const reg = (await ok(
      inject('GET', `/api/attendance/register/?student_class=${encodeURIComponent(to)}&date=2025-10-08&period=morning`, teacher),
    )) as Register;
    expect(reg.rows.map((r) => r.status).sort()).toEqual(['absent', 'present', 'present', 'present']);

    // Students, results and fee items carry the new name; nothing is left under the old one.
    for (const table of [
      'students',
      'results',
      'fee_items',
      'report_card_entries',
      'report_card_status',
      'attendance_registers',
    ] as const) {
      const rows = await db.selectFrom(table).select('student_class').where('student_class', 'in', [from, to]).execute();
      expect(
        rows.every((r) => r.student_class === to),
        table,
      ).toBe(true);
      expect(rows.length, table).toBeGreaterThan(0);
    }
    const results = (await ok(
      inject('GET', `/api/results/?session_id=${sessionId}&term=1st&student_class=${encodeURIComponent(to)}`, admin),
    )) as {
      count?: number;
      results?: unknown[];
    };
    expect(JSON.stringify(results)).toContain(kids[0]!.admissionNumber);
  });
});

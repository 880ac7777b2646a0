import { expect, it } from 'vitest';
import { TEACHING_MESSAGES, type MyClasses, type SessionAssignments } from '@portal/domain';
import {
  createSession,
  describeEachDatabase,
  signInAdmin,
  signInStaff,
  withTestContext,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { resultsKit } from '../../../test/results-fixtures';

describeEachDatabase('teaching assignments API', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  let grace: SignedIn & { id: number; staffId: string };
  let musa: SignedIn & { id: number; staffId: string };
  let arm: Record<string, number>;
  let subject: Record<string, number>;

  withTestContext(dialect, async (c) => {
    ctx = c;
    admin = await signInAdmin(ctx);
    grace = await signInStaff(ctx, { firstName: 'Grace', lastName: 'Okafor' });
    musa = await signInStaff(ctx, { firstName: 'Musa', lastName: 'Bello' });
    arm = Object.fromEntries((await ctx.handle.db.selectFrom('class_arms').select(['id', 'name']).execute()).map((a) => [a.name, a.id]));
    subject = Object.fromEntries((await ctx.handle.db.selectFrom('subjects').select(['id', 'name']).execute()).map((s) => [s.name, s.id]));
  });

  const { inject, newStudent, newSession } = resultsKit(
    () => ctx,
    () => admin,
  );
  const cell = (className: string, subjectName: string, staff: number[]) => ({
    arm_id: arm[className]!,
    subject_id: subject[subjectName]!,
    staff_ids: staff,
  });
  const grid = (sessionId: number, cells: ReturnType<typeof cell>[]) =>
    inject('PUT', '/api/teaching/assignments/', admin.auth, { session_id: sessionId, cells });
  const teachers = (a: SessionAssignments, className: string, subjectName: string) =>
    a.cells.find((c) => c.arm_id === arm[className] && c.subject_id === subject[subjectName])?.staff.map((s) => s.name) ?? [];

  it('saves the grid cell by cell: a cell sent replaces its teachers, [] clears it, cells not sent stay; audited', async () => {
    const { id } = await newSession();
    let res = await grid(id, [cell('JSS 1A', 'Mathematics', [grace.id, musa.id]), cell('JSS 1B', 'Mathematics', [grace.id])]);
    expect(res.statusCode).toBe(200);
    let a = res.json<SessionAssignments>();
    expect(teachers(a, 'JSS 1A', 'Mathematics')).toEqual(['Musa Bello', 'Grace Okafor']);
    expect(a.cells.find((c) => c.arm_id === arm['JSS 1B'])!.staff).toEqual([
      { id: grace.id, staff_id: grace.staffId, name: 'Grace Okafor' },
    ]);
    res = await grid(id, [cell('JSS 1A', 'Mathematics', [musa.id]), cell('JSS 1B', 'Mathematics', [])]);
    a = res.json<SessionAssignments>();
    expect(teachers(a, 'JSS 1A', 'Mathematics')).toEqual(['Musa Bello']);
    expect(a.cells).toHaveLength(1);
    res = await grid(id, [cell('JSS 2A', 'French', [grace.id])]);
    expect(res.json<SessionAssignments>().cells).toHaveLength(2);
    const got = (await inject('GET', `/api/teaching/assignments/?session_id=${id}`, admin.auth)).json<SessionAssignments>();
    expect(got).toEqual(res.json());
    expect(got).toMatchObject({ session_id: id, enforce_assignments: false, windows: [] });
    const audit = await ctx.handle.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'teaching_assignments')
      .where('entity_id', '=', String(id))
      .execute();
    expect(audit).toHaveLength(3);
  });

  it('refuses unknown or retired arms, unknown subjects and staff, naming the cell; nothing of the request is stored', async () => {
    const { id } = await newSession();
    const retired = (await inject('POST', '/api/classes/', admin.auth, { level: 'JSS 3', arm: 'Z' })).json<{ id: number; name: string }>();
    await inject('PATCH', `/api/classes/${retired.id}/`, admin.auth, { retired: true });
    const good = cell('JSS 1A', 'Mathematics', [grace.id]);
    const cases: [unknown, Record<string, string[]>][] = [
      [{ ...good, arm_id: 99999 }, { 'cells.1.arm_id': [TEACHING_MESSAGES.armNotFound] }],
      [{ ...good, arm_id: retired.id }, { 'cells.1.arm_id': [TEACHING_MESSAGES.armRetired('JSS 3Z')] }],
      [{ ...good, subject_id: 99999 }, { 'cells.1.subject_id': [TEACHING_MESSAGES.subjectNotFound] }],
      [{ ...good, staff_ids: [grace.id, 99999] }, { 'cells.1.staff_ids': [TEACHING_MESSAGES.staffNotFound] }],
    ];
    for (const [bad, errors] of cases) {
      const res = await inject('PUT', '/api/teaching/assignments/', admin.auth, { session_id: id, cells: [good, bad] });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json()).toEqual(errors);
    }
    const unknownSession = await grid(99999, [good]);
    expect(unknownSession.json()).toEqual({ session_id: [TEACHING_MESSAGES.sessionNotFound] });
    expect((await inject('GET', `/api/teaching/assignments/?session_id=${id}`, admin.auth)).json<SessionAssignments>().cells).toEqual([]);
    expect((await inject('GET', '/api/teaching/assignments/', grace.auth)).statusCode).toBe(403);
  });

  it('two admins saving the same cell at once: both answered, the cell holds one of their lists whole', async () => {
    const { id } = await newSession();
    const [a, b] = await Promise.all([
      grid(id, [cell('SSS 1A', 'Mathematics', [grace.id, musa.id])]),
      grid(id, [cell('SSS 1A', 'Mathematics', [musa.id])]),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const final = (await inject('GET', `/api/teaching/assignments/?session_id=${id}`, admin.auth)).json<SessionAssignments>();
    expect([['Musa Bello', 'Grace Okafor'], ['Musa Bello']]).toContainEqual(teachers(final, 'SSS 1A', 'Mathematics'));
  });

  it('sets and clears form teachers; unknown staff or arm is a 400', async () => {
    const { id } = await newSession();
    const put = (arms: unknown[]) => inject('PUT', '/api/teaching/form-teachers/', admin.auth, { session_id: id, arms });
    let a = (await put([{ arm_id: arm['JSS 2B'], staff_id: musa.id }])).json<SessionAssignments>();
    expect(a.form_teachers.find((f) => f.arm_id === arm['JSS 2B'])!.staff).toEqual({
      id: musa.id,
      staff_id: musa.staffId,
      name: 'Musa Bello',
    });
    a = (await put([{ arm_id: arm['JSS 2B'], staff_id: null }])).json<SessionAssignments>();
    expect(a.form_teachers.find((f) => f.arm_id === arm['JSS 2B'])!.staff).toBeNull();
    expect((await put([{ arm_id: arm['JSS 2B'], staff_id: 99999 }])).json()).toEqual({
      'arms.0.staff_id': [TEACHING_MESSAGES.staffNotFound],
    });
    expect((await put([{ arm_id: 99999, staff_id: null }])).json()).toEqual({ 'arms.0.arm_id': [TEACHING_MESSAGES.armNotFound] });
  });

  it('opens and closes score entry per term and level, and switches enforcement; both shown and audited', async () => {
    const { id } = await newSession();
    const win = (term: string, class_level: string, is_open: boolean) =>
      inject('PUT', '/api/teaching/windows/', admin.auth, { session_id: id, term, class_level, is_open });
    await win('1st', '', false);
    await win('1st', 'SSS 3', true);
    const a = (await win('1st', '', false)).json<SessionAssignments>();
    expect(a.windows).toEqual([
      { term: '1st', class_level: '', is_open: false },
      { term: '1st', class_level: 'SSS 3', is_open: true },
    ]);
    const on = await inject('PUT', '/api/teaching/enforcement/', admin.auth, { session_id: id, enforce_assignments: true });
    expect(on.json<SessionAssignments>().enforce_assignments).toBe(true);
    const bad = await win('4th', 'JSS 9', true);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['class_level', 'term']);
    const audit = await ctx.handle.db
      .selectFrom('audit_log')
      .select('entity')
      .where('entity', 'in', ['score_entry_window', 'session_teaching'])
      .execute();
    expect(audit.length).toBeGreaterThanOrEqual(4);
  });

  it("copies the previous session's assignments, form teachers and switch, skipping retired arms", async () => {
    const prev = await createSession(ctx.handle.db, '2040/2041');
    const next = await createSession(ctx.handle.db, '2041/2042');
    const copy = (session_id: number) => inject('POST', '/api/teaching/assignments/copy/', admin.auth, { session_id });
    // Nothing there yet.
    expect((await copy(next.id)).json()).toEqual({ session_id: [TEACHING_MESSAGES.nothingToCopy] });
    const gone = (await inject('POST', '/api/classes/', admin.auth, { level: 'SSS 3', arm: 'Y' })).json<{ id: number }>();
    await inject('PUT', '/api/teaching/assignments/', admin.auth, {
      session_id: prev.id,
      cells: [
        cell('SSS 2A', 'Mathematics', [grace.id, musa.id]),
        { arm_id: gone.id, subject_id: subject['French']!, staff_ids: [grace.id] },
      ],
    });
    await inject('PUT', '/api/teaching/form-teachers/', admin.auth, {
      session_id: prev.id,
      arms: [{ arm_id: arm['SSS 2A'], staff_id: grace.id }],
    });
    await inject('PUT', '/api/teaching/enforcement/', admin.auth, { session_id: prev.id, enforce_assignments: true });
    await inject('PATCH', `/api/classes/${gone.id}/`, admin.auth, { retired: true });

    const res = await copy(next.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ copied: 3, from: '2040/2041' });
    const got = (await inject('GET', `/api/teaching/assignments/?session_id=${next.id}`, admin.auth)).json<SessionAssignments>();
    expect(got.enforce_assignments).toBe(true);
    expect(got.cells.map((c) => [c.arm_id, c.staff.length])).toEqual([[arm['SSS 2A'], 2]]);
    expect(got.form_teachers.find((f) => f.arm_id === arm['SSS 2A'])!.staff?.id).toBe(grace.id);
    // Copying again adds nothing new.
    expect((await copy(next.id)).json()).toEqual({ copied: 0, from: '2040/2041' });
    const first = await createSession(ctx.handle.db, '1990/1991');
    expect((await copy(first.id)).json()).toEqual({ session_id: [TEACHING_MESSAGES.noPreviousSession] });
  });

  it("lists a teacher's own arm-subject pairs and form classes with active students; others and an admin see none of them", async () => {
    const { id } = await newSession();
    await newStudent('JSS 3A');
    await newStudent('JSS 3A');
    await grid(id, [cell('JSS 3A', 'French', [grace.id]), cell('JSS 3A', 'Mathematics', [grace.id]), cell('JSS 3B', 'French', [musa.id])]);
    await inject('PUT', '/api/teaching/form-teachers/', admin.auth, {
      session_id: id,
      arms: [{ arm_id: arm['JSS 3A'], staff_id: grace.id }],
    });
    const mine = await inject('GET', `/api/teaching/my-classes/?session_id=${id}`, grace.auth);
    expect(mine.statusCode).toBe(200);
    const m = mine.json<MyClasses>();
    expect(m.session?.id).toBe(id);
    expect(m.subjects).toEqual([
      { arm_id: arm['JSS 3A'], class_name: 'JSS 3A', subject: 'Mathematics', students: 2 },
      { arm_id: arm['JSS 3A'], class_name: 'JSS 3A', subject: 'French', students: 2 },
    ]);
    expect(m.form_classes).toEqual([{ arm_id: arm['JSS 3A'], class_name: 'JSS 3A', students: 2 }]);
    const his = (await inject('GET', `/api/teaching/my-classes/?session_id=${id}`, musa.auth)).json<MyClasses>();
    expect([his.subjects.map((s) => s.class_name), his.form_classes]).toEqual([['JSS 3B'], []]);
    const adminView = (await inject('GET', `/api/teaching/my-classes/?session_id=${id}`, admin.auth)).json<MyClasses>();
    expect([adminView.subjects, adminView.form_classes]).toEqual([[], []]);
    expect((await inject('GET', '/api/teaching/my-classes/?session_id=99999', grace.auth)).json()).toEqual({
      session_id: [TEACHING_MESSAGES.sessionNotFound],
    });
  });
});

describeEachDatabase('teaching assignments before any session exists', (dialect) => {
  let ctx: TestContext;
  withTestContext(dialect, (c) => (ctx = c));

  it('the grid asks for a session first; my classes is empty', async () => {
    const admin = await signInAdmin(ctx);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/teaching/assignments/', headers: admin.auth });
    expect([res.statusCode, res.json()]).toEqual([400, { session_id: [TEACHING_MESSAGES.noSession] }]);
    const mine = await ctx.app.inject({ method: 'GET', url: '/api/teaching/my-classes/', headers: admin.auth });
    expect(mine.json()).toEqual({ session: null, enforce_assignments: false, subjects: [], form_classes: [] });
  });
});

import { expect, it } from 'vitest';
import { DEFAULT_REPORT_SETTINGS, DEFAULT_SCHOOL_SETTINGS, SETUP_STEP_IDS, type SetupChecklist } from '@portal/domain';
import { nowIso } from '../../db/index';
import {
  addStudent,
  createSession,
  createStaff,
  describeEachDatabase,
  TEST_PASSWORD,
  withAdmin,
  servicesOver,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { createFeeItems } from '../../db/factories';
import { countStatements } from '../../../test/statement-count';

describeEachDatabase('first-run checklist', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  withAdmin(dialect, (s) => ({ ctx, admin } = s));

  const get = async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/setup-checklist/', headers: admin.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<SetupChecklist>();
  };
  const done = async () => (await get()).steps.filter((s) => s.done).map((s) => s.id);

  /** The statements one checklist read runs, counted by a Kysely over the same database. */
  const statements = (): Promise<number> => countStatements(ctx, dialect, (conn) => servicesOver(ctx, conn).setup.checklist());

  it('a new install is a neutral "School portal" with no contact details, never the spec’s sample school', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/settings/' });
    expect(res.json()).toMatchObject({ school_name: 'School portal', address: '', phone: '', email: '' });
    expect(res.body).not.toMatch(/Role Models College|rolemodels/i);
  });

  it('ticks each step as its data appears, in the school’s order, with the same statements for 1 and 30 students', async () => {
    const first = await get();
    expect(first.steps.map((s) => s.id)).toEqual([...SETUP_STEP_IDS]);
    // The spec's classes and subjects come with the install: the only step done on a new one.
    expect(first).toMatchObject({ complete: false, dismissed: false });
    expect(await done()).toEqual(['classes']);
    // Not complete: it cannot be hidden yet.
    const early = await ctx.app.inject({ method: 'POST', url: '/api/setup-checklist/dismiss/', headers: admin.auth });
    expect(early.statusCode).toBe(409);

    const db = ctx.handle.db;
    const put = await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings/',
      headers: admin.auth,
      payload: { ...DEFAULT_SCHOOL_SETTINGS, school_name: 'Hilltop Academy' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await done()).toEqual(['school', 'classes']);

    // A session alone is not the calendar: its term dates are.
    const old = await createSession(db, '2024/2025', false);
    await db
      .insertInto('school_terms')
      .values({ session_id: old.id, term: '1st', starts_on: '2024-09-09', ends_on: '2024-12-13', updated_by: null, updated_at: nowIso() })
      .execute();
    const session = await createSession(db, '2025/2026', true);
    expect(await done()).toEqual(['school', 'classes']);
    // Nor is a term row holding only the card's "next term begins" (typed before the dates).
    await db
      .insertInto('school_terms')
      .values({ session_id: session.id, term: '2nd', starts_on: null, ends_on: null, next_term_begins: '2026-04-27', updated_at: nowIso() })
      .execute();
    expect(await done()).toEqual(['school', 'classes']);
    await db
      .insertInto('school_terms')
      .values({
        session_id: session.id,
        term: '1st',
        starts_on: '2025-09-08',
        ends_on: '2025-12-12',
        updated_by: null,
        updated_at: nowIso(),
      })
      .execute();
    expect(await done()).toContain('calendar');

    await db
      .insertInto('assessment_schemes')
      .values({ session_id: session.id, level: 'JSS', components: '[]', precision: 'whole', updated_by: null, updated_at: nowIso() })
      .execute();
    expect(await done()).toContain('assessment');

    const teacher = await createStaff(db, { firstName: 'Ngozi', lastName: 'Obi', email: 'ngozi@test.school', password: TEST_PASSWORD });
    expect(await done()).toContain('staff');

    await addStudent(ctx, 'JSS 1A', 'Ada', 'Eze');
    expect(await done()).toContain('students');
    const fewStudents = await statements();

    const arm = await db.selectFrom('class_arms').select('id').where('name', '=', 'JSS 1A').executeTakeFirstOrThrow();
    const subject = await db.selectFrom('subjects').select('id').limit(1).executeTakeFirstOrThrow();
    await db
      .insertInto('teaching_assignments')
      .values({ session_id: session.id, arm_id: arm.id, subject_id: subject.id, staff_id: teacher.id, created_at: nowIso() })
      .execute();
    expect(await done()).toContain('assignments');

    await createFeeItems(db, [{ arm: 'JSS 1A', sessionId: session.id, term: '1st', name: 'Tuition', amountKobo: 5_000_000 }]);
    expect(await done()).toContain('fees');

    const report = await ctx.app.inject({
      method: 'PUT',
      url: '/api/report-settings/',
      headers: admin.auth,
      payload: DEFAULT_REPORT_SETTINGS,
    });
    expect(report.statusCode, report.body).toBe(200);
    expect(await get()).toMatchObject({ complete: true, dismissed: false });

    for (let i = 0; i < 29; i++) await addStudent(ctx, 'JSS 1A', 'Count', `K${i}`);
    const manyStudents = await statements();
    // The facts in one statement, whether it was hidden in another: never one per row.
    expect(fewStudents).toBe(2);
    expect(manyStudents).toBe(fewStudents);

    const hide = await ctx.app.inject({ method: 'POST', url: '/api/setup-checklist/dismiss/', headers: admin.auth });
    expect(hide.statusCode, hide.body).toBe(200);
    expect(await get()).toMatchObject({ complete: true, dismissed: true });
  });
});

import { describe, expect, it, vi } from 'vitest';
import { addDays, ATTENDANCE_MESSAGES, ROLLOVER_MESSAGES, SUBJECTS, type RolloverPreview, type RolloverResult } from '@portal/domain';
import { createFeeItems, createSession, createStaff } from '../../db/factories';
import { inTransaction, nowIso } from '../../db/index';
import {
  describeEachDatabase,
  json,
  servicesOver,
  TEST_PASSWORD,
  withSchool,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { assign, enforceAssignments, makeFormTeacher, setWindow } from '../../../test/teaching-fixtures';
import '../attendance/attendance.tables';
import '../payments/payments.tables';
import '../calendar/calendar.tables';
import '../results/results.tables';
import '../teaching/teaching.tables';

/** The 2025/2026 pattern: Monday to Friday terms, each card announcing the next term's start. */
const PATTERN = [
  { term: '1st', starts_on: '2025-09-08', ends_on: '2025-12-12', next_term_begins: '2026-01-05' },
  { term: '2nd', starts_on: '2026-01-05', ends_on: '2026-04-03', next_term_begins: '2026-04-27' },
  { term: '3rd', starts_on: '2026-04-27', ends_on: '2026-07-24', next_term_begins: '2026-09-14' },
] as const;
/** The same a year on (52 weeks: each on its weekday). */
const NEXT_TERMS: { term: string; starts_on: string; ends_on: string; next_term_begins: string | null }[] = [
  { term: '1st', starts_on: '2026-09-07', ends_on: '2026-12-11', next_term_begins: '2027-01-04' },
  { term: '2nd', starts_on: '2027-01-04', ends_on: '2027-04-02', next_term_begins: '2027-04-26' },
  { term: '3rd', starts_on: '2027-04-26', ends_on: '2027-07-23', next_term_begins: '2027-09-13' },
];
const ALL = {
  calendar_events: true,
  fee_items: true,
  fee_increase_percent: 10,
  assessment_schemes: true,
  grading_scales: true,
  report_card_settings: true,
  teaching_assignments: true,
  form_teachers: true,
  enforcement_and_windows: true,
};
const NONE = {
  calendar_events: false,
  fee_items: false,
  fee_increase_percent: null,
  assessment_schemes: false,
  grading_scales: false,
  report_card_settings: false,
  teaching_assignments: false,
  form_teachers: false,
  enforcement_and_windows: false,
};

/** The previous session's calendar: a fixed holiday, a week-8 break (entered twice), a Saturday make-up day; one holiday before it. */
const EVENTS = [
  { name: 'Independence Day', kind: 'holiday', starts_on: '2025-10-01', ends_on: '2025-10-01' },
  { name: 'Mid-term break', kind: 'mid_term_break', starts_on: '2025-10-27', ends_on: '2025-10-31' },
  // Entered twice: moved (and counted) once.
  { name: 'Mid-term break', kind: 'mid_term_break', starts_on: '2025-10-27', ends_on: '2025-10-31' },
  { name: 'Sports make-up day', kind: 'school_day', starts_on: '2026-02-14', ends_on: '2026-02-14' },
  { name: 'Independence Day', kind: 'holiday', starts_on: '2024-10-01', ends_on: '2024-10-01' },
];
/** A register saved in the previous session's 1st term. */
const REGISTER_DAY = '2025-11-04';

/** Events starting in [from, to], in order. */
const eventsBetween = (ctx: TestContext, from: string, to: string) =>
  ctx.handle.db
    .selectFrom('calendar_events')
    .select(['name', 'kind', 'starts_on', 'ends_on'])
    .where('starts_on', '>=', from)
    .where('starts_on', '<=', to)
    .orderBy('starts_on')
    .execute();

/** Every row a new session can own, counted for a session id. */
async function owned(ctx: TestContext, sessionId: number) {
  const db = ctx.handle.db;
  const count = async (
    table:
      | 'fee_items'
      | 'assessment_schemes'
      | 'session_grading_scales'
      | 'teaching_assignments'
      | 'form_teachers'
      | 'score_entry_windows'
      | 'session_teaching'
      | 'school_terms',
  ) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('session_id', '=', sessionId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    fee_items: await count('fee_items'),
    assessment_schemes: await count('assessment_schemes'),
    grading_scales: await count('session_grading_scales'),
    teaching_assignments: await count('teaching_assignments'),
    form_teachers: await count('form_teachers'),
    windows: await count('score_entry_windows'),
    switch: await count('session_teaching'),
    terms: await count('school_terms'),
  };
}

describeEachDatabase('starting the next session', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  let from: number;
  let teacherA: number;
  let teacherB: number;

  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'] }, async (school) => {
    ({ ctx, admin } = school);
    from = school.sessionId;
    const db = ctx.handle.db;
    const now = nowIso();
    await db
      .insertInto('school_terms')
      .values(PATTERN.map((t) => ({ session_id: from, ...t, times_opened: 60, updated_by: null, updated_at: now })))
      .execute();
    await createFeeItems(db, [
      { arm: 'JSS 1A', sessionId: from, term: '1st', name: 'Tuition', amountKobo: 4_512_300 },
      { arm: 'JSS 1A', sessionId: from, term: '1st', name: 'Bus', amountKobo: 1_000_000, compulsory: false },
      { arm: 'JSS 1A', sessionId: from, term: '2nd', name: 'Tuition', amountKobo: 4_500_000 },
      { arm: 'JSS 2A', sessionId: from, term: '3rd', name: 'Tuition', amountKobo: 5_002_500 },
      // A retired arm's item is not copied.
      { arm: 'JSS 1B', sessionId: from, term: '1st', name: 'Tuition', amountKobo: 4_500_000 },
    ]);
    await db.updateTable('fee_items').set({ due_on: '2025-09-30' }).where('session_id', '=', from).execute();
    await db
      .insertInto('calendar_events')
      .values(EVENTS.map((e) => ({ ...e, created_by: null, created_at: now })))
      .execute();
    await db
      .insertInto('attendance_registers')
      .values({
        student_class: 'JSS 1A',
        date: REGISTER_DAY,
        period: 'morning',
        session_id: from,
        term: '1st',
        marked_by: admin.userId,
        marked_at: now,
        updated_by: admin.userId,
        updated_at: now,
      })
      .execute();
    await db.updateTable('class_arms').set({ retired: 1 }).where('name', '=', 'JSS 1B').execute();
    await db
      .insertInto('assessment_schemes')
      .values([
        {
          session_id: from,
          level: 'JSS',
          components: '[{"name":"CA","max":40},{"name":"Exam","max":60}]',
          precision: 'whole',
          updated_by: null,
          updated_at: now,
        },
        {
          session_id: from,
          level: 'SSS',
          components: '[{"name":"CA1","max":20},{"name":"CA2","max":20},{"name":"Exam","max":60}]',
          precision: 'whole',
          updated_by: null,
          updated_at: now,
        },
      ])
      .execute();
    await db
      .insertInto('session_grading_scales')
      .values({
        session_id: from,
        level: 'JSS',
        bands: '[{"grade":"A","min":70,"max":100,"remark":"Excellent"}]',
        updated_by: null,
        updated_at: now,
      })
      .execute();
    const mk = (n: string) => createStaff(db, { email: `${n}@roll.test`, password: TEST_PASSWORD, firstName: n, lastName: 'Teacher' });
    teacherA = (await mk('ada')).id;
    teacherB = (await mk('bola')).id;
    await assign(db, from, 'JSS 1A', SUBJECTS[0], teacherA);
    await assign(db, from, 'JSS 1A', SUBJECTS[1], teacherB);
    await assign(db, from, 'JSS 2A', SUBJECTS[0], teacherB);
    await assign(db, from, 'JSS 1B', SUBJECTS[0], teacherA); // retired arm: not copied
    await makeFormTeacher(db, from, 'JSS 1A', teacherA);
    await makeFormTeacher(db, from, 'JSS 1B', teacherB); // retired arm: not copied
    await enforceAssignments(db, from, true);
    await setWindow(db, from, '1st', '', false);
    await setWindow(db, from, '2nd', 'JSS', true);
  });

  const preview = () =>
    ctx.app.inject({ method: 'GET', url: `/api/session-rollover/preview/?from_session_id=${from}`, headers: admin.auth });
  const start = (body: object) =>
    ctx.app.inject({ method: 'POST', url: '/api/session-rollover/', headers: admin.auth, payload: { from_session_id: from, ...body } });
  const sessionNamed = (name: string) =>
    ctx.handle.db.selectFrom('academic_sessions').selectAll().where('name', '=', name).executeTakeFirst();

  it('previews the next name, the terms a year on (same weekdays) and each copy’s count', async () => {
    const res = await preview();
    expect(res.statusCode).toBe(200);
    expect(json<RolloverPreview>(res)).toEqual({
      from_session: { id: from, name: '2025/2026' },
      name: '2026/2027',
      terms: NEXT_TERMS,
      copies: {
        calendar_events: { count: 3 },
        fee_items: { count: 4 },
        assessment_schemes: { count: 2 },
        grading_scales: { count: 1 },
        report_card_settings: { count: 1, school_wide: true },
        teaching_assignments: { count: 3 },
        form_teachers: { count: 1 },
        enforcement_and_windows: { count: 3 },
      },
    });
    // Without a session named: the current one.
    const current = await ctx.app.inject({ method: 'GET', url: '/api/session-rollover/preview/', headers: admin.auth });
    expect(json<RolloverPreview>(current).from_session.id).toBe(from);
  });

  it('refuses bad dates with the calendar’s messages, writing nothing', async () => {
    const terms = NEXT_TERMS.map((t) => ({ ...t }));
    // Overlapping the previous session's span.
    terms[0]!.starts_on = '2026-07-20';
    terms[0]!.ends_on = '2026-10-30';
    let res = await start({ name: '2026/2027', terms, copy: ALL });
    expect(res.statusCode).toBe(400);
    expect(json(res)).toEqual({ 'terms.0.starts_on': [ATTENDANCE_MESSAGES.termOverlaps('Third Term of 2025/2026')] });
    // Out of order: the 2nd term before the 1st.
    const swapped = NEXT_TERMS.map((t) => ({ ...t }));
    swapped[1] = { ...swapped[1]!, starts_on: '2026-08-03', ends_on: '2026-08-28', next_term_begins: null };
    res = await start({ name: '2026/2027', terms: swapped, copy: ALL });
    expect(res.statusCode).toBe(400);
    expect(json(res)).toEqual({ 'terms.1.starts_on': [ATTENDANCE_MESSAGES.termOrder('First Term of 2026/2027')] });
    // Two terms overlapping each other.
    const overlapping = NEXT_TERMS.map((t) => ({ ...t }));
    overlapping[1] = { ...overlapping[1]!, starts_on: '2026-12-01' };
    res = await start({ name: '2026/2027', terms: overlapping, copy: ALL });
    expect(res.statusCode).toBe(400);
    expect(json(res)).toEqual({ 'terms.1.starts_on': [ATTENDANCE_MESSAGES.termOverlaps('First Term of 2026/2027')] });
    // A term ending before it starts, and a missing term: the schema's messages.
    res = await start({ name: '2026/2027', terms: [{ ...NEXT_TERMS[0], ends_on: '2026-09-01' }, NEXT_TERMS[1], NEXT_TERMS[2]], copy: ALL });
    expect(json(res)).toEqual({ 'terms.0.ends_on': [ATTENDANCE_MESSAGES.termEndBeforeStart] });
    res = await start({ name: '2026/2027', terms: [NEXT_TERMS[0], NEXT_TERMS[1], NEXT_TERMS[1]], copy: ALL });
    expect(json(res)).toEqual({ terms: [ROLLOVER_MESSAGES.termsRequired] });
    expect(await sessionNamed('2026/2027')).toBeUndefined();
  });

  it('refuses a name the school has (409, the domain’s message), writing nothing', async () => {
    const before = await ctx.handle.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await start({ name: '2024/2025', terms: NEXT_TERMS, copy: ALL });
    expect(res.statusCode).toBe(409);
    expect(json(res)).toEqual({ detail: ROLLOVER_MESSAGES.nameTaken('2024/2025') });
    const after = await ctx.handle.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('is all or nothing: a copy failing midway leaves no session, no terms and no copied rows', async () => {
    const services = servicesOver(ctx);
    const fail = vi.spyOn(services.assignments, 'copySessionIn').mockRejectedValue(new Error('injected fault'));
    await expect(
      services.rollover.apply(
        { id: 1 },
        { from_session_id: from, name: '2026/2027', terms: NEXT_TERMS as never, copy: ALL, make_current: true },
      ),
    ).rejects.toThrow('injected fault');
    expect(fail).toHaveBeenCalledOnce();
    expect(await sessionNamed('2026/2027')).toBeUndefined();
    const rows = await ctx.handle.db.selectFrom('fee_items').select('id').where('session_id', 'not in', [from]).execute();
    expect(rows).toEqual([]);
    const current = await ctx.handle.db.selectFrom('academic_sessions').select('id').where('is_current', '=', 1).execute();
    expect(current).toEqual([{ id: from }]);
  });

  it('makes no unticked copy, and leaves the current session where it was', async () => {
    const res = await start({
      name: '2030/2031',
      terms: NEXT_TERMS.map((t) => ({
        ...t,
        starts_on: t.starts_on.replace('2026', '2030').replace('2027', '2031'),
        ends_on: t.ends_on.replace('2026', '2030').replace('2027', '2031'),
        next_term_begins: null,
      })),
      copy: NONE,
    });
    expect(res.statusCode).toBe(201);
    const body = json<RolloverResult>(res);
    expect(body.session).toMatchObject({ name: '2030/2031', is_current: false });
    expect(body.copied).toEqual({
      calendar_events: 0,
      fee_items: 0,
      assessment_schemes: 0,
      grading_scales: 0,
      report_card_settings: 0,
      teaching_assignments: 0,
      form_teachers: 0,
      enforcement_and_windows: 0,
    });
    expect(await owned(ctx, body.session.id)).toEqual({
      fee_items: 0,
      assessment_schemes: 0,
      grading_scales: 0,
      teaching_assignments: 0,
      form_teachers: 0,
      windows: 0,
      switch: 0,
      terms: 3,
    });
    expect((await sessionNamed('2025/2026'))!.is_current).toBe(1);
    expect(await eventsBetween(ctx, '2030-01-01', '2031-12-31')).toEqual([]);
  });

  it('moves the calendar: never twice, and never onto a day with a saved register', async () => {
    // Straight through the service, in a transaction rolled back: new terms a week after the old
    // ones, so the break lands on the register's week and the holiday on itself.
    const services = servicesOver(ctx);
    const weekLater = PATTERN.map((t) => ({ term: t.term, starts_on: addDays(t.starts_on, 7) }));
    expect(weekLater.map((t) => t.starts_on)).toEqual(['2025-09-15', '2026-01-12', '2026-05-04']);
    let written: { name: string; starts_on: string }[] = [];
    await expect(
      inTransaction(ctx.handle.db, async (trx) => {
        const n = await services.calendarEdits.copySessionEventsIn(trx, { id: admin.userId }, from, from, weekLater);
        written = await trx
          .selectFrom('calendar_events')
          .select(['name', 'starts_on'])
          .where('starts_on', '>=', '2025-09-01')
          .orderBy('starts_on')
          .execute();
        expect(n).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // The holiday (a year on by 0 years: itself) and the break (over 2025-11-04) are left out; the make-up day moves.
    expect(written.map((e) => [e.name, e.starts_on])).toEqual([
      ['Independence Day', '2025-10-01'],
      ['Mid-term break', '2025-10-27'],
      ['Mid-term break', '2025-10-27'],
      ['Sports make-up day', '2026-02-14'],
      ['Sports make-up day', '2026-02-21'],
    ]);
    expect(await eventsBetween(ctx, '2025-09-01', '2026-12-31')).toHaveLength(4);
  });

  it('makes every ticked copy right: counts and contents, fees raised and rounded to ₦50, terms as edited', async () => {
    const terms = NEXT_TERMS.map((t) => ({ ...t }));
    terms[0]!.starts_on = '2026-09-14'; // edited
    // The admin had already put next year's Independence Day in.
    await ctx.handle.db
      .insertInto('calendar_events')
      .values({
        name: 'Independence Day',
        kind: 'holiday',
        starts_on: '2026-10-01',
        ends_on: '2026-10-01',
        created_by: null,
        created_at: nowIso(),
      })
      .execute();
    const res = await start({ name: '2026/2027', terms, copy: ALL, make_current: true });
    expect(res.statusCode).toBe(201);
    const body = json<RolloverResult>(res);
    expect(body.session).toMatchObject({ name: '2026/2027', is_current: true });
    expect(body.copied).toEqual({
      calendar_events: 2,
      fee_items: 4,
      assessment_schemes: 2,
      grading_scales: 1,
      report_card_settings: 0,
      teaching_assignments: 3,
      form_teachers: 1,
      enforcement_and_windows: 3,
    });
    const to = body.session.id;
    const db = ctx.handle.db;
    expect((await sessionNamed('2025/2026'))!.is_current).toBe(0);
    const fees = await db
      .selectFrom('fee_items')
      .select(['student_class', 'term', 'name', 'amount_kobo', 'compulsory', 'due_on'])
      .where('session_id', '=', to)
      .orderBy('student_class')
      .orderBy('term')
      .orderBy('name')
      .execute();
    // 10% on: ₦45,123 → ₦49,635.30 → ₦49,650; ₦10,000 → ₦11,000; ₦45,000 → ₦49,500; ₦50,025 → ₦55,027.50 → ₦55,050.
    expect(fees).toEqual([
      { student_class: 'JSS 1A', term: '1st', name: 'Bus', amount_kobo: 1_100_000, compulsory: 0, due_on: null },
      { student_class: 'JSS 1A', term: '1st', name: 'Tuition', amount_kobo: 4_965_000, compulsory: 1, due_on: null },
      { student_class: 'JSS 1A', term: '2nd', name: 'Tuition', amount_kobo: 4_950_000, compulsory: 1, due_on: null },
      { student_class: 'JSS 2A', term: '3rd', name: 'Tuition', amount_kobo: 5_505_000, compulsory: 1, due_on: null },
    ]);
    const schemes = (s: number) =>
      db
        .selectFrom('assessment_schemes')
        .select(['level', 'components', 'precision'])
        .where('session_id', '=', s)
        .orderBy('level')
        .execute();
    expect(await schemes(to)).toEqual(await schemes(from));
    const scales = (s: number) =>
      db.selectFrom('session_grading_scales').select(['level', 'bands']).where('session_id', '=', s).orderBy('level').execute();
    expect(await scales(to)).toEqual(await scales(from));
    const pairs = (s: number) =>
      db
        .selectFrom('teaching_assignments as t')
        .innerJoin('class_arms as a', 'a.id', 't.arm_id')
        .select(['a.name', 't.subject_id', 't.staff_id'])
        .where('t.session_id', '=', s)
        .where('a.retired', '=', 0)
        .orderBy('a.name')
        .orderBy('t.subject_id')
        .execute();
    expect(await pairs(to)).toEqual(await pairs(from));
    expect(await pairs(to)).toHaveLength(3);
    const forms = await db
      .selectFrom('form_teachers as f')
      .innerJoin('class_arms as a', 'a.id', 'f.arm_id')
      .select(['a.name', 'f.staff_id'])
      .where('f.session_id', '=', to)
      .execute();
    expect(forms).toEqual([{ name: 'JSS 1A', staff_id: teacherA }]);
    const windows = (s: number) =>
      db.selectFrom('score_entry_windows').select(['term', 'class_level', 'is_open']).where('session_id', '=', s).orderBy('term').execute();
    expect(await windows(to)).toEqual(await windows(from));
    const sw = await db.selectFrom('session_teaching').select('enforce_assignments').where('session_id', '=', to).executeTakeFirstOrThrow();
    expect(Number(sw.enforce_assignments)).toBe(1);
    const termRows = await db
      .selectFrom('school_terms')
      .select(['term', 'starts_on', 'ends_on', 'next_term_begins', 'times_opened'])
      .where('session_id', '=', to)
      .orderBy('term')
      .execute();
    expect(termRows).toEqual(terms.map((t) => ({ ...t, times_opened: null })));
    // The calendar a year on: the holiday on its date (once), the break in week 8 of the edited 1st
    // term (Monday to Friday), the make-up day on the Saturday 52 weeks on.
    expect(await eventsBetween(ctx, '2026-08-01', '2027-08-31')).toEqual([
      { name: 'Independence Day', kind: 'holiday', starts_on: '2026-10-01', ends_on: '2026-10-01' },
      { name: 'Mid-term break', kind: 'mid_term_break', starts_on: '2026-11-02', ends_on: '2026-11-06' },
      { name: 'Sports make-up day', kind: 'school_day', starts_on: '2027-02-13', ends_on: '2027-02-13' },
    ]);
    // The calendar reads them: the new session's page shows its three terms.
    const cal = await ctx.app.inject({ method: 'GET', url: `/api/attendance/calendar/?session_id=${to}`, headers: admin.auth });
    expect(cal.json<{ terms: { starts_on: string }[] }>().terms.map((t) => t.starts_on)).toEqual(terms.map((t) => t.starts_on));
    // Audited as one step.
    const audit = await db
      .selectFrom('audit_log')
      .select('after')
      .where('action', '=', 'rollover')
      .where('entity_id', '=', String(to))
      .execute();
    expect(audit).toHaveLength(1);
    // And the same name again is refused.
    const again = await start({ name: '2026/2027', terms, copy: ALL });
    expect(again.statusCode).toBe(409);
  });

  describe('whoever else asks', () => {
    it('is the admin’s alone', async () => {
      const staff = await ctx.app.inject({ method: 'GET', url: '/api/session-rollover/preview/' });
      expect(staff.statusCode).toBe(401);
    });
  });

  it('a from session unknown: 400 with the domain’s message', async () => {
    const s = await createSession(ctx.handle.db, '2090/2091');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/session-rollover/',
      headers: admin.auth,
      payload: { from_session_id: s.id + 1000, name: '2091/2092', terms: NEXT_TERMS, copy: NONE },
    });
    expect(res.statusCode).toBe(400);
    expect(json(res)).toEqual({ from_session_id: [ROLLOVER_MESSAGES.fromSessionRequired] });
  });
});

describeEachDatabase('starting the next session of a school with a crowded calendar', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  let from: number;
  const EVENT_COUNT = 11_000; // more bound values than one statement takes on SQLite (32,766) and PostgreSQL (65,535)

  withSchool(dialect, { sessions: ['2025/2026'] }, async (school) => {
    ({ ctx, admin } = school);
    from = school.sessionId;
    const now = nowIso();
    await ctx.handle.db
      .insertInto('school_terms')
      .values(PATTERN.map((t) => ({ session_id: from, ...t, times_opened: null, updated_by: null, updated_at: now })))
      .execute();
    const rows = Array.from({ length: EVENT_COUNT }, (_, i) => ({
      name: `Club day ${i + 1}`,
      kind: 'school_day',
      starts_on: addDays('2025-09-13', 7 * (i % 40)),
      ends_on: addDays('2025-09-13', 7 * (i % 40)),
      created_by: null,
      created_at: now,
    }));
    for (let i = 0; i < rows.length; i += 2_000)
      await ctx.handle.db
        .insertInto('calendar_events')
        .values(rows.slice(i, i + 2_000))
        .execute();
  });

  it('moves every event', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/session-rollover/',
      headers: admin.auth,
      payload: { from_session_id: from, name: '2026/2027', terms: NEXT_TERMS, copy: { ...NONE, calendar_events: true } },
    });
    expect(res.statusCode).toBe(201);
    expect(json<RolloverResult>(res).copied.calendar_events).toBe(EVENT_COUNT);
    expect(await eventsBetween(ctx, '2026-08-01', '2027-08-31')).toHaveLength(EVENT_COUNT);
  });
});

import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { CLASSES, DEFAULT_ATTENDANCE_SETTINGS, SUBJECTS, timesOpened, type CalendarEventKind, type Term } from '@portal/domain';
import { createTestContext, describeEachDatabase, servicesOver, type TestContext } from '../../../test/helpers';
import { seedDemoSchool } from './index';
import { SCHOOL_ARMS, SCHOOL_CATALOGUE, levelOfferings, studentChoice, studentSubjectNames } from './teaching';

const quietLog = { info: () => undefined, warn: () => undefined };

describeEachDatabase('demo school teaching structure', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await seedDemoSchool(ctx.handle.db, quietLog, 2, { staff: 'Teach-Demo-2026', student: 'Learn-Demo-2026' });
    } finally {
      vi.restoreAllMocks();
    }
  });
  afterAll(() => ctx.close());
  const db = () => ctx.handle.db;

  it('has three arms per level and keeps every class and subject name of the earlier release', async () => {
    const arms = await db().selectFrom('class_arms').select(['name', 'retired']).execute();
    expect(arms.map((a) => a.name).sort()).toEqual(SCHOOL_ARMS.map((a) => a.name).sort());
    expect(arms).toHaveLength(18);
    for (const c of CLASSES) expect(arms.map((a) => a.name)).toContain(c);
    const subjects = await servicesOver(ctx).teaching.subjectNames();
    for (const s of SUBJECTS) expect(subjects).toContain(s);
    expect(subjects).toHaveLength(SCHOOL_CATALOGUE.length);
  });

  it('offers 16 subjects per level: 10 compulsory in JSS, 5 compulsory in SSS plus the streams', async () => {
    const rows = await db().selectFrom('level_subjects').select(['class_level', 'compulsory']).execute();
    for (const level of ['JSS 1', 'SSS 3']) {
      const mine = rows.filter((r) => r.class_level === level);
      expect(mine).toHaveLength(16);
      expect(mine.filter((r) => Number(r.compulsory) === 1)).toHaveLength(level.startsWith('JSS') ? 10 : 5);
    }
    const streams = await db().selectFrom('streams').select('name').orderBy('name').execute();
    expect(streams.map((s) => s.name)).toEqual(['Arts', 'Commercial', 'Science']);
  });

  it("stores results only for each student's own subjects, the same list the teaching service derives", async () => {
    const students = await db().selectFrom('students').select(['id', 'student_class', 'stream_id', 'admission_number']).execute();
    expect(students).toHaveLength(36);
    const subjectsOf = await servicesOver(ctx).teaching.subjectsOf(students);
    const results = await db().selectFrom('results').select(['student_id', 'subject', 'term']).where('term', '=', '1st').execute();
    for (const s of students) {
      const stored = results
        .filter((r) => r.student_id === s.id)
        .map((r) => r.subject)
        .sort();
      expect(stored, s.admission_number).toEqual([...subjectsOf.get(s.id)!].sort());
      expect(s.stream_id === null, s.student_class).toBe(s.student_class.startsWith('JSS'));
    }
    // STU-0001 is in JSS 1A (students keep the earlier numbering) and takes 12 subjects.
    const first = students.find((s) => s.admission_number === 'STU-0001')!;
    expect(first.student_class).toBe('JSS 1A');
    expect(subjectsOf.get(first.id)).toEqual(studentSubjectNames('JSS 1', studentChoice(1, 'JSS 1')));
    expect(subjectsOf.get(first.id)).toHaveLength(12);
  });

  it('makes staff3 (who teaches nothing) the bursar, and no one else', async () => {
    const held = await db()
      .selectFrom('staff_capabilities as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select(['u.email', 'c.capability'])
      .execute();
    expect(held).toEqual([{ email: 'staff3@demo.school', capability: 'bursar' }]);
  });

  it('has a teacher for every offered arm-subject pair and a form teacher for every arm; staff1 teaches JSS 1A Mathematics', async () => {
    const session = await db().selectFrom('academic_sessions').select('id').where('is_current', '=', 1).executeTakeFirstOrThrow();
    const cells = await db()
      .selectFrom('teaching_assignments as t')
      .innerJoin('class_arms as a', 'a.id', 't.arm_id')
      .innerJoin('subjects as s', 's.id', 't.subject_id')
      .innerJoin('staff as st', 'st.id', 't.staff_id')
      .innerJoin('users as u', 'u.id', 'st.user_id')
      .select(['a.name as arm', 'a.level', 's.name as subject', 'u.email'])
      .where('t.session_id', '=', session.id)
      .execute();
    const expected = SCHOOL_ARMS.flatMap((a) => levelOfferings(a.level).map((o) => `${a.name}|${o.name}`)).sort();
    expect(cells.map((c) => `${c.arm}|${c.subject}`).sort()).toEqual(expected);
    expect(cells.find((c) => c.arm === 'JSS 1A' && c.subject === 'Mathematics')?.email).toBe('staff1@demo.school');
    expect(cells.find((c) => c.arm === 'JSS 1A' && c.subject === 'English Language')?.email).toBe('staff2@demo.school');
    expect(cells.some((c) => c.email === 'staff3@demo.school')).toBe(false);

    const form = await db()
      .selectFrom('form_teachers as f')
      .innerJoin('class_arms as a', 'a.id', 'f.arm_id')
      .innerJoin('staff as st', 'st.id', 'f.staff_id')
      .innerJoin('users as u', 'u.id', 'st.user_id')
      .select(['a.name', 'u.email'])
      .where('f.session_id', '=', session.id)
      .execute();
    expect(form).toHaveLength(18);
    expect(form.find((f) => f.name === 'JSS 1A')?.email).toBe('staff1@demo.school');

    // Enforcement off and entry open: every staff member may still enter every score.
    expect(await db().selectFrom('session_teaching').select('session_id').where('enforce_assignments', '=', 1).execute()).toEqual([]);
    expect(await db().selectFrom('score_entry_windows').select('session_id').execute()).toEqual([]);
  });

  it("gives the current session's terms their report card dates (next term begins, times school opened)", async () => {
    const session = await db().selectFrom('academic_sessions').select('id').where('is_current', '=', 1).executeTakeFirstOrThrow();
    const terms = await db()
      .selectFrom('school_terms')
      .select(['term', 'next_term_begins', 'times_opened'])
      .where('session_id', '=', session.id)
      .orderBy('term')
      .execute();
    expect(terms).toEqual([
      { term: '1st', next_term_begins: '2026-01-12', times_opened: null },
      { term: '2nd', next_term_begins: '2026-04-27', times_opened: null },
      { term: '3rd', next_term_begins: '2026-09-14', times_opened: null },
    ]);
  });

  it("has the current session's calendar, so times school opened is counted: 64, 54 and 58 school days", async () => {
    const session = await db().selectFrom('academic_sessions').select(['id']).where('is_current', '=', 1).executeTakeFirstOrThrow();
    const dated = await db()
      .selectFrom('school_terms')
      .select(['term', 'starts_on', 'ends_on'])
      .where('session_id', '=', session.id)
      .orderBy('term')
      .$narrowType<{ starts_on: string; ends_on: string }>()
      .execute();
    expect(dated).toEqual([
      { term: '1st', starts_on: '2025-09-15', ends_on: '2025-12-19' },
      { term: '2nd', starts_on: '2026-01-12', ends_on: '2026-04-02' },
      { term: '3rd', starts_on: '2026-04-27', ends_on: '2026-07-24' },
    ]);
    const events = await db().selectFrom('calendar_events').select(['name', 'kind', 'starts_on', 'ends_on']).orderBy('starts_on').execute();
    const cal = {
      settings: DEFAULT_ATTENDANCE_SETTINGS,
      terms: dated.map((t) => ({ ...t, session_id: session.id, term: t.term as Term })),
      events: events.map((e, id) => ({ ...e, id, kind: e.kind as CalendarEventKind })),
    };
    expect(cal.terms.map((t) => timesOpened(cal, t))).toEqual([64, 54, 58]);
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  CLASSES,
  GENERAL_MESSAGES,
  PEOPLE_MESSAGES,
  TEACHING_MESSAGES,
  termLabel,
  type ClassArm,
  type StudentSubjectsAccess,
  type TeachingStructure,
} from '@portal/domain';
import { createFeeItems, createResults } from '../../db/factories';
import '../results/results.tables';
import '../payments/payments.tables';
import {
  createSession,
  createTestContext,
  describeEachDatabase,
  signInAdmin,
  signInStaff,
  signInStudent,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { resultsKit } from '../../../test/results-fixtures';

describeEachDatabase('teaching structure API', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  let staff: SignedIn & { id: number };
  let student: SignedIn;
  let sessionId: number;

  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    admin = await signInAdmin(ctx);
    staff = await signInStaff(ctx);
    student = await signInStudent(ctx, { arm: 'JSS 1A' });
    sessionId = (await createSession(ctx.handle.db, '2025/2026', true)).id;
  });
  afterAll(() => ctx.close());

  const { inject, newStudent } = resultsKit(
    () => ctx,
    () => admin,
  );
  const db = () => ctx.handle.db;
  const subjectId = async (name: string) =>
    (await db().selectFrom('subjects').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const auditRows = (entity: string, entityId: string | number) =>
    db()
      .selectFrom('audit_log')
      .select(['action', 'before', 'after'])
      .where('entity', '=', entity)
      .where('entity_id', '=', String(entityId))
      .execute();

  it('lists the migrated classes and catalogue to every signed-in role; the structure to staff and admin', async () => {
    for (const who of [admin, staff, student]) {
      const arms = (await inject('GET', '/api/classes/', who.auth)).json<ClassArm[]>();
      expect(arms.map((a) => a.name).slice(0, 12)).toEqual([...CLASSES]);
      expect(arms.find((a) => a.name === 'JSS 1A')).toMatchObject({ level: 'JSS 1', arm: 'A', retired: false });
      const subjects = (await inject('GET', '/api/subjects/', who.auth)).json<{ name: string; code: string }[]>();
      expect(subjects[0]).toMatchObject({ name: 'Mathematics', code: 'MTH', section: 'ALL', retired: false });
    }
    const structure = await inject('GET', '/api/teaching/structure/', staff.auth);
    expect(structure.statusCode).toBe(200);
    const s = structure.json<TeachingStructure>();
    expect(s.offerings.map((o) => o.class_level)).toEqual(['JSS 1', 'JSS 2', 'JSS 3', 'SSS 1', 'SSS 2', 'SSS 3']);
    expect(s.offerings[0]!.subjects.length).toBeGreaterThanOrEqual(14);
    expect((await inject('GET', '/api/teaching/structure/', student.auth)).statusCode).toBe(403);
    expect((await inject('GET', '/api/classes/')).statusCode).toBe(401);
  });

  it('adds arms: a letter joins the level, a word follows a space; a taken name or bad input is a 400 naming the field', async () => {
    const res = await inject('POST', '/api/classes/', admin.auth, { level: 'JSS 1', arm: 'c' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ level: 'JSS 1', arm: 'C', name: 'JSS 1C', retired: false, students: 0 });
    expect(await auditRows('class_arm', res.json<ClassArm>().id)).toHaveLength(1);
    const gold = await inject('POST', '/api/classes/', admin.auth, { level: 'SSS 2', arm: 'Gold' });
    expect(gold.json()).toMatchObject({ name: 'SSS 2 Gold' });
    const cases: [unknown, Record<string, string[]>][] = [
      [{ level: 'JSS 1', arm: 'C' }, { arm: [TEACHING_MESSAGES.armTaken('JSS 1C')] }],
      [{ level: 'JSS 9', arm: 'D' }, { level: [TEACHING_MESSAGES.levelInvalid] }],
      [{ level: 'JSS 1', arm: '-x' }, { arm: [TEACHING_MESSAGES.armLabelInvalid] }],
    ];
    for (const [body, errors] of cases) {
      const bad = await inject('POST', '/api/classes/', admin.auth, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json()).toEqual(errors);
    }
    expect((await inject('POST', '/api/classes/', staff.auth, { level: 'JSS 1', arm: 'E' })).statusCode).toBe(403);
  });

  it('renaming an arm moves its students, results, publications and fee items in one audited change', async () => {
    const arm = (await inject('POST', '/api/classes/', admin.auth, { level: 'SSS 3', arm: 'R' })).json<ClassArm>();
    const s = await newStudent('SSS 3A');
    await db().updateTable('students').set({ student_class: 'SSS 3R' }).where('id', '=', s.id).execute();
    await createResults(db(), [{ studentId: s.id, sessionId, term: '1st', arm: 'SSS 3R', subject: 'Mathematics', score: 61 }]);
    const now = new Date().toISOString();
    await db()
      .insertInto('result_publications')
      .values({ session_id: sessionId, term: '1st', student_class: 'SSS 3R', published_by: null, published_at: now })
      .execute();
    await createFeeItems(db(), [{ arm: 'SSS 3R', sessionId, term: '1st', name: 'Tuition', amountKobo: 100, createdAt: now }]);
    const res = await inject('PATCH', `/api/classes/${arm.id}/`, admin.auth, { arm: 'Blue' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: arm.id, arm: 'Blue', name: 'SSS 3 Blue', students: 1 });
    const stored = await db().selectFrom('students').select('student_class').where('id', '=', s.id).executeTakeFirstOrThrow();
    expect(stored.student_class).toBe('SSS 3 Blue');
    const results = await db().selectFrom('results').select('student_class').where('student_id', '=', s.id).execute();
    expect(results.map((r) => r.student_class)).toEqual(['SSS 3 Blue']);
    for (const table of ['result_publications', 'fee_items'] as const) {
      const rows = await db()
        .selectFrom(table)
        .select('student_class')
        .where('session_id', '=', sessionId)
        .where('student_class', 'like', 'SSS 3%')
        .execute();
      expect(
        rows.map((r) => r.student_class),
        table,
      ).toEqual(['SSS 3 Blue']);
    }
    const audit = await auditRows('class_arm', arm.id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'update']);
    expect(JSON.parse(audit[1]!.before!)).toMatchObject({ name: 'SSS 3R' });

    // Renaming onto another arm's name is refused and changes nothing.
    const clash = await inject('PATCH', `/api/classes/${arm.id}/`, admin.auth, { arm: 'A' });
    expect(clash.statusCode).toBe(400);
    expect(clash.json()).toEqual({ arm: [TEACHING_MESSAGES.armTaken('SSS 3A')] });
    // Retiring waits until the arm is empty.
    const refused = await inject('PATCH', `/api/classes/${arm.id}/`, admin.auth, { retired: true });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ retired: [TEACHING_MESSAGES.armHasStudents('SSS 3 Blue', 1)] });
    await db().updateTable('students').set({ status: 'withdrawn' }).where('id', '=', s.id).execute();
    const retired = await inject('PATCH', `/api/classes/${arm.id}/`, admin.auth, { retired: true });
    expect(retired.json()).toMatchObject({ retired: true, students: 0 });
    const missing = await inject('PATCH', '/api/classes/99999/', admin.auth, { retired: true });
    expect([missing.statusCode, missing.json()]).toEqual([404, { detail: TEACHING_MESSAGES.armNotFound }]);
    expect((await inject('PATCH', `/api/classes/${arm.id}/`, admin.auth, {})).statusCode).toBe(400);
    const malformed = await inject('PATCH', '/api/classes/abc/', admin.auth, { retired: true });
    expect([malformed.statusCode, malformed.json()]).toEqual([400, { id: [GENERAL_MESSAGES.invalidId] }]);
  });

  it('adds and edits catalogue subjects; a rename reaches stored results; clashes and bad input are 400s', async () => {
    const created = await inject('POST', '/api/subjects/', admin.auth, { name: 'Further Mathematics', code: 'fmt', section: 'SSS' });
    expect(created.statusCode).toBe(201);
    const fm = created.json<{ id: number }>();
    expect(created.json()).toMatchObject({ name: 'Further Mathematics', code: 'FMT', section: 'SSS', retired: false });
    const cases: [unknown, Record<string, string[]>][] = [
      [{ name: 'further mathematics', code: 'FM2', section: 'SSS' }, { name: [TEACHING_MESSAGES.subjectNameTaken('further mathematics')] }],
      [{ name: 'Geography', code: 'MTH', section: 'ALL' }, { code: [TEACHING_MESSAGES.subjectCodeTaken('MTH')] }],
      [{ name: 'Geography', code: 'G', section: 'ALL' }, { code: [TEACHING_MESSAGES.subjectCodeInvalid] }],
      [{ name: 'Geography', code: 'GEO', section: 'XYZ' }, { section: [TEACHING_MESSAGES.subjectSectionInvalid] }],
      [{ name: '', code: 'GEO', section: 'ALL' }, { name: [TEACHING_MESSAGES.subjectNameRequired] }],
    ];
    for (const [body, errors] of cases) {
      const bad = await inject('POST', '/api/subjects/', admin.auth, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json()).toEqual(errors);
    }

    const s = await newStudent('JSS 2A');
    await createResults(db(), [{ studentId: s.id, sessionId, term: '1st', arm: 'JSS 2A', subject: 'French', score: 55 }]);
    const french = await subjectId('French');
    const renamed = await inject('PATCH', `/api/subjects/${french}/`, admin.auth, { name: 'French Language' });
    expect(renamed.json()).toMatchObject({ id: french, name: 'French Language', code: 'FRE' });
    const r = await db().selectFrom('results').select('subject').where('student_id', '=', s.id).executeTakeFirstOrThrow();
    expect(r.subject).toBe('French Language');
    expect((await auditRows('subject', french)).map((a) => a.action)).toEqual(['update']);

    const taken = await inject('PATCH', `/api/subjects/${fm.id}/`, admin.auth, { code: 'ENG' });
    expect(taken.json()).toEqual({ code: [TEACHING_MESSAGES.subjectCodeTaken('ENG')] });
    // A subject offered at a junior level cannot become senior-only until the level drops it.
    const inUse = await inject('PATCH', `/api/subjects/${french}/`, admin.auth, { section: 'SSS' });
    expect(inUse.json()).toEqual({ section: [TEACHING_MESSAGES.subjectSectionInUse('French Language', 'JSS 1')] });
    const missing = await inject('PATCH', '/api/subjects/99999/', admin.auth, { retired: true });
    expect([missing.statusCode, missing.json()]).toEqual([404, { detail: TEACHING_MESSAGES.subjectNotFound }]);
  });

  it('sets what a level offers; a subject of the other section or not in the catalogue is refused', async () => {
    const fm = (await inject('POST', '/api/subjects/', admin.auth, { name: 'Literature', code: 'LIT', section: 'SSS' })).json<{
      id: number;
    }>();
    const maths = await subjectId('Mathematics');
    const english = await subjectId('English Language');
    const ok = await inject('PUT', `/api/teaching/offerings/${encodeURIComponent('SSS 1')}/`, admin.auth, {
      subjects: [
        { subject_id: fm.id, compulsory: false },
        { subject_id: english, compulsory: true },
        { subject_id: maths, compulsory: true },
      ],
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({
      class_level: 'SSS 1',
      subjects: [
        { subject_id: maths, compulsory: true },
        { subject_id: english, compulsory: true },
        { subject_id: fm.id, compulsory: false },
      ],
    });
    expect(await auditRows('level_subjects', 'SSS 1')).toHaveLength(1);
    const cases: [string, unknown, Record<string, string[]>, number][] = [
      [
        'JSS 1',
        { subjects: [{ subject_id: fm.id, compulsory: true }] },
        { 'subjects.0.subject_id': [TEACHING_MESSAGES.subjectNotForLevel('Literature', 'JSS 1')] },
        400,
      ],
      [
        'JSS 1',
        { subjects: [{ subject_id: 99999, compulsory: true }] },
        { 'subjects.0.subject_id': [TEACHING_MESSAGES.subjectNotFound] },
        400,
      ],
      ['JSS 7', { subjects: [] }, { level: [TEACHING_MESSAGES.levelInvalid] }, 400],
    ];
    for (const [level, body, errors, status] of cases) {
      const bad = await inject('PUT', `/api/teaching/offerings/${encodeURIComponent(level)}/`, admin.auth, body);
      expect(bad.statusCode).toBe(status);
      expect(bad.json()).toEqual(errors);
    }
  });

  it('creates, edits and deletes streams; a deleted stream leaves its students streamless', async () => {
    const physics = (await inject('POST', '/api/subjects/', admin.auth, { name: 'Physics', code: 'PHY', section: 'SSS' })).json<{
      id: number;
    }>();
    const created = await inject('POST', '/api/teaching/streams/', admin.auth, { name: 'Science', subject_ids: [physics.id] });
    expect(created.statusCode).toBe(201);
    const stream = created.json<{ id: number }>();
    expect(created.json()).toEqual({ id: stream.id, name: 'Science', subject_ids: [physics.id] });
    const edited = await inject('PUT', `/api/teaching/streams/${stream.id}/`, admin.auth, { name: 'Sciences', subject_ids: [] });
    expect(edited.json()).toEqual({ id: stream.id, name: 'Sciences', subject_ids: [] });
    const jssOnly = (await inject('POST', '/api/subjects/', admin.auth, { name: 'Basic Tech 2', code: 'BT2', section: 'JSS' })).json<{
      id: number;
    }>();
    const cases: [unknown, Record<string, string[]>][] = [
      [{ name: 'sciences', subject_ids: [] }, { name: [TEACHING_MESSAGES.streamNameTaken('sciences')] }],
      [{ name: 'Arts', subject_ids: [jssOnly.id] }, { 'subject_ids.0': [TEACHING_MESSAGES.subjectNotForLevel('Basic Tech 2', 'SSS')] }],
      [{ name: ' ', subject_ids: [] }, { name: [TEACHING_MESSAGES.streamNameRequired] }],
    ];
    for (const [body, errors] of cases) {
      const bad = await inject('POST', '/api/teaching/streams/', admin.auth, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json()).toEqual(errors);
    }
    const s = await newStudent('SSS 1A');
    await db().updateTable('students').set({ stream_id: stream.id }).where('id', '=', s.id).execute();
    expect((await inject('DELETE', `/api/teaching/streams/${stream.id}/`, admin.auth)).statusCode).toBe(204);
    const row = await db().selectFrom('students').select('stream_id').where('id', '=', s.id).executeTakeFirstOrThrow();
    expect(row.stream_id).toBeNull();
    for (const [method, body] of [
      ['PUT', { name: 'X', subject_ids: [] }],
      ['DELETE', undefined],
    ] as const) {
      const gone = await inject(method, `/api/teaching/streams/${stream.id}/`, admin.auth, body);
      expect([gone.statusCode, gone.json()]).toEqual([404, { detail: TEACHING_MESSAGES.streamNotFound }]);
    }
  });

  it("derives a student's subjects: compulsory + stream + added - dropped, in catalogue order; streams are for SSS only", async () => {
    const chem = (await inject('POST', '/api/subjects/', admin.auth, { name: 'Chemistry', code: 'CHM', section: 'SSS' })).json<{
      id: number;
    }>();
    const econ = (await inject('POST', '/api/subjects/', admin.auth, { name: 'Economics', code: 'ECO', section: 'SSS' })).json<{
      id: number;
    }>();
    const [maths, english, civic] = await Promise.all(['Mathematics', 'English Language', 'Civic Education'].map(subjectId));
    await inject('PUT', `/api/teaching/offerings/${encodeURIComponent('SSS 2')}/`, admin.auth, {
      subjects: [
        { subject_id: maths, compulsory: true },
        { subject_id: english, compulsory: true },
        { subject_id: civic, compulsory: true },
        { subject_id: econ.id, compulsory: false },
      ],
    });
    const stream = (await inject('POST', '/api/teaching/streams/', admin.auth, { name: 'Sci 2', subject_ids: [chem.id] })).json<{
      id: number;
    }>();
    const s = await newStudent('SSS 2A');
    const adm = (await db().selectFrom('students').select('admission_number').where('id', '=', s.id).executeTakeFirstOrThrow())
      .admission_number;
    const url = `/api/teaching/students/${adm}/subjects/`;
    const put = await inject('PUT', url, admin.auth, { stream_id: stream.id, add: [econ.id, civic], drop: [civic] });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({
      admission_number: adm,
      student_class: 'SSS 2A',
      stream_id: stream.id,
      add: [econ.id],
      drop: [civic],
      subjects: ['Mathematics', 'English Language', 'Chemistry', 'Economics'],
    });
    expect(await auditRows('student_subjects', adm)).toHaveLength(1);
    const got = (await inject('GET', url.toLowerCase(), admin.auth)).json<StudentSubjectsAccess>();
    expect(got).toMatchObject({
      subjects: ['Mathematics', 'English Language', 'Chemistry', 'Economics'],
      session_id: sessionId,
      term: '1st',
      refusal: null,
    });
    expect(got.writable).toEqual(got.subjects);

    const junior = await signInStudent(ctx, { arm: 'JSS 3A' });
    const cases: [string, unknown, number, unknown][] = [
      [
        `/api/teaching/students/${junior.admissionNumber}/subjects/`,
        { stream_id: stream.id, add: [], drop: [] },
        400,
        { stream_id: [TEACHING_MESSAGES.streamOnlySenior] },
      ],
      [url, { stream_id: 99999, add: [], drop: [] }, 400, { stream_id: [TEACHING_MESSAGES.streamNotFound] }],
      [url, { stream_id: null, add: [99999], drop: [] }, 400, { 'add.0': [TEACHING_MESSAGES.subjectNotFound] }],
      [
        `/api/teaching/students/${junior.admissionNumber}/subjects/`,
        { stream_id: null, add: [chem.id], drop: [] },
        400,
        { 'add.0': [TEACHING_MESSAGES.subjectNotForLevel('Chemistry', 'JSS 3')] },
      ],
      [
        '/api/teaching/students/STU-9999/subjects/',
        { stream_id: null, add: [], drop: [] },
        404,
        { detail: PEOPLE_MESSAGES.studentNotFound },
      ],
    ];
    for (const [path, body, status, answer] of cases) {
      const bad = await inject('PUT', path, admin.auth, body);
      expect(bad.statusCode, `${path} ${JSON.stringify(body)}`).toBe(status);
      expect(bad.json()).toEqual(answer);
    }
    const unknownSession = await inject('GET', `${url}?session_id=99999`, admin.auth);
    expect(unknownSession.json()).toEqual({ session_id: [TEACHING_MESSAGES.sessionNotFound] });
    expect((await inject('PUT', url, staff.auth, { stream_id: null, add: [], drop: [] })).statusCode).toBe(403);
  });

  it("tells staff which of a student's subjects they may score now: window first, then their assignments when enforced", async () => {
    // Current: a past session is closed to teachers whatever the windows and assignments (30.8).
    const session = (await createSession(db(), '2030/2031', true)).id;
    const s = await newStudent('JSS 1B');
    const adm = (await db().selectFrom('students').select('admission_number').where('id', '=', s.id).executeTakeFirstOrThrow())
      .admission_number;
    const read = async (who: SignedIn, term = '2nd') =>
      (
        await inject('GET', `/api/teaching/students/${adm}/subjects/?session_id=${session}&term=${term}`, who.auth)
      ).json<StudentSubjectsAccess>();
    expect((await read(staff)).writable).toEqual((await read(staff)).subjects);

    const arm = (await db().selectFrom('class_arms').select('id').where('name', '=', 'JSS 1B').executeTakeFirstOrThrow()).id;
    const maths = await subjectId('Mathematics');
    await inject('PUT', '/api/teaching/assignments/', admin.auth, {
      session_id: session,
      cells: [{ arm_id: arm, subject_id: maths, staff_ids: [staff.id] }],
    });
    await inject('PUT', '/api/teaching/enforcement/', admin.auth, { session_id: session, enforce_assignments: true });
    const enforced = await read(staff);
    expect(enforced.writable).toEqual(['Mathematics']);
    expect(enforced.refusal).toBe(TEACHING_MESSAGES.notYourSubject('English Language', 'JSS 1B'));

    await inject('PUT', '/api/teaching/windows/', admin.auth, { session_id: session, term: '2nd', class_level: 'JSS 1', is_open: false });
    const closed = await read(staff);
    expect(closed.writable).toEqual([]);
    expect(closed.refusal).toBe(TEACHING_MESSAGES.entryClosed(termLabel('2nd'), 'JSS 1'));
    // Another term's window is its own; the admin is never refused.
    expect((await read(staff, '3rd')).writable).toEqual(['Mathematics']);
    const asAdmin = await read(admin);
    expect([asAdmin.writable, asAdmin.refusal]).toEqual([asAdmin.subjects, null]);
  });
});
